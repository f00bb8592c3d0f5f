#include "scene/sensor_noise.h"

#include <cmath>
#include <numbers>

namespace asg::scene {
namespace {

uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

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

NoiseGenerator::NoiseGenerator(uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t& word : state_) word = SplitMix64(&state);
}

uint64_t NoiseGenerator::Next() {
  const uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = RotateLeft(state_[3], 45);
  return result;
}

double NoiseGenerator::Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

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
