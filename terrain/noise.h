// Deterministic fractal value noise for the landscape's "noise" relief feature.
//
// Every lattice point (ix, iy) of an octave gets a value in [-1, 1) from an integer hash of
// (ix, iy, seed); between lattice points the values are blended with the quintic fade
// 6t^5 - 15t^4 + 10t^3 in x and then in y. The blend is a convex combination, so one octave never
// leaves [-1, 1]. No random engine and no global state: the same arguments give the same value on
// every platform and thread.
#pragma once

#include <cstdint>

namespace asg::terrain {

/// 64-bit hash of a lattice point and a seed (murmur3 finaliser rounds). Pure, thread-safe.
uint64_t HashLattice(int64_t ix, int64_t iy, uint32_t seed);

/// Value noise at (x, y) given in lattice units (lattice points at integer coordinates); the
/// result is in [-1, 1]. Coordinates beyond +-2^52 are clamped. Pure, thread-safe.
double ValueNoise(double x, double y, uint32_t seed);

/// Fractal (fBm) sum of value noise at (x, y) [m]: octave k = 0 .. octaves-1 has wavelength
/// wavelength / 2^k [m], amplitude amplitude * 0.5^k [m] and its own seed derived from (seed, k).
/// |result| <= |amplitude| * (2 - 0.5^(octaves-1)). Requires wavelength > 0. Pure, thread-safe.
double FractalNoise(double x, double y, double amplitude, double wavelength, int octaves,
                    uint32_t seed);

}  // namespace asg::terrain
