#include "terrain/noise.h"

#include <algorithm>
#include <cmath>

namespace asg::terrain {
namespace {

// Lattice coordinates are clamped here so that the cast to int64_t is always defined.
constexpr double kLatticeLimit = 4503599627370496.0;  // 2^52

// Murmur3's 64-bit finaliser: every input bit affects every output bit.
uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// Value of lattice point (ix, iy) in [-1, 1): the top 53 bits of the hash scaled to [0, 2) - 1.
double LatticeValue(int64_t ix, int64_t iy, uint32_t seed) {
  const uint64_t h = HashLattice(ix, iy, seed);
  return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0;
}

// Quintic fade: 0 at 0, 1 at 1, zero first and second derivatives at both ends.
double Fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }

}  // namespace

uint64_t HashLattice(int64_t ix, int64_t iy, uint32_t seed) {
  uint64_t h = Mix(static_cast<uint64_t>(seed) + 0x9e3779b97f4a7c15ULL);
  h = Mix(h ^ static_cast<uint64_t>(ix));
  h = Mix(h ^ (static_cast<uint64_t>(iy) * 0xc2b2ae3d27d4eb4fULL));
  return h;
}

double ValueNoise(double x, double y, uint32_t seed) {
  const double fx = std::clamp(std::floor(x), -kLatticeLimit, kLatticeLimit);
  const double fy = std::clamp(std::floor(y), -kLatticeLimit, kLatticeLimit);
  const double tx = Fade(std::clamp(x - fx, 0.0, 1.0));
  const double ty = Fade(std::clamp(y - fy, 0.0, 1.0));
  const auto ix = static_cast<int64_t>(fx);
  const auto iy = static_cast<int64_t>(fy);
  const double v00 = LatticeValue(ix, iy, seed);
  const double v10 = LatticeValue(ix + 1, iy, seed);
  const double v01 = LatticeValue(ix, iy + 1, seed);
  const double v11 = LatticeValue(ix + 1, iy + 1, seed);
  const double bottom = v00 + tx * (v10 - v00);
  const double top = v01 + tx * (v11 - v01);
  return bottom + ty * (top - bottom);
}

double FractalNoise(double x, double y, double amplitude, double wavelength, int octaves,
                    uint32_t seed) {
  double sum = 0.0;
  double octave_amplitude = amplitude;
  double frequency = 1.0 / wavelength;  // [1/m]
  for (int k = 0; k < octaves; ++k) {
    // Each octave draws from its own lattice so octaves do not share extrema at the same points.
    const auto octave_seed =
        static_cast<uint32_t>(Mix((static_cast<uint64_t>(seed) << 8) ^ static_cast<uint64_t>(k)));
    sum += octave_amplitude * ValueNoise(x * frequency, y * frequency, octave_seed);
    octave_amplitude *= 0.5;
    frequency *= 2.0;
  }
  return sum;
}

}  // namespace asg::terrain
