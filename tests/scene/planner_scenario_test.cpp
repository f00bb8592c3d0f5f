// Tests for scene/planner_driver.h driving the Bullet vehicle through scene/scenario_runner.h.
#include <gtest/gtest.h>

#include <cmath>

#include "scene/planner_driver.h"
#include "scene/scenario_runner.h"
#include "tests/scene/run_test_util.h"
#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using protocol::TerminationReason;
using testing::AddActors;
using testing::kBush;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

struct PlannerRun {
  RunResult result;
  double min_clearance = 1e9;  ///< [m] least distance from the vehicle origin to any trunk axis
};

// Runs `request` with a planner driver, measuring clearance to the (x, y) trunk axes listed.
PlannerRun RunPlanner(protocol::RunScenarioRequest request,
                      const std::vector<Eigen::Vector2d>& trunks = {}) {
  request.driver.type = protocol::DriverSpec::Type::kPlanner;
  ScenarioRunner runner(ShippedCatalog());
  runner.Build(request);
  PlannerDriver driver(request.driver, runner.Task());
  PlannerRun run;
  run.result = testing::ResultOf(runner.Run(driver));
  for (const auto& sample : run.result.analysis.vehicle_trajectory) {
    const Eigen::Vector2d p(sample.pose.position.x, sample.pose.position.y);
    for (const Eigen::Vector2d& t : trunks)
      run.min_clearance = std::min(run.min_clearance, (p - t).norm());
  }
  return run;
}

// [m] the straight distance from the start to the goal circle: 40 sqrt(2) - 5 = 51.6 m.
double StraightToGoalCircle() { return std::hypot(40.0, 40.0) - 5.0; }

TEST(PlannerScenarioTest, ReachesTheGoalOnOpenGround) {
  const PlannerRun run = RunPlanner(ReferenceRequest());
  ASSERT_EQ(run.result.reason(), TerminationReason::REASON_SUCCESS);
  // Within 20% of the straight distance to the goal circle at 5 m/s (10.3 s).
  EXPECT_LT(run.result.analysis.vehicle_sim_time, 1.2 * StraightToGoalCircle() / 5.0);
  EXPECT_GT(run.result.analysis.vehicle_sim_time, StraightToGoalCircle() / 5.0);
}

TEST(PlannerScenarioTest, DrivesAroundScatteredTrees) {
  protocol::RunScenarioRequest request = ReferenceRequest();
  // Trees across the direct line and to its sides, bushes off it; none within 10 m of the ends.
  const std::vector<double> tx{30.0, 24.0, 38.0, 21.0, 40.0, 33.0};
  const std::vector<double> ty{30.0, 27.0, 35.0, 36.0, 25.0, 15.0};
  AddActors(&request, kTree, tx, ty);
  AddActors(&request, kBush, {45.0, 15.0, 20.0, 52.0, 8.0, 35.0},
            {30.0, 45.0, 50.0, 12.0, 30.0, 52.0});
  request.allow_collisions = false;  // any touch ends the run with a collision
  std::vector<Eigen::Vector2d> trunks;
  for (size_t i = 0; i < tx.size(); ++i) trunks.push_back({tx[i], ty[i]});
  const PlannerRun run = RunPlanner(request, trunks);
  ASSERT_EQ(run.result.reason(), TerminationReason::REASON_SUCCESS);
  EXPECT_GT(run.min_clearance, 1.3);  // trunk radius 0.3 m + 1 m
  EXPECT_LT(run.result.analysis.vehicle_sim_time, 1.5 * StraightToGoalCircle() / 5.0);
}

TEST(PlannerScenarioTest, AHiddenCulDeSacTrapsIt) {
  // A U of trees 1 m apart, 10 m wide and 30 m deep, opening towards the start and closed
  // 6.5 m before the goal: the planner only sees the closed end from inside.
  protocol::RunScenarioRequest request = ReferenceRequest();
  const Eigen::Vector2d start(10.0, 10.0);
  const Eigen::Vector2d along = Eigen::Vector2d(1.0, 1.0).normalized();
  const Eigen::Vector2d left(-along.y(), along.x());
  std::vector<double> x, y;
  auto add = [&](double u, double v) {
    const Eigen::Vector2d p = start + u * along + v * left;
    x.push_back(p.x());
    y.push_back(p.y());
  };
  for (double v = -5.0; v <= 5.0; v += 1.0) add(50.0, v);
  for (double u = 20.0; u < 50.0; u += 1.0) {
    add(u, -5.0);
    add(u, 5.0);
  }
  AddActors(&request, kTree, x, y);
  const PlannerRun run = RunPlanner(request);
  EXPECT_NE(run.result.reason(), TerminationReason::REASON_SUCCESS);
  EXPECT_TRUE(run.result.reason() == TerminationReason::REASON_SIM_TIMEOUT ||
              run.result.reason() == TerminationReason::REASON_VEHICLE_IDLING_TIMEOUT ||
              run.result.reason() == TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT)
      << static_cast<int>(run.result.reason());
  // It drove in: the last position is past the mouth of the U (20 m along the line).
  const auto& last = run.result.analysis.vehicle_trajectory.back().pose.position;
  EXPECT_GT((Eigen::Vector2d(last.x, last.y) - start).dot(along), 20.0);
}

TEST(PlannerScenarioTest, SameRequestGivesTheSameTrajectory) {
  protocol::RunScenarioRequest request = ReferenceRequest();
  AddActors(&request, kTree, {30.0, 24.0}, {30.0, 27.0});
  const PlannerRun a = RunPlanner(request);
  const PlannerRun b = RunPlanner(request);
  EXPECT_EQ(a.result.analysis, b.result.analysis);
  // The runner's own MakeDriver builds the same planner from the request.
  request.driver.type = protocol::DriverSpec::Type::kPlanner;
  ScenarioRunner runner(ShippedCatalog());
  runner.Build(request);
  EXPECT_EQ(runner.Run().analysis, a.result.analysis);
}

}  // namespace
}  // namespace asg::scene
