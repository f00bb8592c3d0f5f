// Tests for client/replay/replay_batch.h.
#include "client/replay/replay_batch.h"

#include <gtest/gtest.h>

#include "client/batch/batch.h"
#include "protocol/messages_json.h"
#include "results/folder.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using testutil::TempDir;

// A valid full request of scenario `number`, with a goal radius that marks it.
Json SourceRequest(uint32_t number, double goal_radius) {
  protocol::RunScenarioRequest request;
  request.scenario_number = number;
  request.seed = 1000 + number;
  request.goal_radius = goal_radius;
  return Json(request);
}

// Writes scenario `number`'s folder with SourceRequest as its request.json.
void WriteScenario(const fs::path& dir, uint32_t number, double goal_radius) {
  results::ScenarioRecord record;
  record.request = SourceRequest(number, goal_radius);
  record.result.scenario_number = number;
  record.result.status = results::ScenarioStatus::kDone;
  record.timing.attempts = {{1, 1, 0.1, "done", ""}};
  results::WriteScenarioFolder(dir, record);
}

TEST(ReplayBatch, RunsAreNumberedConsecutivelyPerSourceScenario) {
  const std::vector<ReplayRun> expected = {{1, 7, 0, 0.9, ""}, {2, 7, 1, 0.9, ""},
                                           {3, 7, 2, 0.9, ""}, {4, 3, 0, 0.4, ""},
                                           {5, 3, 1, 0.4, ""}, {6, 3, 2, 0.4, ""}};
  EXPECT_EQ(PlanReplayRuns({{7, 0.9, ""}, {3, 0.4, ""}}, 3), expected);
}

TEST(ReplayBatch, RequestKeepsTheSceneAndSetsNumberRunAndCaptures) {
  const Json source = SourceRequest(7, 3.5);
  const Json plain = ReplayRequest(source, {2, 7, 1, 0.9, ""}, false);
  EXPECT_EQ(plain["scenario_number"], 2);
  EXPECT_EQ(plain["variation"]["run"], 1);
  EXPECT_EQ(plain["seed"], source["seed"]);
  EXPECT_EQ(plain["scene_description"], source["scene_description"]);
  EXPECT_EQ(plain["take_scene_capture"], false);

  const Json captured = ReplayRequest(source, {2, 7, 1, 0.9, ""}, true);
  EXPECT_EQ(captured["take_scene_capture"], true);
  const Json& capture = captured["scene_capture_settings"];
  EXPECT_EQ(capture["ortho_aerial"], true);
  EXPECT_EQ(capture["draw_annotations"], true);
  EXPECT_EQ(capture["aerial_padding"], Json::array({5}));
  EXPECT_EQ(capture["image_size"], 512);
  EXPECT_EQ(ReplayCaptureName(), "ortho_aerial_pad5_annotated.png");
}

TEST(ReplayBatch, TheBatchPlansIntoTheSourceRequestsWithNewNumbers) {
  TempDir dir;
  WriteScenario(dir.path(), 7, 3.5);
  WriteScenario(dir.path(), 3, 6.5);
  ReplaySettings settings;
  settings.source_dir = dir.path();
  settings.top = 2;
  settings.runs = 2;
  settings.captures = true;
  const std::vector<ReplayRun> runs = PlanReplayRuns({{7, 0.9, ""}, {3, 0.4, ""}}, 2);
  const Json batch_json = ReplayBatchJson(settings, runs);
  EXPECT_EQ(batch_json["scenarios"].size(), 4u);

  // The batch is an ordinary batch: it plans into valid requests.
  const Batch batch = ParseBatch(batch_json, "replay_batch.json", "replay");
  ASSERT_EQ(batch.scenarios.size(), 4u);
  const double radii[] = {3.5, 3.5, 6.5, 6.5};
  for (uint32_t i = 0; i < 4; ++i) {
    const PlannedScenario& planned = batch.scenarios[i];
    EXPECT_EQ(planned.status, PlanStatus::kValid) << planned.error;
    EXPECT_EQ(planned.scenario_number, i + 1);
    EXPECT_EQ(planned.request.variation.run, i % 2);
    EXPECT_EQ(planned.request.goal_radius, radii[i]);
    EXPECT_EQ(planned.request.seed, i < 2 ? 1007u : 1003u);
    EXPECT_TRUE(planned.request.take_scene_capture);
  }

  const Json record = ReplayRecordJson(settings, runs);
  EXPECT_EQ(record["runs"], 2);
  EXPECT_EQ(record["scenarios"][2]["scenario_number"], 3);
  EXPECT_EQ(record["scenarios"][2]["source_scenario"], 3);
  EXPECT_EQ(record["scenarios"][1]["source_scenario"], 7);
  EXPECT_EQ(record["scenarios"][1]["run"], 1);
}

TEST(ReplayBatch, AMissingSourceRequestIsAnError) {
  TempDir dir;
  ReplaySettings settings;
  settings.source_dir = dir.path();
  EXPECT_THROW(ReplayBatchJson(settings, PlanReplayRuns({{4, 0.5, ""}}, 1)), ReplayError);
}

}  // namespace
}  // namespace asg::client
