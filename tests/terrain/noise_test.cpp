// Tests for terrain/noise.h.
#include "terrain/noise.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace asg::terrain {
namespace {

TEST(NoiseTest, HashDependsOnEveryInput) {
  const uint64_t base = HashLattice(3, 4, 5);
  EXPECT_EQ(HashLattice(3, 4, 5), base);
  EXPECT_NE(HashLattice(4, 4, 5), base);
  EXPECT_NE(HashLattice(3, 5, 5), base);
  EXPECT_NE(HashLattice(3, 4, 6), base);
  EXPECT_NE(HashLattice(4, 3, 5), base);  // not symmetric in (ix, iy)
}

// Pinned values: a change here changes every noise landscape ever generated from a seed.
TEST(NoiseTest, HashValuesArePinned) {
  EXPECT_EQ(HashLattice(0, 0, 0), 3916720320892582176ull);
  EXPECT_EQ(HashLattice(-7, 12, 42), 10523618695803782341ull);
}

TEST(NoiseTest, ValueNoiseIsBoundedContinuousAndDeterministic) {
  double lowest = 1.0;
  double highest = -1.0;
  for (int k = 0; k < 20000; ++k) {
    const double x = -50.0 + 0.0137 * k;
    const double y = 20.0 - 0.0071 * k;
    const double value = ValueNoise(x, y, 11);
    ASSERT_GE(value, -1.0);
    ASSERT_LE(value, 1.0);
    ASSERT_EQ(value, ValueNoise(x, y, 11));
    lowest = std::min(lowest, value);
    highest = std::max(highest, value);
    // Continuity: a 1e-6 step changes the value by little (the fade's slope is at most 1.875).
    ASSERT_NEAR(ValueNoise(x + 1e-6, y, 11), value, 1e-5);
  }
  EXPECT_LT(lowest, -0.5);  // the samples span most of [-1, 1]
  EXPECT_GT(highest, 0.5);
}

TEST(NoiseTest, ValueNoiseAtALatticePointIsThatPointsValue) {
  // A lattice point's value is the top 53 bits of its hash mapped onto [-1, 1).
  const double a = ValueNoise(3.0, -2.0, 5);
  EXPECT_EQ(a, static_cast<double>(HashLattice(3, -2, 5) >> 11) * 0x1.0p-52 - 1.0);
  // Half-way between two lattice points on a lattice line the noise is their mean.
  const double b = ValueNoise(4.0, -2.0, 5);
  const double mid = ValueNoise(3.5, -2.0, 5);
  EXPECT_NEAR(mid, 0.5 * (a + b), 1e-12);  // the quintic fade is 0.5 at t = 0.5
  EXPECT_NE(a, b);
}

TEST(NoiseTest, SeedsGiveDifferentFields) {
  int differing = 0;
  for (int k = 0; k < 100; ++k) {
    if (ValueNoise(0.37 * k, 0.11 * k, 1) != ValueNoise(0.37 * k, 0.11 * k, 2)) ++differing;
  }
  EXPECT_GT(differing, 95);
}

TEST(NoiseTest, FractalOctavesFollowHalvingAmplitudeAndWavelength) {
  // One octave is the value noise scaled by amplitude over wavelength.
  EXPECT_DOUBLE_EQ(FractalNoise(7.0, 3.0, 2.0, 10.0, 1, 9) / 2.0,
                   FractalNoise(0.7, 0.3, 1.0, 1.0, 1, 9));
  // Adding octaves adds at most amplitude * 0.5^k each.
  for (int k = 0; k < 500; ++k) {
    const double x = 0.31 * k;
    const double y = 0.17 * k - 30.0;
    const double one = FractalNoise(x, y, 2.0, 10.0, 1, 9);
    const double three = FractalNoise(x, y, 2.0, 10.0, 3, 9);
    ASSERT_LE(std::abs(one), 2.0);
    ASSERT_LE(std::abs(three - one), 2.0 * (0.5 + 0.25));
    ASSERT_LE(std::abs(three), 2.0 * (1.0 + 0.5 + 0.25));
  }
}

TEST(NoiseTest, HugeCoordinatesStayFinite) {
  EXPECT_TRUE(std::isfinite(ValueNoise(1e300, -1e300, 3)));
  EXPECT_TRUE(std::isfinite(FractalNoise(1e10, 5.0, 1.0, 1e-9, 12, 3)));
}

}  // namespace
}  // namespace asg::terrain
