#pragma once
// A seeded random sequence that is the same on every platform and compiler
// (std::uniform_real_distribution is not): SplitMix64, small, fast and well mixed.

#include <cstdint>

namespace stagger {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1), 24 bits.
  float unit() { return static_cast<float>(next() >> 40) / static_cast<float>(1ull << 24); }
  /// Uniform in [-1, 1).
  float symmetric() { return 2.0f * unit() - 1.0f; }

 private:
  std::uint64_t state_;
};

}  // namespace stagger
