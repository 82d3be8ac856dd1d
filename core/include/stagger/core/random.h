#pragma once
// A seeded random sequence that is the same on every platform and compiler
// (std::uniform_real_distribution is not): SplitMix64, small, fast and well mixed.

#include <cstdint>

namespace stagger {

inline constexpr std::uint64_t kSplitMixStep = 0x9E3779B97F4A7C15ull;

/// SplitMix64's output of a state: a stateless hash of `x + step` (independent streams keyed by
/// a seed and an index, say).
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += kSplitMixStep;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    const std::uint64_t out = splitmix64(state_);
    state_ += kSplitMixStep;
    return out;
  }
  /// Uniform in [0, 1), 24 bits.
  float unit() { return static_cast<float>(next() >> 40) / static_cast<float>(1ull << 24); }
  /// Uniform in [-1, 1).
  float symmetric() { return 2.0f * unit() - 1.0f; }

 private:
  std::uint64_t state_;
};

}  // namespace stagger
