// Deterministic random numbers shared by every module: splitmix64 (Steele, Lea, Flood 2014) for
// seeding and hashing, and xoshiro256** (Blackman, Vigna 2018) for streams. Their output is the
// same on every platform and standard library, unlike std::*_distribution, whose algorithms are
// implementation-defined.
#pragma once

#include <cstdint>

namespace asg::core {

/// Advances *state by one splitmix64 step and returns the next 64-bit output.
uint64_t SplitMix64(uint64_t* state);

/// xoshiro256** seeded through splitmix64, with uniform doubles and integers built from its bits.
/// A value type owned by its user; not thread-safe (use one per scenario or sensor).
class Random {
 public:
  /// Seeds the four state words from splitmix64 over `seed`.
  explicit Random(uint64_t seed);
  /// The next raw 64-bit output.
  uint64_t NextU64();
  /// Uniform in [0, 1), from the top 53 bits of one output.
  double Uniform01();
  /// Uniform in [min, max] (max itself only through rounding); min when min == max. Always uses
  /// exactly one output, so the stream does not depend on the range.
  double Uniform(double min, double max);
  /// Uniform integer in [min, max] (inclusive, min <= max), without modulo bias.
  int64_t UniformInt(int64_t min, int64_t max);

 private:
  uint64_t state_[4];
};

}  // namespace asg::core
