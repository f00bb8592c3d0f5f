// splitmix64 and xoshiro256** (see random.h).
#include "core/random.h"

#include <cstdint>

namespace asg::core {

namespace {
uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Random::Random(uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t& word : state_) word = SplitMix64(&state);
}

uint64_t Random::NextU64() {
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

double Random::Uniform01() {
  // 53 random mantissa bits scaled by 2^-53: exactly representable, never 1.0.
  return static_cast<double>(NextU64() >> 11) * 0x1.0p-53;
}

double Random::Uniform(double min, double max) {
  const double u = Uniform01();
  if (min == max) return min;
  return min + (max - min) * u;
}

int64_t Random::UniformInt(int64_t min, int64_t max) {
  const uint64_t span = static_cast<uint64_t>(max) - static_cast<uint64_t>(min) + 1;
  if (span == 0) return static_cast<int64_t>(NextU64());  // the whole 64-bit range
  // Rejection sampling: draw below the largest multiple of span.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
  uint64_t draw = NextU64();
  while (draw >= limit) draw = NextU64();
  return static_cast<int64_t>(static_cast<uint64_t>(min) + draw % span);
}

}  // namespace asg::core
