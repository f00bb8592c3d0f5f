// The seeded random numbers of the sensor models: core::Random (xoshiro256** seeded through
// splitmix64, the same sequence with every compiler and standard library) with Gaussians by the
// Box-Muller transform.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/random.h"

namespace asg::scene {

using core::SplitMix64;

/// A sensor's seed from the run seed, the sensor's own seed and its name (FNV-1a hashed).
uint64_t SensorSeed(uint64_t run_seed, uint64_t sensor_seed, std::string_view name);

/// A deterministic generator of uniform and Gaussian numbers. Not thread-safe.
class NoiseGenerator {
 public:
  explicit NoiseGenerator(uint64_t seed);
  /// The next 64 random bits (xoshiro256**).
  uint64_t Next();
  /// Uniform in [0, 1).
  double Uniform();
  /// Gaussian with mean 0 and standard deviation `stddev` (0 returns 0 without drawing).
  double Gaussian(double stddev);

 private:
  core::Random random_;
  double spare_ = 0.0;  ///< second Box-Muller output, unit variance
  bool has_spare_ = false;
};

}  // namespace asg::scene
