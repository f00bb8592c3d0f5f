// Tests for client/batch/scene_checks.h.
#include "client/batch/scene_checks.h"

#include <gtest/gtest.h>

#include <string>

#include "client/batch/batch.h"

namespace asg::client {
namespace {

// A request whose start, goal and landscape draw no other problem.
protocol::RunScenarioRequest PlainRequest() {
  protocol::RunScenarioRequest request;
  request.scene_description.landscape.nominal_size = 60.0;
  request.vehicle_start_location = {10.0, 10.0, 0.0};
  request.vehicle_goal_location = {50.0, 50.0, 0.0};
  return request;
}

TEST(CheckSceneTest, CapturesWithEveryViewOffAreAProblemOfTakeSceneCapture) {
  protocol::RunScenarioRequest request = PlainRequest();
  request.take_scene_capture = true;
  const std::optional<SceneProblem> problem = CheckScene(request, nullptr);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->path, "take_scene_capture");
  EXPECT_NE(problem->problem.find("enables no view, so no image is rendered"), std::string::npos)
      << problem->problem;
  request.take_scene_capture = false;
  EXPECT_FALSE(CheckScene(request, nullptr).has_value());
}

TEST(CheckSceneTest, AnyOneViewIsEnough) {
  protocol::RunScenarioRequest request = PlainRequest();
  request.take_scene_capture = true;
  request.scene_capture_settings.vehicle_start_pov = true;
  EXPECT_FALSE(CheckScene(request, nullptr).has_value());
  request.scene_capture_settings.vehicle_start_pov = false;
  request.scene_capture_settings.left_rear_aerial = true;
  EXPECT_FALSE(CheckScene(request, nullptr).has_value());
  request.scene_capture_settings.left_rear_aerial = false;
  request.scene_capture_settings.ortho_aerial = true;
  request.scene_capture_settings.aerial_padding = {5};
  EXPECT_FALSE(CheckScene(request, nullptr).has_value());
}

// The error names where take_scene_capture was written, once for every scenario it concerns.
TEST(CheckSceneTest, ABatchCapturingNoViewIsInvalidNamingDefaults) {
  const Batch batch = ParseBatchText(
      R"({"defaults": {"take_scene_capture": true,
           "vehicle_start_location": {"x": 10, "y": 10, "z": 0},
           "vehicle_goal_location": {"x": 50, "y": 50, "z": 0},
           "vehicle_stuck_timeout_period": 5, "vehicle_idling_timeout_period": 5},
          "scenarios": [{}, {}, {"scene_capture_settings": {"front_aerial": true}}]})",
      "capture.json", "capture");
  EXPECT_EQ(batch.CountInvalid(), 2u);
  EXPECT_EQ(CheckReport(batch),
            "capture.json: defaults.take_scene_capture: true, but scene_capture_settings enables "
            "no view, so no image is rendered: set one of ortho_aerial (with aerial_padding), "
            "perspective_aerial, front_aerial, ..., vehicle_start_pov, vehicle_start_rear_aerial "
            "to true, or take_scene_capture to false (in 2 scenarios: 1, 2)\n"
            "capture.json: 3 scenarios: 1 valid, 2 invalid\n");
}

}  // namespace
}  // namespace asg::client
