#pragma once
// CPU time of the calling thread: on a shared virtual machine, time stolen by other guests does
// not count against what a benchmark measures.

#include <ctime>

namespace stagger {

inline double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

}  // namespace stagger
