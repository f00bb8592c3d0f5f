// Tests for worker/serve/run_results.h: the ended run's result JSON with its regret, and the
// scenario folder written for a scenario opened from a result folder.
#include "worker/serve/run_results.h"

#include <gtest/gtest.h>

#include "results/files.h"
#include "tests/scene/scene_test_util.h"
#include "tests/temp_dir.h"
#include "tests/worker/small_request.h"

namespace asg::worker::serve {
namespace {

class RunResultsTest : public ::testing::Test {
 protected:
  /// Loads the small scenario and steps it to its end.
  void RunToTheEnd() {
    live_.Load(testing::SmallRequest(9));
    while (!live_.Step()) {
    }
  }

  scene::LiveRun live_{scene::testing::ShippedCatalog()};
  SceneCaptures captures_;
  SessionLogs logs_;
  InterventionLog interventions_;
  RunResults results_{42};
};

TEST_F(RunResultsTest, NothingBeforeAnEnd) {
  results_.Loaded({});
  EXPECT_TRUE(results_.result_json().is_null());
  EXPECT_TRUE(results_.result_folder().empty());
  EXPECT_TRUE(results_.folder().empty());
}

TEST_F(RunResultsTest, AnEndedRunGivesItsAnalysisWithRegret) {
  results_.Loaded({});
  RunToTheEnd();
  results_.RunEnded(live_, interventions_, captures_, logs_);
  const json::Json& result = results_.result_json();
  EXPECT_EQ(result["termination_reason_name"], "REASON_SUCCESS") << result.dump();
  EXPECT_EQ(result["worker_id"], 42);
  EXPECT_TRUE(result.contains("regret")) << result.dump();
  EXPECT_GT(result["vehicle_sim_time"].get<double>(), 1.0);
  EXPECT_TRUE(results_.result_folder().empty());  // not opened from a folder: none written
  const json::Json diagnostics = logs_.QueryDiagnostics({});
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0]["message"].get<std::string>().rfind("run ended: REASON_SUCCESS at ", 0),
            0u)
      << diagnostics.dump();

  results_.Clear();  // a fresh run
  EXPECT_TRUE(results_.result_json().is_null());
}

TEST_F(RunResultsTest, AScenarioFromAFolderGetsItsResultFolderThere) {
  testutil::TempDir dir;
  results_.Loaded(dir.path());
  RunToTheEnd();
  results_.RunEnded(live_, interventions_, captures_, logs_);
  EXPECT_EQ(results_.folder(), dir.path());
  EXPECT_EQ(results_.result_folder(), dir.path() / "interactive" / "scenario_0009");
  const json::Json written =
      json::Json::parse(results::ReadTextFile(results_.result_folder() / "result.json"));
  EXPECT_EQ(written["termination_reason"], results_.result_json()["termination_reason"]);
  EXPECT_TRUE(std::filesystem::exists(results_.result_folder() / "request.json"));
  EXPECT_FALSE(written.contains("interventions"));  // nobody intervened
  EXPECT_FALSE(results_.result_json().contains("interventions"));

  results_.Loaded({});  // another scenario, not from a folder
  EXPECT_TRUE(results_.result_folder().empty());
  EXPECT_TRUE(results_.folder().empty());
}

TEST_F(RunResultsTest, InterventionsAreInTheResultJsonAndTheResultFolder) {
  testutil::TempDir dir;
  results_.Loaded(dir.path());
  live_.Load(testing::SmallRequest(9));
  for (int i = 0; i < 40; ++i) live_.Step();
  const scene::EntityKinematics before = *live_.Kinematics("vehicle");
  scene::EntityStateChange change;
  change.position = before.position + Eigen::Vector3d(1.0, 0.0, 0.0);
  change.orientation = before.orientation;
  ASSERT_EQ(live_.SetState("vehicle", change).status, scene::EntityStatus::kOk);
  RecordStateChange(live_, "SetEntityState", "vehicle", change, before, &interventions_);
  while (!live_.Step()) {
  }
  results_.RunEnded(live_, interventions_, captures_, logs_);
  const json::Json written =
      json::Json::parse(results::ReadTextFile(results_.result_folder() / "result.json"));
  ASSERT_TRUE(written.contains("interventions")) << written.dump();
  const json::Json& teleport = written["interventions"][0];
  EXPECT_EQ(teleport["kind"], "teleport");
  EXPECT_EQ(teleport["service"], "SetEntityState");
  EXPECT_EQ(teleport["entity"], "vehicle");
  EXPECT_NEAR(teleport["sim_time_s"].get<double>(), 40 * live_.timing().dt, 1e-9);
  EXPECT_NEAR(teleport["to"][0].get<double>() - teleport["from"][0].get<double>(), 1.0, 1e-9);
  EXPECT_EQ(results_.result_json()["interventions"], written["interventions"]);
}

TEST_F(RunResultsTest, AFolderThatCannotBeWrittenIsLogged) {
  testutil::TempDir dir;
  // A file where the interactive folder would be.
  results::WriteFileUnsynced(dir.path() / "interactive", "in the way");
  results_.Loaded(dir.path());
  RunToTheEnd();
  results_.RunEnded(live_, interventions_, captures_, logs_);
  EXPECT_FALSE(results_.result_json().is_null());
  EXPECT_TRUE(results_.result_folder().empty());
  const json::Json errors = logs_.QueryDiagnostics({std::nullopt, std::nullopt, "error"});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0]["message"].get<std::string>().find("result folder not written"),
            std::string::npos);
}

}  // namespace
}  // namespace asg::worker::serve
