#include "scene/sensor_noise.h"

#include <cmath>
#include <numbers>

namespace asg::scene {

uint64_t SensorSeed(uint64_t run_seed, uint64_t sensor_seed, std::string_view name) {
  uint64_t hash = 0xCBF29CE484222325ull;  // FNV-1a offset basis
  for (char c : name) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001B3ull;
  }
  uint64_t state = run_seed;
  uint64_t mixed = SplitMix64(&state);
  state = mixed ^ sensor_seed;
  mixed = SplitMix64(&state);
  state = mixed ^ hash;
  return SplitMix64(&state);
}

NoiseGenerator::NoiseGenerator(uint64_t seed) : random_(seed) {}

uint64_t NoiseGenerator::Next() { return random_.NextU64(); }

double NoiseGenerator::Uniform() { return random_.Uniform01(); }

double NoiseGenerator::Gaussian(double stddev) {
  if (stddev == 0.0) return 0.0;
  if (has_spare_) {
    has_spare_ = false;
    return stddev * spare_;
  }
  // Box-Muller: u1 in (0, 1] so that the logarithm is finite.
  const double u1 = 1.0 - Uniform();
  const double u2 = Uniform();
  const double radius = std::sqrt(-2.0 * std::log(u1));
  const double angle = 2.0 * std::numbers::pi * u2;
  spare_ = radius * std::sin(angle);
  has_spare_ = true;
  return stddev * radius * std::cos(angle);
}

}  // namespace asg::scene
