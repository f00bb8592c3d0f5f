// Tests for failures/approach.h.
#include "failures/approach.h"

#include <gtest/gtest.h>

#include "tests/failures/hand_built_runs.h"

namespace asg::failures {
namespace {

using hand_built::Drive;

std::vector<Eigen::Vector2d> PathOf(const std::vector<PathSample>& samples) {
  return PathUntil(samples, std::nullopt);
}

TEST(ApproachTest, AStraightDriveCrossesEachCircleOnItsLine) {
  // East along y = 5 from x = 0 to x = 20.
  const auto path = PathOf(Drive({{0, 5}, {20, 5}}));
  const Eigen::Vector2d end(20, 5);
  const auto points = ApproachPoints(path, end, 3.0, 5);
  ASSERT_EQ(points.size(), 5u);
  for (int k = 0; k < 5; ++k) {
    EXPECT_NEAR(points[k].x(), -3.0 * (k + 1), 1e-9);
    EXPECT_NEAR(points[k].y(), 0.0, 1e-9);
  }
  EXPECT_NEAR(ApproachHeading(points[0], 123.0, 0.5), 0.0, 1e-9);
}

TEST(ApproachTest, ACircleThePathNeverReachedTakesItsFirstPoint) {
  // 7 m north from (10, 0): the 9, 12 and 15 m circles are beyond the start.
  const auto path = PathOf(Drive({{10, 0}, {10, 7}}));
  const auto points = ApproachPoints(path, {10, 7}, 3.0, 5);
  EXPECT_NEAR(points[1].y(), -6.0, 1e-9);
  for (int k = 2; k < 5; ++k) EXPECT_EQ(points[k], Eigen::Vector2d(0, -7));
  EXPECT_NEAR(ApproachHeading(points[0], 0.0, 0.5), 90.0, 1e-9);
}

TEST(ApproachTest, JitterAtTheEndLeavesTheHeadingAsItCameIn) {
  // South-west along the diagonal, then 2 m of rocking back and forth against the obstacle.
  auto samples = Drive({{20, 20}, {10, 10}});
  for (int i = 0; i < 4; ++i) {
    hand_built::DriveTo(samples, {10.2, 10.1});
    hand_built::DriveTo(samples, {10, 10});
  }
  const auto points = ApproachPoints(PathOf(samples), {10, 10}, 3.0, 5);
  EXPECT_NEAR(ApproachHeading(points[0], 0.0, 0.5), -135.0, 1e-6);
}

TEST(ApproachTest, AVehicleThatHardlyMovedKeepsItsYaw) {
  const auto points = ApproachPoints({{5, 5}, {5.1, 5}}, {5.1, 5}, 3.0, 5);
  EXPECT_EQ(ApproachHeading(points[0], 200.0, 0.5), -160.0);
}

TEST(ApproachTest, PathUntilCutsAtTheTimeButKeepsTheFirstSample) {
  const auto samples = Drive({{0, 0}, {10, 0}});  // 40 samples after the start, 0.05 s apart
  EXPECT_EQ(PathUntil(samples, std::nullopt).size(), samples.size());
  EXPECT_EQ(PathUntil(samples, 1.01).size(), 21u);  // t = 0, 0.05, ..., 1.0
  EXPECT_EQ(PathUntil(samples, 1.01).back(), Eigen::Vector2d(5, 0));
  EXPECT_EQ(PathUntil(samples, -1.0).size(), 1u);
}

TEST(ApproachTest, WrapDegreesKeepsTheHalfOpenRange) {
  EXPECT_EQ(WrapDegrees(180.0), 180.0);
  EXPECT_EQ(WrapDegrees(-180.0), 180.0);
  EXPECT_EQ(WrapDegrees(270.0), -90.0);
  EXPECT_EQ(WrapDegrees(-450.0), -90.0);
  EXPECT_EQ(WrapDegrees(30.0), 30.0);
}

}  // namespace
}  // namespace asg::failures
