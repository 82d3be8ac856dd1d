#pragma once
// Asserts for programmer errors (never for bad input: that is what Result is for).
// They stay on in every build type: a ragdoll that silently goes wrong costs more than a branch.

#include <cstdio>
#include <cstdlib>

namespace stagger::detail {
[[noreturn]] inline void assert_failed(const char* expr, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, expr);
  std::abort();
}
}  // namespace stagger::detail

#define STAGGER_ASSERT(expr) \
  ((expr) ? static_cast<void>(0) : ::stagger::detail::assert_failed(#expr, __FILE__, __LINE__))
