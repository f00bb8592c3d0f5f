// Tests for worker/single_run.h: one request file in, one scenario folder out.
#include "worker/single_run.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "protocol/messages_json.h"
#include "results/files.h"
#include "results/folder.h"
#include "results/record.h"
#include "results/trajectory_csv.h"
#include "scene/actor_catalog.h"
#include "tests/source_catalog.h"
#include "tests/temp_dir.h"
#include "tests/worker/small_request.h"
#include "worker/worker_session.h"

namespace asg::worker {
namespace {

protocol::RunScenarioRequest SmallRequest() { return testing::SmallRequest(31, 4242); }

class SingleRunTest : public ::testing::Test {
 protected:
  std::filesystem::path WriteRequest(const json::Json& json) {
    const auto file = dir_.path() / "request.json";
    std::ofstream(file) << json.dump(2);
    return file;
  }
  testutil::TempDir dir_;
  scene::ActorCatalog catalog_ = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
};

TEST_F(SingleRunTest, WritesTheScenarioFolderOfARun) {
  const auto out = dir_.path() / "out";
  std::ostringstream printed;
  EXPECT_EQ(RunScenarioFile(WriteRequest(json::Json(SmallRequest())), out, catalog_, 3, printed),
            kWorkerExitOk);
  EXPECT_NE(printed.str().find("scenario 31: REASON_SUCCESS"), std::string::npos) << printed.str();
  ASSERT_TRUE(results::ScenarioFolderComplete(out, 31));
  const auto outcome = results::LoadScenarioOutcome(out, 31);
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->result.status, results::ScenarioStatus::kDone);
  EXPECT_EQ(outcome->result.seed, 4242u);
  EXPECT_EQ(outcome->result.termination_reason, protocol::TerminationReason::REASON_SUCCESS);
  EXPECT_EQ(outcome->timing.worker_id, 3);
  // The request as run is stored, and decodes back into the same request.
  const auto folder = results::ScenarioFolder(out, 31);
  EXPECT_EQ(protocol::DecodeMessage<protocol::RunScenarioRequest>(
                results::ReadJsonFile(folder / "request.json")),
            SmallRequest());
  // One trajectory row per control tick (20 Hz) over the simulated time, plus the header.
  const std::string csv = results::ReadTextFile(folder / "trajectory.csv");
  const auto rows = std::count(csv.begin(), csv.end(), '\n');
  EXPECT_EQ(rows, std::lround(outcome->result.vehicle_sim_time * 20.0) + 2);
}

TEST_F(SingleRunTest, AnUnknownActorIsRecordedAsAnInvalidScene) {
  protocol::RunScenarioRequest request = SmallRequest();
  protocol::StructuralSceneActorLayout layout;
  layout.path_name = "/Game/Blueprints/BP_No_Such_Actor";
  layout.num_instances = 1;
  layout.visible = {true};
  layout.cast_shadow = {true};
  layout.x = {20.0};
  layout.y = {20.0};
  layout.yaw = {0.0};
  layout.scale = {1.0};
  request.scene_description.ssa_array.push_back(layout);
  const auto out = dir_.path() / "out";
  std::ostringstream printed;
  EXPECT_EQ(RunScenarioFile(WriteRequest(json::Json(request)), out, catalog_, 1, printed),
            kWorkerExitFailure);
  const auto outcome = results::LoadScenarioOutcome(out, 31);
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->result.status, results::ScenarioStatus::kInvalid);
  EXPECT_NE(outcome->result.error.find("BP_No_Such_Actor"), std::string::npos)
      << outcome->result.error;
}

TEST_F(SingleRunTest, ABadRequestFileWritesNothingAndNamesTheField) {
  json::Json json = json::Json(SmallRequest());
  json["goal_radious"] = 3.0;
  const auto out = dir_.path() / "out";
  std::ostringstream printed;
  EXPECT_EQ(RunScenarioFile(WriteRequest(json), out, catalog_, 1, printed), kWorkerExitUsage);
  EXPECT_NE(printed.str().find("goal_radious"), std::string::npos) << printed.str();
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(RunScenarioFile(dir_.path() / "missing.json", out, catalog_, 1, printed),
            kWorkerExitUsage);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace asg::worker
