// Deterministic random numbers for batches: per-scenario seeds and a small generator whose
// output is the same on every platform and standard library (no std::*_distribution, whose
// algorithms are implementation-defined).
#pragma once

#include <cstdint>

namespace asg::client {

/// Advances *state by one splitmix64 step and returns the next 64-bit output.
uint64_t SplitMix64(uint64_t* state);

/// The seed of scenario `scenario_number` of a batch seeded with `batch_seed`: two splitmix64
/// steps over (batch_seed, scenario_number). Stable across versions and platforms; written into
/// RunScenarioRequest::seed and into the scenario's result so a run can be replayed alone.
uint64_t ScenarioSeed(uint64_t batch_seed, uint32_t scenario_number);

/// xoshiro256** seeded through splitmix64, with uniform doubles and integers built from its bits.
/// A value type owned by its user; not thread-safe (use one per scenario).
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

}  // namespace asg::client
