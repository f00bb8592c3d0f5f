// Tests for scene/planner_driver.h.
#include "scene/planner_driver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/scene/planner_test_world.h"

namespace asg::scene {
namespace {

using testing::CylinderRayCaster;
using testing::KinematicVehicle;
using testing::LoopResult;
using testing::RunLoop;
using testing::Trunk;

DriverTask ReferenceTask() {
  DriverTask task;
  task.start = {10.0, 10.0, 0.0};
  task.start_yaw = 45.0;
  task.goal = {50.0, 50.0, 0.0};
  task.goal_radius = 5.0;
  return task;
}

KinematicVehicle VehicleAt(double x, double y, double yaw_deg) {
  KinematicVehicle vehicle;
  vehicle.x = x;
  vehicle.y = y;
  vehicle.yaw = yaw_deg * M_PI / 180.0;
  return vehicle;
}

// Drives `driver` on `task` through `trunks` for up to `time_limit` [s].
LoopResult Drive(PlannerDriver& driver, const DriverTask& task, const std::vector<Trunk>& trunks,
                 double time_limit) {
  const CylinderRayCaster world(trunks);
  return RunLoop(driver, world, VehicleAt(task.start.x, task.start.y, task.start_yaw),
                 {task.goal.x, task.goal.y}, task.goal_radius, time_limit);
}

// Drives a fresh default planner on `task`.
LoopResult Drive(const DriverTask& task, const std::vector<Trunk>& trunks, double time_limit) {
  PlannerDriver driver(protocol::DriverSpec{}, task);
  return Drive(driver, task, trunks, time_limit);
}

// Six trees at random (fixed seed) none within 10 m of start or goal, plus one on the direct line.
std::vector<Trunk> ScatteredTrees() {
  std::mt19937 rng(20240607);
  std::uniform_real_distribution<double> coordinate(0.0, 60.0);
  std::vector<Trunk> trees{{30.0, 30.0, 0.3, 5.0}};
  while (trees.size() < 7) {
    const double x = coordinate(rng), y = coordinate(rng);
    if (std::hypot(x - 10.0, y - 10.0) < 10.0 || std::hypot(x - 50.0, y - 50.0) < 10.0) continue;
    trees.push_back({x, y, 0.3, 5.0});
  }
  return trees;
}

// A U of trees 1 m apart opening towards the start: arms 10 m apart running 30 m along the
// start-goal line, closed 6 m before the goal.
std::vector<Trunk> CulDeSac() {
  const Eigen::Vector2d start(10.0, 10.0);
  const Eigen::Vector2d along = Eigen::Vector2d(1.0, 1.0).normalized();
  const Eigen::Vector2d left(-along.y(), along.x());
  const double bottom = 50.0, depth = 30.0, half_width = 5.0;
  std::vector<Trunk> trees;
  auto add = [&](double u, double v) {
    const Eigen::Vector2d p = start + u * along + v * left;
    trees.push_back({p.x(), p.y(), 0.3, 5.0});
  };
  for (double v = -half_width; v <= half_width + 1e-9; v += 1.0) add(bottom, v);
  for (double u = bottom - depth; u < bottom; u += 1.0) {
    add(u, -half_width);
    add(u, half_width);
  }
  return trees;
}

TEST(PlannerDriverTest, ReachesTheGoalOnOpenGroundInAboutStraightLineTime) {
  const DriverTask task = ReferenceTask();
  const LoopResult result = Drive(task, {}, 17.0);
  ASSERT_TRUE(result.reached);
  const double path_length = std::hypot(40.0, 40.0) - task.goal_radius;  // 51.6 m
  EXPECT_LT(result.time, 1.2 * path_length / 5.0);
  EXPECT_LT(result.distance, 1.05 * path_length);
}

TEST(PlannerDriverTest, DrivesAroundScatteredTreesWithoutComingClose) {
  PlannerDriver driver(protocol::DriverSpec{}, ReferenceTask());
  const LoopResult result = Drive(driver, ReferenceTask(), ScatteredTrees(), 17.0);
  EXPECT_TRUE(result.reached);
  EXPECT_FALSE(result.collided);
  EXPECT_GE(result.min_clearance, 1.0);
  EXPECT_GT(driver.votes().OccupiedCells().size(), 0u);  // it did see the tree on its line
  EXPECT_GT(result.distance, std::hypot(40.0, 40.0) - 5.0);
}

TEST(PlannerDriverTest, AHiddenCulDeSacTrapsIt) {
  PlannerDriver driver(protocol::DriverSpec{}, ReferenceTask());
  const LoopResult result = Drive(driver, ReferenceTask(), CulDeSac(), 17.0);
  EXPECT_FALSE(result.reached);
  // It went in: the mouth is 20 m along the line, 24 m from the start.
  EXPECT_GT(driver.votes().OccupiedCells().size(), 20u);
  // Without the dead end the same run succeeds.
  EXPECT_TRUE(Drive(ReferenceTask(), {}, 17.0).reached);
}

TEST(PlannerDriverTest, TwoRunsGiveIdenticalControls) {
  const LoopResult a = Drive(ReferenceTask(), ScatteredTrees(), 17.0);
  const LoopResult b = Drive(ReferenceTask(), ScatteredTrees(), 17.0);
  ASSERT_GT(a.controls.size(), 100u);
  EXPECT_EQ(a.controls, b.controls);
  EXPECT_EQ(a.time, b.time);
}

TEST(PlannerDriverTest, GoalToTheLeftGivesANegativeSteeringAngle) {
  DriverTask task = ReferenceTask();
  task.goal = {10.0, 50.0, 0.0};  // due west (+y) of a vehicle at (10, 10) facing north
  PlannerDriver driver(protocol::DriverSpec{}, task);
  const KinematicVehicle vehicle = VehicleAt(10.0, 10.0, 0.0);
  const protocol::OdometryWithoutCovariance odometry = vehicle.Odometry();
  DriverInput input;
  input.odometry = &odometry;
  const protocol::PhysXControl control = testing::ControlOf(driver.Tick(input));
  EXPECT_LT(control.steering_angle, 0.0);
  EXPECT_GE(control.steering_angle, -task.vehicle.max_steering_angle);
  EXPECT_GT(control.longitudinal_velocity, 0.0);
}

TEST(PlannerDriverTest, StopsInsideTheGoalRadius) {
  PlannerDriver driver(protocol::DriverSpec{}, ReferenceTask());
  const protocol::OdometryWithoutCovariance odometry = VehicleAt(47.0, 47.0, 45.0).Odometry();
  DriverInput input;
  input.odometry = &odometry;
  const protocol::PhysXControl control = testing::ControlOf(driver.Tick(input));
  EXPECT_TRUE(driver.goal_reached());
  EXPECT_EQ(control.longitudinal_velocity, 0.0);
  EXPECT_EQ(control.steering_angle, 0.0);
  EXPECT_EQ(driver.plans(), 0);
}

TEST(PlannerDriverTest, ReachesAGoalRadiusSmallerThanACell) {
  DriverTask task = ReferenceTask();
  task.goal = {30.2, 30.7, 0.0};
  task.goal_radius = 0.3;
  const LoopResult result = Drive(task, {}, 17.0);
  EXPECT_TRUE(result.reached);
}

TEST(PlannerDriverTest, StandsStillOnceAWallLeavesNoWay) {
  // A wall of trees across the whole landscape at x = 30 between start and goal.
  std::vector<Trunk> wall;
  for (double y = 0.5; y < 60.0; y += 1.0) wall.push_back({30.0, y, 0.3, 5.0});
  DriverTask task = ReferenceTask();
  task.start = {15.0, 45.0, 0.0};
  task.start_yaw = 0.0;
  task.goal = {50.0, 45.0, 0.0};
  PlannerDriver driver(protocol::DriverSpec{}, task);
  const LoopResult result = Drive(driver, task, wall, 30.0);
  EXPECT_FALSE(result.reached);
  EXPECT_FALSE(result.collided);
  EXPECT_FALSE(driver.has_path());
  EXPECT_TRUE(driver.path().empty());
  ASSERT_GT(result.controls.size(), 40u);
  for (size_t i = result.controls.size() - 40; i < result.controls.size(); ++i) {
    EXPECT_EQ(result.controls[i].longitudinal_velocity, 0.0) << i;
  }
}

TEST(PlannerDriverTest, ReplansWhenAnObstacleAppearsOnThePath) {
  PlannerDriver driver(protocol::DriverSpec{}, ReferenceTask());
  const CylinderRayCaster world({{30.0, 30.0, 0.3, 5.0}});
  KinematicVehicle vehicle = VehicleAt(10.0, 10.0, 45.0);
  const protocol::OdometryWithoutCovariance odometry = vehicle.Odometry();
  DriverInput input;
  input.odometry = &odometry;
  input.yaw = 45.0;
  driver.Tick(input);  // t = 0: blind plan straight at the goal
  EXPECT_EQ(driver.plans(), 1);
  input.rays = &world;
  input.time = 0.1;  // before the 0.5 s replan; the tree 28 m away is out of range
  driver.Tick(input);
  EXPECT_EQ(driver.plans(), 1);
  const protocol::OdometryWithoutCovariance closer = VehicleAt(20.0, 20.0, 45.0).Odometry();
  input.odometry = &closer;
  // The tree is now 14 m ahead, on the path; within two scans (their azimuths interleave) it is
  // seen and the driver replans at once, before the 0.5 s period.
  input.time = 0.2;
  driver.Tick(input);
  input.time = 0.3;
  driver.Tick(input);
  EXPECT_FALSE(driver.votes().OccupiedCells().empty());
  EXPECT_EQ(driver.plans(), 2);
  EXPECT_GT(driver.rays_cast(), 150);
}

TEST(MakePlannerDriverTest, RejectsBadSettingsNamingTheField) {
  const DriverTask task = ReferenceTask();
  auto message = [&](auto&& edit) {
    protocol::DriverSpec spec;
    edit(spec);
    try {
      MakePlannerDriver(spec, task);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([](auto& s) { s.grid_resolution = 0.0; }),
            "driver.grid_resolution = 0 must be > 0");
  EXPECT_EQ(message([](auto& s) { s.sensor_range = -3.0; }),
            "driver.sensor_range = -3 must be > 0");
  EXPECT_EQ(message([](auto& s) { s.sensor_fov = 400.0; }),
            "driver.sensor_fov = 400 must be in (0, 360] degrees");
  EXPECT_EQ(message([](auto& s) { s.replan_period = 0.0; }),
            "driver.replan_period = 0 must be > 0");
  EXPECT_EQ(message([](auto& s) { s.grid_resolution = 0.01; }),
            "driver.grid_resolution = 0.01 must give at most 1024 cells per landscape side");
  EXPECT_EQ(message([](auto&) {}), "no error");
  DriverTask flat = task;
  flat.landscape_max = flat.landscape_min;
  EXPECT_THROW(MakePlannerDriver(protocol::DriverSpec{}, flat), std::invalid_argument);
}

}  // namespace
}  // namespace asg::scene
