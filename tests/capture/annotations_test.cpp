// Tests for capture/annotations.h.
#include "capture/annotations.h"

#include <gtest/gtest.h>

#include <set>

namespace asg::capture {
namespace {

scene::World FlatWorld() {
  protocol::LandscapeDescription description;
  description.nominal_size = 60.0;
  description.subdivisions = 4;
  scene::World world;
  world.landscape = std::make_shared<terrain::Landscape>(description);
  world.start = {10.0, 10.0, 0.0};
  world.goal = {40.0, 30.0, 0.0};
  world.goal_radius = 4.0;
  return world;
}

TEST(GoalRing, LiesBetweenInnerAndOuterRadiusInTheRingColour) {
  protocol::SceneCaptureSettings settings;
  settings.goal_sphere_thickness = 0.5;
  settings.goal_sphere_color = {0.0, 0.0, 1.0, 1.0};
  const OverlayMesh ring = GoalRing(FlatWorld(), settings);
  ASSERT_FALSE(ring.positions.empty());
  double smallest = 1e9, largest = 0.0;
  for (size_t i = 0; i < ring.positions.size(); ++i) {
    const double r = (ring.positions[i].head<2>().cast<double>() - Eigen::Vector2d(40, 30)).norm();
    smallest = std::min(smallest, r);
    largest = std::max(largest, r);
    EXPECT_NEAR(ring.positions[i].z(), kOverlayLift, 1e-5);
    EXPECT_EQ(ring.colors[i], Eigen::Vector4f(0, 0, 1, 1));
  }
  EXPECT_NEAR(smallest, 3.5, 1e-4);
  EXPECT_NEAR(largest, 4.0, 1e-4);
}

TEST(RunMarks, TrajectoryAndEndMarkerOnlyAfterARun) {
  const scene::World world = FlatWorld();
  const OverlayMesh before = RunMarks(world, nullptr, 0.1);
  EXPECT_EQ(before.positions.size(), 12u);  // the start arrow: two layers of two triangles
  protocol::AnalyzeScenarioRequest run;
  run.termination_reason = protocol::TerminationReason::REASON_SUCCESS;
  for (int i = 0; i <= 10; ++i) {
    protocol::OdometryWithoutCovariance sample;
    sample.pose.position.x = 10.0 + 3.0 * i;
    sample.pose.position.y = 10.0;
    sample.twist.linear.x = i;
    run.vehicle_trajectory.push_back(sample);
  }
  const OverlayMesh after = RunMarks(world, &run, 0.1);
  EXPECT_GT(after.positions.size(), before.positions.size() + 100);
  // The fastest sample is drawn red, the stopped one blue.
  const std::set<std::vector<float>> colors = [&] {
    std::set<std::vector<float>> out;
    for (const Eigen::Vector4f& c : after.colors) out.insert({c[0], c[1], c[2]});
    return out;
  }();
  const Eigen::Vector4f red = SpeedColor(10.0, 10.0);
  const Eigen::Vector4f blue = SpeedColor(0.0, 10.0);
  EXPECT_TRUE(colors.count({red[0], red[1], red[2]}));
  EXPECT_TRUE(colors.count({blue[0], blue[1], blue[2]}));
}

/// Whether a triangle of `mesh` covers the ground point `p`.
bool Covers(const OverlayMesh& mesh, const Eigen::Vector2d& p) {
  for (size_t i = 0; i + 2 < mesh.positions.size(); i += 3) {
    const Eigen::Vector2d a = mesh.positions[i].head<2>().cast<double>();
    const Eigen::Vector2d b = mesh.positions[i + 1].head<2>().cast<double>();
    const Eigen::Vector2d c = mesh.positions[i + 2].head<2>().cast<double>();
    const auto side = [&](const Eigen::Vector2d& u, const Eigen::Vector2d& v) {
      return (v.x() - u.x()) * (p.y() - u.y()) - (v.y() - u.y()) * (p.x() - u.x());
    };
    const double d1 = side(a, b), d2 = side(b, c), d3 = side(c, a);
    const bool negative = d1 < 0 || d2 < 0 || d3<0, positive = d1> 0 || d2 > 0 || d3 > 0;
    if (!(negative && positive)) return true;
  }
  return false;
}

TEST(RunMarks, AJumpIsAGapInTheTrajectory) {
  const scene::World world = FlatWorld();
  protocol::AnalyzeScenarioRequest run;
  // Driven from x = 10 to 19 along y = 10, moved by hand to x = 40 at 1.0 s (the sample stamped
  // 1.0 s is after the move), driven on.
  for (int i = 0; i <= 20; ++i) {
    protocol::OdometryWithoutCovariance sample;
    sample.header.stamp = protocol::Time::FromSeconds(0.1 * i);
    sample.pose.position.x = i < 10 ? 10.0 + i : 30.0 + i;
    sample.pose.position.y = 10.0;
    run.vehicle_trajectory.push_back(sample);
  }
  EXPECT_TRUE(Covers(RunMarks(world, &run, 0.1), {30.0, 10.0}));  // drawn across without jumps
  const OverlayMesh gap = RunMarks(world, &run, 0.1, {1.0});
  EXPECT_FALSE(Covers(gap, {30.0, 10.0}));
  EXPECT_TRUE(Covers(gap, {15.5, 10.0}));  // driven before
  EXPECT_TRUE(Covers(gap, {45.5, 10.0}));  // and after
  EXPECT_TRUE(CrossesJump(0.9, 1.0, {1.0}));
  EXPECT_FALSE(CrossesJump(1.0, 1.1, {1.0}));
  EXPECT_FALSE(CrossesJump(0.8, 0.9, {1.0}));
}

TEST(GoalBeacon, StandsOnTheGoalInTheGoalColourAndFadesWhenHidden) {
  protocol::SceneCaptureSettings settings;
  settings.goal_sphere_color = {1.0, 0.0, 0.0, 1.0};
  const OverlayMesh beacon = GoalBeacon(FlatWorld(), settings);
  ASSERT_FALSE(beacon.positions.empty());
  float lowest = 1e9f, highest = -1e9f;
  for (size_t i = 0; i < beacon.positions.size(); ++i) {
    const Eigen::Vector3f& p = beacon.positions[i];
    // A column of radius clamp(0.12 r, 0.3, 1) = 0.48 m around the goal (40, 30).
    EXPECT_LE((p.head<2>() - Eigen::Vector2f(40, 30)).norm(), 0.48f + 1e-4f);
    lowest = std::min(lowest, p.z());
    highest = std::max(highest, p.z());
    EXPECT_EQ(beacon.colors[i], Eigen::Vector4f(1, 0, 0, 0.8f));
  }
  EXPECT_NEAR(lowest, 0.0f, 1e-5f);
  EXPECT_NEAR(highest, 4.8f, 1e-5f);  // max(4 m, 1.2 x goal radius 4 m)
  const OverlayMesh hidden = Faded(beacon, kHiddenBeaconAlpha);
  EXPECT_NEAR(hidden.colors.front().w(), 0.8f * kHiddenBeaconAlpha, 1e-6f);
  EXPECT_EQ(hidden.positions, beacon.positions);
}

TEST(SpeedColor, RunsFromBlueToRed) {
  EXPECT_GT(SpeedColor(0.0, 5.0).z(), 0.9f);
  EXPECT_LT(SpeedColor(0.0, 5.0).x(), 0.3f);
  EXPECT_GT(SpeedColor(5.0, 5.0).x(), 0.9f);
  EXPECT_LT(SpeedColor(5.0, 5.0).z(), 0.1f);
  EXPECT_EQ(SpeedColor(50.0, 5.0), SpeedColor(5.0, 5.0));  // clamped
}

TEST(TerminationColor, EveryReasonHasItsOwnColour) {
  std::set<std::vector<float>> colors;
  for (int reason = 0; reason <= 6; ++reason) {
    const Eigen::Vector4f c = TerminationColor(static_cast<protocol::TerminationReason>(reason));
    colors.insert({c[0], c[1], c[2]});
  }
  EXPECT_EQ(colors.size(), 7u);
}

}  // namespace
}  // namespace asg::capture
