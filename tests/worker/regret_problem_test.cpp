// Tests for worker/regret_problem.h.
#include "worker/regret_problem.h"

#include <gtest/gtest.h>

#include <cmath>

#include "scene/actor_catalog.h"
#include "scene/scenario_runner.h"
#include "tests/source_catalog.h"
#include "tests/worker/small_request.h"

namespace asg::worker {
namespace {

using testing::SmallRequest;

constexpr regret::FailureTime kMoment = regret::FailureTime::kFailureMoment;

constexpr const char* kTree = "/Game/Blueprints/BP_SSA_Tree_Juniper_Rocky_Mountain_Field_Desktop";
constexpr const char* kGrass = "/Game/Blueprints/BP_SSA_Grass_Tuft_Field_Desktop";

// The small request with one tree at (20, 12) and grass (always traversable) at (12, 20).
protocol::RunScenarioRequest RequestWithActors() {
  protocol::RunScenarioRequest request = SmallRequest();
  for (const auto& [path_name, x, y] : {std::tuple{kTree, 20.0, 12.0}, {kGrass, 12.0, 20.0}}) {
    protocol::StructuralSceneActorLayout layout;
    layout.path_name = path_name;
    layout.num_instances = 1;
    layout.visible = {true};
    layout.cast_shadow = {true};
    layout.x = {x};
    layout.y = {y};
    layout.yaw = {0.0};
    layout.scale = {1.0};
    request.scene_description.ssa_array.push_back(layout);
  }
  return request;
}

class RegretProblemTest : public ::testing::Test {
 protected:
  scene::ActorCatalog catalog_ = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
};

TEST_F(RegretProblemTest, TheProblemHasTheWorldsBoundsEndsAndSolidActors) {
  scene::ScenarioRunner runner(catalog_);
  const protocol::RunScenarioRequest request = RequestWithActors();
  runner.Build(request);
  const regret::ReferenceProblem problem = ReferenceProblemOf(runner.world());
  EXPECT_EQ(problem.min, runner.world().landscape->min_xy());
  EXPECT_EQ(problem.max, runner.world().landscape->max_xy());
  EXPECT_TRUE(problem.start.isApprox(Eigen::Vector2d(8.0, 8.0), 1e-9));
  EXPECT_TRUE(problem.goal.isApprox(Eigen::Vector2d(32.0, 32.0), 1e-9));
  EXPECT_EQ(problem.start_yaw, 45.0);
  ASSERT_EQ(problem.cost.obstacles.size(), 1u);  // the grass is no obstacle
  EXPECT_TRUE(problem.cost.obstacles[0].isApprox(Eigen::Vector2d(20.0, 12.0), 1e-9));

  // A repeated run is measured from the request's nominal start.
  protocol::RunScenarioRequest moved = request;
  moved.vehicle_start_location = {9.0, 7.0, 0.0};
  moved.vehicle_start_yaw = 30.0;
  const regret::ReferenceProblem run_problem = RunReferenceProblem(runner.world(), moved);
  EXPECT_EQ(run_problem.start, Eigen::Vector2d(9.0, 7.0));
  EXPECT_EQ(run_problem.start_yaw, 30.0);
  EXPECT_EQ(run_problem.cost.obstacles, problem.cost.obstacles);
}

TEST_F(RegretProblemTest, TheReportCarriesTheTermsAndTheReferencePath) {
  regret::ReferenceProblem problem;  // open 60 m field, (10, 10) -> (50, 50)
  const regret::ReferenceSettings settings;
  const regret::ReferencePlan plan = regret::PlanReference(problem, settings);
  ASSERT_TRUE(plan.found);
  // A run that stopped 3 m short of the goal on the straight line, successfully.
  protocol::AnalyzeScenarioRequest run;
  run.termination_reason = protocol::TerminationReason::REASON_SUCCESS;
  run.vehicle_sim_time = 12.0;
  for (const double s : {10.0, 30.0, 50.0 - 3.0 / std::sqrt(2.0)}) {
    protocol::OdometryWithoutCovariance sample;
    sample.pose.position = {s, s, 0.0};
    run.vehicle_trajectory.push_back(sample);
  }
  const protocol::RegretReport report = RegretOf(run, problem, plan, settings, kMoment);
  ASSERT_TRUE(report.computed);
  regret::RunPath path;
  for (const auto& sample : run.vehicle_trajectory) {
    path.path.emplace_back(sample.pose.position.x, sample.pose.position.y);
  }
  path.sim_time = 12.0;
  path.success = true;
  const regret::RegretTerms terms = regret::ComputeRegret(path, plan, problem.cost, problem.start,
                                                          problem.goal, settings.speed, kMoment);
  EXPECT_EQ(static_cast<const regret::RegretTerms&>(report), terms);
  EXPECT_EQ(report.reference_length, plan.length);
  EXPECT_EQ(report.reference_clearance, -1.0);  // no obstacles
  ASSERT_EQ(report.reference_path.size(), plan.path.size());
  EXPECT_EQ(report.reference_path.back().x, 50.0);
  EXPECT_EQ(report.reference_path.back().z, 0.0);

  // A failed run counts as a failure; a plan that was not found gives no report.
  run.termination_reason = protocol::TerminationReason::REASON_VEHICLE_COLLISION;
  EXPECT_GT(RegretOf(run, problem, plan, settings, kMoment).cost_position_term, 0.0);
  EXPECT_FALSE(RegretOf(run, problem, regret::ReferencePlan{}, settings, kMoment).computed);
}

TEST_F(RegretProblemTest, AFailureIsTimedByTheStampOfItsFailureMoment) {
  regret::ReferenceProblem problem;  // open 60 m field, (10, 10) -> (50, 50)
  const regret::ReferenceSettings settings;
  const regret::ReferencePlan plan = regret::PlanReference(problem, settings);
  // Stamps from 100 s: at (10, 10), then (20, 20) at 101.5 s and there until 109 s.
  protocol::AnalyzeScenarioRequest run;
  run.termination_reason = protocol::TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT;
  for (const auto& [s, t] : {std::pair{10.0, 100.0}, {20.0, 101.5}, {20.0, 105.0}, {20.0, 109.0}}) {
    protocol::OdometryWithoutCovariance sample;
    sample.header.stamp = protocol::Time::FromSeconds(t);
    sample.pose.position = {s, s, 0.0};
    run.vehicle_trajectory.push_back(sample);
  }
  run.vehicle_sim_time = 9.0;
  EXPECT_NEAR(RegretOf(run, problem, plan, settings, kMoment).time, 1.5, 1e-9);
  EXPECT_NEAR(RegretOf(run, problem, plan, settings, regret::FailureTime::kEndOfRun).time, 9.0,
              1e-9);
}

TEST_F(RegretProblemTest, ARequestNamesItsFailureTimeOrTakesTheDefault) {
  protocol::RunScenarioRequest request = SmallRequest();
  EXPECT_EQ(FailureTimeOf(request), kMoment);
  request.regret = protocol::RegretSpec{regret::FailureTime::kEndOfRun};
  EXPECT_EQ(FailureTimeOf(request), regret::FailureTime::kEndOfRun);
}

}  // namespace
}  // namespace asg::worker
