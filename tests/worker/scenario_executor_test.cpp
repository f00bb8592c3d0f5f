// Tests for worker/scenario_executor.h.
#include "worker/scenario_executor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <variant>

#include "tests/source_catalog.h"
#include "tests/worker/small_request.h"

namespace asg::worker {
namespace {

using testing::SmallRequest;

/// The ScenarioCompleted of `execution`; null, after a test failure, for another alternative.
const ScenarioCompleted* Completed(const Execution& execution) {
  const auto* completed = std::get_if<ScenarioCompleted>(&execution);
  if (completed == nullptr) ADD_FAILURE() << "not completed: alternative " << execution.index();
  return completed;
}

class ScenarioExecutorTest : public ::testing::Test {
 protected:
  scene::ActorCatalog catalog_ = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
};

TEST_F(ScenarioExecutorTest, RunsTheScenarioAndFillsTheWorkerId) {
  ScenarioExecutor executor(catalog_, 5);
  int built = 0;
  const Execution outcome = executor.Execute(SmallRequest(), [&] { ++built; });
  EXPECT_EQ(built, 1);
  const ScenarioCompleted* execution = Completed(outcome);
  ASSERT_NE(execution, nullptr);
  EXPECT_EQ(execution->analysis.worker_id, 5);
  EXPECT_EQ(execution->analysis.scenario_number, 9);
  EXPECT_EQ(execution->analysis.termination_reason, protocol::TerminationReason::REASON_SUCCESS);
  EXPECT_FALSE(execution->analysis.vehicle_trajectory.empty());
  EXPECT_TRUE(execution->captures.empty());
  // An open field driven straight to the goal: the reference agent's straight line, so a small
  // regret (the vehicle accelerates from rest and stops inside the goal radius).
  const protocol::RegretReport& regret = execution->analysis.regret;
  ASSERT_TRUE(regret.computed);
  EXPECT_NEAR(regret.cost_opt, 24.0 * std::sqrt(2.0), 1e-6);
  EXPECT_NEAR(regret.time_opt, regret.cost_opt / 5.0, 1e-6);
  EXPECT_EQ(regret.reference_path.size(), 2u);
  EXPECT_EQ(regret.cost_position_term, 0.0);
  EXPECT_LT(regret.regret, 0.25);
  EXPECT_NEAR(regret.regret, regret.cost_term + regret.time_term, 1e-12);
  // Reusing the executor (and its cached landscape) gives the same result.
  const Execution again = executor.Execute(SmallRequest(), [] {});
  ASSERT_NE(Completed(again), nullptr);
  EXPECT_EQ(Completed(again)->analysis, execution->analysis);
}

TEST_F(ScenarioExecutorTest, SceneCaptureOnlyIsSuccessWithoutATrajectory) {
  ScenarioExecutor executor(catalog_, 1);
  protocol::RunScenarioRequest request = SmallRequest();
  request.scene_capture_only = true;
  const Execution outcome = executor.Execute(request, [] {});
  const ScenarioCompleted* execution = Completed(outcome);
  ASSERT_NE(execution, nullptr);
  EXPECT_EQ(execution->analysis.termination_reason, protocol::TerminationReason::REASON_SUCCESS);
  EXPECT_EQ(execution->analysis.vehicle_sim_time, 0.0);
  EXPECT_TRUE(execution->analysis.vehicle_trajectory.empty());
}

TEST_F(ScenarioExecutorTest, RequestedCapturesAreRenderedAsPngs) {
  ScenarioExecutor executor(catalog_, 1);
  protocol::RunScenarioRequest request = SmallRequest();
  request.scene_capture_only = true;
  request.take_scene_capture = true;
  request.scene_capture_settings.image_size = 32;
  request.scene_capture_settings.ortho_aerial = true;
  request.scene_capture_settings.aerial_padding = {0};
  const Execution outcome = executor.Execute(request, [] {});
  const ScenarioCompleted* execution = Completed(outcome);
  ASSERT_NE(execution, nullptr);
  ASSERT_EQ(execution->capture_error, "");
  ASSERT_EQ(execution->captures.size(), 1u);
  EXPECT_EQ(execution->captures[0].name, "ortho_aerial_pad0");
  ASSERT_GT(execution->captures[0].png.size(), 8u);
  EXPECT_EQ(execution->captures[0].png[1], 'P');  // "\x89PNG"
}

TEST_F(ScenarioExecutorTest, UnknownActorIsASceneErrorNamingIt) {
  ScenarioExecutor executor(catalog_, 1);
  protocol::RunScenarioRequest request = SmallRequest();
  protocol::StructuralSceneActorLayout layout;
  layout.path_name = "/Game/No_Such_Actor";
  layout.num_instances = 1;
  layout.visible = {true};
  layout.cast_shadow = {true};
  layout.x = {20.0};
  layout.y = {5.0};
  layout.yaw = {0.0};
  layout.scale = {1.0};
  request.scene_description.ssa_array.push_back(layout);
  int built = 0;
  const Execution execution = executor.Execute(request, [&] { ++built; });
  EXPECT_EQ(built, 0);
  const auto* failed = std::get_if<SceneNotCreated>(&execution);
  ASSERT_NE(failed, nullptr) << "alternative " << execution.index();
  EXPECT_NE(failed->error.find("/Game/No_Such_Actor"), std::string::npos) << failed->error;
  // The executor stays usable.
  EXPECT_TRUE(std::holds_alternative<ScenarioCompleted>(executor.Execute(SmallRequest(), [] {})));
}

}  // namespace
}  // namespace asg::worker
