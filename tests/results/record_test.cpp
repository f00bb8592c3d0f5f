// Tests for results/record.h.
#include "results/record.h"

#include <gtest/gtest.h>

namespace asg::results {
namespace {

ScenarioResult SampleDone() {
  protocol::AnalyzeScenarioRequest analysis;
  analysis.worker_id = 4;
  analysis.scenario_number = 12;
  analysis.termination_reason = protocol::TerminationReason::REASON_VEHICLE_COLLISION;
  analysis.vehicle_sim_time = 6.25;
  analysis.counters.control_messages = 125;
  analysis.counters.max_abs_roll = 3.5;
  ScenarioResult result = DoneResult(analysis, 99);
  result.reruns.push_back({1, "stack", "sensor dropped"});
  result.captures = {"ortho_aerial_pad0.png"};
  return result;
}

TEST(ScenarioStatusTest, NamesRoundTrip) {
  for (ScenarioStatus status :
       {ScenarioStatus::kDone, ScenarioStatus::kInvalid, ScenarioStatus::kFailed}) {
    ScenarioStatus parsed = ScenarioStatus::kDone;
    ASSERT_TRUE(ScenarioStatusFromName(ScenarioStatusName(status), &parsed));
    EXPECT_EQ(parsed, status);
  }
  ScenarioStatus unused;
  EXPECT_FALSE(ScenarioStatusFromName("ok", &unused));
  EXPECT_EQ(ScenarioStatusName(ScenarioStatus::kInvalid), "invalid");
}

TEST(ResultJsonTest, DoneResultHasReasonNameAndNoWorkerOrWallTime) {
  const ScenarioResult result = SampleDone();
  EXPECT_EQ(result.scenario_number, 12u);
  const Json json = ResultToJson(result);
  EXPECT_EQ(json["termination_reason"], 1);
  EXPECT_EQ(json["termination_reason_name"], "REASON_VEHICLE_COLLISION");
  EXPECT_EQ(json["status"], "done");
  EXPECT_EQ(json["seed"], 99u);
  EXPECT_FALSE(json.contains("attempts"));  // counted in timing.json only
  EXPECT_EQ(json["counters"]["control_messages"], 125);
  EXPECT_FALSE(json.contains("worker_id"));
  EXPECT_FALSE(json.contains("wall_time_s"));
  EXPECT_FALSE(json.contains("error"));
  EXPECT_FALSE(json.contains("vehicle_trajectory"));
}

TEST(ResultJsonTest, RoundTripsDoneAndFailed) {
  const ScenarioResult done = SampleDone();
  EXPECT_EQ(ResultFromJson(ResultToJson(done), "r.json"), done);
  ScenarioResult failed;
  failed.scenario_number = 3;
  failed.status = ScenarioStatus::kFailed;
  failed.error = "worker 2 stopped answering";
  failed.seed = 5;
  const Json json = ResultToJson(failed);
  EXPECT_EQ(json["error"], "worker 2 stopped answering");
  EXPECT_FALSE(json.contains("termination_reason_name"));
  EXPECT_EQ(ResultFromJson(json, "r.json"), failed);
}

std::string ResultErrorOf(const Json& json) {
  try {
    ResultFromJson(json, "r.json");
  } catch (const ResultError& error) {
    return error.what();
  }
  return "no error";
}

TEST(ResultJsonTest, BrokenResultNamesTheOriginThePathAndTheValue) {
  Json json = ResultToJson(SampleDone());
  json.erase("seed");
  EXPECT_EQ(ResultErrorOf(json), "r.json: seed: missing required field");
  json = ResultToJson(SampleDone());
  json["status"] = "finished";
  EXPECT_EQ(
      ResultErrorOf(json),
      "r.json: status: unknown value \"finished\" (one of \"done\", \"invalid\", \"failed\")");
  json = ResultToJson(SampleDone());
  json["counters"]["collisions_touched"] = "many";
  const std::string nested = ResultErrorOf(json);
  EXPECT_TRUE(nested.starts_with("r.json: counters.collisions_touched: ")) << nested;
  EXPECT_NE(nested.find("many"), std::string::npos) << nested;
  json = ResultToJson(SampleDone());
  json["sim_time"] = 1.0;
  const std::string unknown = ResultErrorOf(json);
  EXPECT_TRUE(unknown.starts_with("r.json: sim_time: ")) << unknown;
}

TEST(ResultJsonTest, AFailureIdIsWrittenOnlyWhenSetAndRoundTrips) {
  ScenarioResult done = SampleDone();
  const std::string without = ResultToJson(done).dump();
  EXPECT_EQ(without.find("failure_id"), std::string::npos);
  done.failure_id = 3;
  const Json json = ResultToJson(done);
  EXPECT_EQ(json["failure_id"], 3);
  EXPECT_EQ(ResultFromJson(json, "r.json"), done);
  // Clearing it gives the bytes of a result that never had one.
  done.failure_id = 0;
  EXPECT_EQ(ResultToJson(done).dump(), without);
  // Only a done run can be a failure: a failed scenario naming one is refused.
  ScenarioResult failed;
  failed.status = ScenarioStatus::kFailed;
  Json refused = ResultToJson(failed);
  refused["failure_id"] = 1;
  const std::string error = ResultErrorOf(refused);
  EXPECT_TRUE(error.starts_with("r.json: failure_id: ")) << error;
}

TEST(ResultJsonTest, InterventionsAreWrittenOnlyWhenThereAreAnyAndRoundTrip) {
  ScenarioResult done = SampleDone();
  const std::string without = ResultToJson(done).dump();
  EXPECT_EQ(without.find("interventions"), std::string::npos);
  Intervention teleport;
  teleport.sim_time_s = 2.05;
  teleport.service = "SetEntityState";
  teleport.entity = "vehicle";
  teleport.kind = "teleport";
  teleport.from = {{15.0, 15.0, 0.7}};
  teleport.to = {{32.0, 32.0, 0.7}};
  Intervention command = teleport;
  command.kind = "ego_control";
  command.service = "EgoControl_ID";
  command.from.reset();
  command.to.reset();
  command.control = protocol::EgoControl{0.5, 0.0, 0.0, 1};
  done.interventions = {teleport, command};
  const Json json = ResultToJson(done);
  EXPECT_EQ(json["interventions"][0].dump(),
            R"({"sim_time_s":2.05,"service":"SetEntityState","entity":"vehicle","kind":"teleport",)"
            R"("from":[15.0,15.0,0.7],"to":[32.0,32.0,0.7]})");
  EXPECT_EQ(json["interventions"][1]["control"]["forward_amount"], 0.5);
  EXPECT_EQ(ResultFromJson(json, "r.json"), done);
  Json misspelt = json;
  misspelt["interventions"][0]["knd"] = "teleport";
  const std::string error = ResultErrorOf(misspelt);
  EXPECT_NE(error.find("interventions[0]"), std::string::npos) << error;
}

TEST(ResultJsonTest, FieldsAreWrittenInDeclarationOrder) {
  std::vector<std::string> keys;
  const Json json = ResultToJson(SampleDone());
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  ASSERT_GE(keys.size(), 4u);
  EXPECT_EQ(keys[0], "scenario_number");
  EXPECT_EQ(keys[1], "status");
}

TEST(TimingJsonTest, RoundTrips) {
  ScenarioTiming timing;
  timing.worker_id = 2;
  timing.wall_time_s = 21.5;
  timing.attempts = {{1, 1, 300.0, "timed out", "exceeded the cap of 300 s"},
                     {2, 2, 21.5, "done", ""}};
  const Json json = TimingToJson(timing);
  EXPECT_EQ(json["attempts"][0]["outcome"], "timed out");
  EXPECT_EQ(json["attempts"][0]["detail"], "exceeded the cap of 300 s");
  EXPECT_EQ(TimingFromJson(json, "t.json"), timing);
  EXPECT_THROW(TimingFromJson(Json::object(), "t.json"), ResultError);
}

}  // namespace
}  // namespace asg::results
