// Tests for scene/planner_follower.h.
#include "scene/planner_follower.h"

#include <gtest/gtest.h>

#include <cmath>

namespace asg::scene {
namespace {

TEST(PathFollowerTest, DrivesStraightAtCruiseSpeedOnAStraightPath) {
  PathFollower follower{FollowerSettings{}};
  follower.SetPath({{0.0, 0.0}, {50.0, 0.0}});
  const FollowerCommand command = follower.Update(0.0, {10.0, 0.0}, 0.0);
  EXPECT_DOUBLE_EQ(command.steering_angle, 0.0);
  EXPECT_DOUBLE_EQ(command.speed, 5.0);
  EXPECT_NEAR(follower.lookahead_point().x(), 15.0, 1e-12);  // 5 m beyond the projection
}

TEST(PathFollowerTest, TargetToTheLeftGivesANegativeSteeringAngle) {
  PathFollower follower{FollowerSettings{}};
  follower.SetPath({{0.0, 0.0}, {0.0, 50.0}});  // +y is west: left of a vehicle facing north
  const FollowerCommand left = follower.Update(0.0, {0.0, 0.0}, 0.0);
  EXPECT_LT(left.steering_angle, 0.0);
  EXPECT_GT(follower.heading_error(), 0.0);
  follower.SetPath({{0.0, 0.0}, {0.0, -50.0}});
  const FollowerCommand right = follower.Update(0.0, {0.0, 0.0}, 0.0);
  EXPECT_GT(right.steering_angle, 0.0);
}

TEST(PathFollowerTest, PurePursuitSteeringMatchesTheGeometry) {
  FollowerSettings settings;
  settings.damping = 0.0;
  PathFollower follower(settings);
  // Vehicle at the origin facing +x; the look-ahead point is 5 m along a path 2 m to the left.
  follower.SetPath({{0.0, 2.0}, {50.0, 2.0}});
  const FollowerCommand command = follower.Update(0.0, {0.0, 0.0}, 0.0);
  const Eigen::Vector2d rear(-1.15, 0.0), target(5.0, 2.0);
  const double alpha = std::atan2(target.y() - rear.y(), target.x() - rear.x());
  const double expected = std::atan(2.3 * 2.0 * std::sin(alpha) / (target - rear).norm());
  EXPECT_NEAR(command.steering_angle, -expected * 180.0 / M_PI, 1e-9);
}

TEST(PathFollowerTest, ClampsSteeringAndSlowsForATargetBehind) {
  PathFollower follower{FollowerSettings{}};
  follower.SetPath({{0.0, 0.0}, {-20.0, 1.0}});
  const FollowerCommand command = follower.Update(0.0, {0.0, 0.0}, 0.0);
  EXPECT_DOUBLE_EQ(command.steering_angle, -30.0);  // full lock to the left (target behind-left)
  EXPECT_DOUBLE_EQ(command.speed, 2.5);             // half speed at full lock
}

TEST(PathFollowerTest, DampingOpposesAGrowingHeadingError) {
  FollowerSettings settings;
  settings.damping = 0.0;
  PathFollower plain(settings);
  PathFollower damped{FollowerSettings{}};
  for (PathFollower* f : {&plain, &damped}) f->SetPath({{0.0, 0.0}, {100.0, 0.0}});
  // The vehicle yaws left away from the path: the error grows to the right.
  plain.Update(0.0, {0.0, 0.0}, 0.0);
  damped.Update(0.0, {0.0, 0.0}, 0.0);
  const double e0 = damped.heading_error();
  const double p = plain.Update(0.05, {0.0, 0.0}, 0.05).steering_angle;
  const double d = damped.Update(0.05, {0.0, 0.0}, 0.05).steering_angle;
  const double rate = (damped.heading_error() - e0) / 0.05;  // [rad/s]
  EXPECT_LT(rate, -0.5);
  EXPECT_GT(p, 0.0);
  EXPECT_GT(d, p);  // more right steering: 5 deg per rad/s of error rate
  EXPECT_NEAR(d - p, -5.0 * rate, 1e-9);
}

TEST(PathFollowerTest, ProgressNeverMovesBackAlongTheRoute) {
  PathFollower follower{FollowerSettings{}};
  // Out along x, then back along a parallel line 3 m to the left.
  follower.SetPath({{0.0, 0.0}, {20.0, 0.0}, {20.0, 3.0}, {0.0, 3.0}});
  follower.Update(0.0, {19.0, 1.5}, M_PI / 2);
  EXPECT_GE(follower.segment(), 1u);
  follower.Update(0.05, {10.0, 2.0}, M_PI);  // now closer to the first leg than the third
  EXPECT_EQ(follower.segment(), 2u);
  EXPECT_LT(follower.lookahead_point().x(), 10.0);
}

}  // namespace
}  // namespace asg::scene
