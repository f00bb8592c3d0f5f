// Tests for terrain/relief.h.
#include "terrain/relief.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "terrain/landscape.h"
#include "terrain/noise.h"

namespace asg::terrain {
namespace {

using protocol::ReliefFeature;

ReliefFeature Hill(double radius, double height) {
  ReliefFeature hill;
  hill.type = ReliefFeature::Type::kHill;
  hill.x = 5.0;
  hill.y = -3.0;
  hill.radius = radius;
  hill.height = height;
  return hill;
}

// A diagonal ramp from (0, 0) to (30, 40): axis length 50 m.
ReliefFeature DiagonalRamp() {
  ReliefFeature ramp;
  ramp.type = ReliefFeature::Type::kRamp;
  ramp.x1 = 30.0;
  ramp.y1 = 40.0;
  ramp.width = 6.0;
  ramp.height = 5.0;
  return ramp;
}

// The point at distance u along the diagonal ramp's axis and d to its left.
Eigen::Vector2d OnRamp(double u, double d) {
  const Eigen::Vector2d axis(0.6, 0.8);
  const Eigen::Vector2d left(-0.8, 0.6);
  return u * axis + d * left;
}

TEST(ReliefTest, HillFollowsTheRaisedCosine) {
  const ReliefFeature hill = Hill(8.0, 2.0);
  EXPECT_DOUBLE_EQ(HillHeight(hill, 5.0, -3.0), 2.0);
  EXPECT_NEAR(HillHeight(hill, 9.0, -3.0), 1.0, 1e-12);
  EXPECT_NEAR(HillHeight(hill, 5.0, -3.0 - 2.0), 2.0 * (0.5 * std::cos(std::numbers::pi / 4) + 0.5),
              1e-12);
  EXPECT_EQ(HillHeight(hill, 13.0, -3.0), 0.0);
  EXPECT_EQ(HillHeight(hill, 30.0, 30.0), 0.0);
  EXPECT_NEAR(HillHeight(Hill(8.0, -2.0), 9.0, -3.0), -1.0, 1e-12);
}

TEST(ReliefTest, RampIsAWedgeWithSmoothSides) {
  const ReliefFeature ramp = DiagonalRamp();
  auto height = [&](double u, double d) {
    const Eigen::Vector2d p = OnRamp(u, d);
    return RampHeight(ramp, p.x(), p.y());
  };
  EXPECT_EQ(height(0.0, 0.0), 0.0);
  EXPECT_EQ(height(-1.0, 0.0), 0.0);
  EXPECT_NEAR(height(25.0, 0.0), 2.5, 1e-12);
  EXPECT_NEAR(height(50.0 - 1e-9, 0.0), 5.0, 1e-9);
  EXPECT_EQ(height(50.1, 0.0), 0.0);  // past the top edge
  EXPECT_NEAR(height(25.0, 3.0), 2.5, 1e-12);
  EXPECT_NEAR(height(25.0, -3.0), 2.5, 1e-12);
  EXPECT_NEAR(height(25.0, 4.0), 1.25, 1e-12);  // half-way through the falloff
  EXPECT_NEAR(height(25.0, -4.5), 2.5 * (0.5 * std::cos(std::numbers::pi * 1.5 / 2.0) + 0.5),
              1e-12);
  EXPECT_EQ(height(25.0, 5.0), 0.0);
  EXPECT_EQ(height(25.0, -7.0), 0.0);
}

TEST(ReliefTest, NoiseFeatureIsFractalNoise) {
  ReliefFeature noise;
  noise.type = ReliefFeature::Type::kNoise;
  noise.amplitude = 0.8;
  noise.wavelength = 7.0;
  noise.octaves = 3;
  noise.seed = 1234;
  EXPECT_EQ(NoiseHeight(noise, 3.3, 4.4), FractalNoise(3.3, 4.4, 0.8, 7.0, 3, 1234));
  EXPECT_NE(NoiseHeight(noise, 3.3, 4.4), 0.0);
}

TEST(ReliefTest, EvaluateReliefSumsTheFeatures) {
  const std::vector<ReliefFeature> relief = {Hill(8.0, 2.0), DiagonalRamp(), Hill(4.0, -0.5)};
  EXPECT_EQ(EvaluateRelief({}, 1.0, 2.0), 0.0);
  const double x = 6.0;
  const double y = -2.0;
  EXPECT_DOUBLE_EQ(EvaluateRelief(relief, x, y), FeatureHeight(relief[0], x, y) +
                                                     FeatureHeight(relief[1], x, y) +
                                                     FeatureHeight(relief[2], x, y));
  EXPECT_DOUBLE_EQ(FeatureHeight(relief[1], 6.0, 8.0), RampHeight(relief[1], 6.0, 8.0));
}

TEST(ReliefTest, ValidationNamesTheFeatureAndField) {
  ReliefFeature bad_hill = Hill(-1.0, 1.0);
  EXPECT_THROW(ValidateReliefFeature(bad_hill, "x"), std::invalid_argument);
  try {
    ValidateReliefFeature(bad_hill, "landscape.relief[4]");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "landscape.relief[4].radius: -1 must be > 0");
  }
  ReliefFeature ramp = DiagonalRamp();
  EXPECT_NO_THROW(ValidateReliefFeature(ramp, "r"));
  ramp.height = INFINITY;
  EXPECT_THROW(ValidateReliefFeature(ramp, "r"), std::invalid_argument);
  // Fields of other types are not checked: a ramp's radius is irrelevant.
  ramp = DiagonalRamp();
  ramp.radius = -5.0;
  EXPECT_NO_THROW(ValidateReliefFeature(ramp, "r"));
}

}  // namespace
}  // namespace asg::terrain
