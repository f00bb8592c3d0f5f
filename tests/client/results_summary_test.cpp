// Tests for client/results_summary.h.
#include "client/results_summary.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "client/results_files.h"
#include "tests/client/temp_dir.h"

namespace asg::client {
namespace {

ScenarioOutcome Outcome(uint32_t number, ScenarioStatus status, uint8_t reason, int worker) {
  ScenarioOutcome outcome;
  outcome.result.scenario_number = number;
  outcome.result.status = status;
  outcome.result.termination_reason = reason;
  outcome.result.vehicle_sim_time = 2.5 * number;
  outcome.result.attempts = status == ScenarioStatus::kInvalid ? 0 : 1;
  if (status != ScenarioStatus::kDone) outcome.result.error = "bad";
  outcome.timing.worker_id = worker;
  outcome.timing.wall_time_s = 1.0 + number;
  return outcome;
}

std::vector<ScenarioOutcome> Sample() {
  return {Outcome(3, ScenarioStatus::kDone, 1, 2), Outcome(1, ScenarioStatus::kDone, 0, 1),
          Outcome(2, ScenarioStatus::kInvalid, 0, -1), Outcome(4, ScenarioStatus::kDone, 0, 1),
          Outcome(5, ScenarioStatus::kFailed, 0, 2)};
}

TEST(SummarizeTest, CountsPerStatusAndPerReason) {
  const BatchSummary summary = Summarize("demo", 7, Sample(), 10.0);
  EXPECT_EQ(summary.total, 5u);
  EXPECT_EQ(summary.status_counts.at("done"), 3u);
  EXPECT_EQ(summary.status_counts.at("invalid"), 1u);
  EXPECT_EQ(summary.status_counts.at("failed"), 1u);
  EXPECT_EQ(summary.reason_counts.size(), 2u);
  EXPECT_EQ(summary.reason_counts.at("REASON_SUCCESS"), 2u);
  EXPECT_EQ(summary.reason_counts.at("REASON_VEHICLE_COLLISION"), 1u);
  EXPECT_DOUBLE_EQ(summary.scenarios_per_s, 0.3);
  EXPECT_EQ(Summarize("x", 0, {}, 0.0).status_counts.at("failed"), 0u);
  EXPECT_EQ(Summarize("x", 0, {}, 0.0).scenarios_per_s, 0.0);
}

TEST(SummaryToCsvTest, RowsSortedByNumberWithEmptyCellsWhereNothingRan) {
  const std::string csv = SummaryToCsv(Sample());
  EXPECT_EQ(csv,
            "scenario_number,status,termination_reason_name,vehicle_sim_time,wall_time_s,"
            "worker_id,attempts\n"
            "1,done,REASON_SUCCESS,2.5,2.000,1,1\n"
            "2,invalid,,,3.000,,0\n"
            "3,done,REASON_VEHICLE_COLLISION,7.5,4.000,2,1\n"
            "4,done,REASON_SUCCESS,10,5.000,1,1\n"
            "5,failed,,,6.000,2,1\n");
}

TEST(WriteSummaryTest, WritesJsonAndCsv) {
  testing::TempDir dir;
  const auto outcomes = Sample();
  WriteSummary(dir.path(), Summarize("demo", 7, outcomes, 10.0), outcomes);
  const Json json = ReadJsonFile(dir.path() / "summary.json");
  EXPECT_EQ(json["batch"], "demo");
  EXPECT_EQ(json["seed"], 7);
  EXPECT_EQ(json["total"], 5);
  EXPECT_EQ(json["status_counts"]["done"], 3);
  EXPECT_EQ(json["reason_counts"]["REASON_SUCCESS"], 2);
  ASSERT_EQ(json["scenarios"].size(), 5u);
  EXPECT_EQ(json["scenarios"][0]["scenario_number"], 1);
  EXPECT_EQ(json["scenarios"][1]["error"], "bad");
  EXPECT_EQ(json["scenarios"][2]["termination_reason_name"], "REASON_VEHICLE_COLLISION");
  std::ifstream csv(dir.path() / "summary.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, kSummaryCsvHeader);
}

TEST(FormatOutcomeTableTest, ListsStatusesAndReasonsWithPercentages) {
  const std::string table = FormatOutcomeTable(Summarize("demo", 7, Sample(), 10.0));
  EXPECT_EQ(table.rfind("batch demo (seed 7): 5 scenarios in 10.0 s, 0.30 scenarios/s\n", 0), 0u)
      << table;
  EXPECT_NE(table.find("done"), std::string::npos);
  EXPECT_NE(table.find("60.0%"), std::string::npos);
  EXPECT_NE(table.find("REASON_VEHICLE_COLLISION"), std::string::npos);
  EXPECT_NE(table.find("20.0%"), std::string::npos);
}

}  // namespace
}  // namespace asg::client
