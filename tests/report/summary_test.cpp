// Tests for report/summary.h.
#include "report/summary.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "results/files.h"
#include "tests/temp_dir.h"

namespace asg::report {

using json::Json;
namespace {

results::ScenarioOutcome Outcome(uint32_t number, results::ScenarioStatus status, uint8_t reason,
                                 int worker) {
  results::ScenarioOutcome outcome;
  outcome.result.scenario_number = number;
  outcome.result.status = status;
  outcome.result.termination_reason = static_cast<protocol::TerminationReason>(reason);
  outcome.result.vehicle_sim_time = 2.5 * number;
  if (status != results::ScenarioStatus::kDone) outcome.result.error = "bad";
  outcome.timing.worker_id = worker;
  outcome.timing.wall_time_s = 1.0 + number;
  // The attempts column counts timing.json's attempts: none for an invalid scenario, three
  // lost ones for a failed one.
  if (status == results::ScenarioStatus::kDone) {
    outcome.timing.attempts = {{1, worker, 1.0 + number, "done", ""}};
  } else if (status == results::ScenarioStatus::kFailed) {
    for (uint32_t attempt = 1; attempt <= 3; ++attempt) {
      outcome.timing.attempts.push_back({attempt, worker, 1.0, "worker lost", "crashed"});
    }
  }
  return outcome;
}

std::vector<results::ScenarioOutcome> Sample() {
  return {Outcome(3, results::ScenarioStatus::kDone, 1, 2),
          Outcome(1, results::ScenarioStatus::kDone, 0, 1),
          Outcome(2, results::ScenarioStatus::kInvalid, 0, -1),
          Outcome(4, results::ScenarioStatus::kDone, 0, 1),
          Outcome(5, results::ScenarioStatus::kFailed, 0, 2)};
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

TEST(AddEarlierRunsTest, AResumedBatchKeepsItsOwnWallTimeAndShowsTheRunsApart) {
  testutil::TempDir dir;
  const auto outcomes = Sample();
  EXPECT_EQ(EarlierWallTime(dir.path()), 0.0);  // no summary.json yet
  WriteSummary(dir.path(), Summarize("demo", 7, outcomes, 12.0), outcomes);
  EXPECT_DOUBLE_EQ(EarlierWallTime(dir.path()), 12.0);
  // A no-op resume: every scenario kept, 0.25 s.
  BatchSummary resumed = Summarize("demo", 7, outcomes, 0.25, 5, 3);
  EXPECT_EQ(resumed.scenarios_per_s, 0.0);
  AddEarlierRuns(&resumed, EarlierWallTime(dir.path()));
  EXPECT_DOUBLE_EQ(resumed.wall_time_s, 12.25);
  EXPECT_DOUBLE_EQ(resumed.scenarios_per_s, 3 / 12.25);
  ASSERT_TRUE(resumed.resumed_run.has_value());
  EXPECT_DOUBLE_EQ(resumed.resumed_run->wall_time_s, 0.25);
  EXPECT_EQ(resumed.resumed_run->scenarios_run, 0u);
  EXPECT_EQ(resumed.resumed_run->scenarios_per_s, 0.0);
  const Json json = SummaryToJson(resumed, outcomes);
  EXPECT_DOUBLE_EQ(json["wall_time_s"].get<double>(), 12.25);
  EXPECT_EQ(json["resumed_run"]["scenarios_run"], 0);
  EXPECT_NE(FormatOutcomeTable(resumed).find("resumed run: 0 scenarios run in 0.2 s"),
            std::string::npos);
  // A batch run once has no resumed_run.
  EXPECT_FALSE(
      SummaryToJson(Summarize("demo", 7, outcomes, 12.0), outcomes).contains("resumed_run"));
}

TEST(SummaryToCsvTest, RowsSortedByNumberWithEmptyCellsWhereNothingRan) {
  std::vector<results::ScenarioOutcome> outcomes = Sample();
  // Scenario 3 has a regret report; the others have none (empty regret cells).
  protocol::RegretReport& regret = outcomes[0].result.regret;
  regret = {{1.5, 0.25, 0.5, 0.5, 0.25, 30.0, 6.0, 24.0, 4.0}, true, 20.0, 3.0, {}};
  const std::string csv = SummaryToCsv(outcomes);
  EXPECT_EQ(csv,
            "scenario_number,status,termination_reason_name,vehicle_sim_time,wall_time_s,"
            "worker_id,attempts,regret,regret_cost_term,regret_time_term,"
            "regret_cost_position_term,regret_time_position_term,cost,time,cost_opt,time_opt,"
            "seed,driver,variant,layout,distance_travelled,collisions_touched,max_abs_roll,"
            "max_abs_pitch,control_messages,physics_steps,settle_time,error\n"
            "1,done,REASON_SUCCESS,2.5,2.000,1,1,,,,,,,,,,0,,,,0,0,0,0,0,0,0,\n"
            "2,invalid,,,3.000,,0,,,,,,,,,,0,,,,,,,,,,,bad\n"
            "3,done,REASON_VEHICLE_COLLISION,7.5,4.000,2,1,1.5,0.25,0.5,0.5,0.25,30,6,24,4,0,,,,"
            "0,0,0,0,0,0,0,\n"
            "4,done,REASON_SUCCESS,10,5.000,1,1,,,,,,,,,,0,,,,0,0,0,0,0,0,0,\n"
            "5,failed,,,6.000,2,3,,,,,,,,,,0,,,,,,,,,,,bad\n");
}

TEST(SummaryToCsvTest, SeedDriverCountersAndAQuotedError) {
  std::vector<results::ScenarioOutcome> outcomes = {
      Outcome(1, results::ScenarioStatus::kDone, 0, 1),
      Outcome(2, results::ScenarioStatus::kInvalid, 0, -1)};
  outcomes[0].result.seed = 42;
  outcomes[0].result.counters = {120, 2, 3.5, 4.25, 61.5, 0.5, 1200, std::nullopt, ""};
  outcomes[1].result.error = "scenarios[1].x: 2 values, \"x\" needs 3";
  const std::string csv = SummaryToCsv(outcomes, {{1, "planner"}, {2, "straight"}});
  EXPECT_NE(csv.find("\n1,done,REASON_SUCCESS,2.5,2.000,1,1,,,,,,,,,,42,planner,,,61.5,2,3.5,"
                     "4.25,120,1200,0.5,\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",straight,,,,,,,,,,\"scenarios[1].x: 2 values, \"\"x\"\" needs 3\"\n"),
            std::string::npos)
      << csv;
}

TEST(SummarizeTest, VariantsAreCountedAndComparedLayoutByLayout) {
  // Two layouts x two variants: layout 1 ends the same way twice, layout 2 differently.
  std::vector<results::ScenarioOutcome> outcomes = {
      Outcome(1, results::ScenarioStatus::kDone, 0, 1),
      Outcome(2, results::ScenarioStatus::kDone, 0, 1),
      Outcome(3, results::ScenarioStatus::kDone, 0, 1),
      Outcome(4, results::ScenarioStatus::kDone, 1, 1)};
  const char* names[] = {"planner", "straight"};
  for (int i = 0; i < 4; ++i) {
    outcomes[i].result.variant = names[i % 2];
    outcomes[i].result.layout = static_cast<uint32_t>(i / 2 + 1);
  }
  const BatchSummary summary = Summarize("v", 1, outcomes, 1.0);
  ASSERT_EQ(summary.variants.size(), 2u);
  EXPECT_EQ(summary.variants[0].name, "planner");
  EXPECT_EQ(summary.variants[0].reason_counts.at("REASON_SUCCESS"), 2u);
  EXPECT_EQ(summary.variants[1].reason_counts.at("REASON_SUCCESS"), 1u);
  EXPECT_EQ(summary.variants[1].reason_counts.at("REASON_VEHICLE_COLLISION"), 1u);
  EXPECT_EQ(summary.layouts, 2u);
  ASSERT_EQ(summary.differences.size(), 1u);
  EXPECT_EQ(summary.differences[0].layout, 2u);
  EXPECT_EQ(summary.differences[0].outcomes[1],
            (std::pair<std::string, std::string>{"straight", "REASON_VEHICLE_COLLISION"}));
  const Json json = SummaryToJson(summary, outcomes);
  EXPECT_EQ(json["variant_differences"][0]["outcomes"]["planner"], "REASON_SUCCESS");
  EXPECT_EQ(json["scenarios"][3]["variant"], "straight");
  EXPECT_EQ(json["scenarios"][3]["layout"], 2);
  const std::string table = FormatOutcomeTable(summary);
  EXPECT_NE(table.find("  straight: REASON_SUCCESS 1 REASON_VEHICLE_COLLISION 1\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("layouts whose variants ended differently: 1 of 2"), std::string::npos);
  EXPECT_NE(SummaryToCsv(outcomes).find(",straight,2,"), std::string::npos);
}

TEST(WriteSummaryTest, WritesJsonAndCsv) {
  testutil::TempDir dir;
  const auto outcomes = Sample();
  WriteSummary(dir.path(), Summarize("demo", 7, outcomes, 10.0), outcomes);
  const Json json = results::ReadJsonFile(dir.path() / "summary.json");
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

TEST(FormatOutcomeTableTest, TheFailingScenariosStandBesideTheirDistinctFailures) {
  BatchSummary summary = Summarize("demo", 7, Sample(), 10.0);
  EXPECT_EQ(FormatOutcomeTable(summary).find("failing scenarios"), std::string::npos);
  EXPECT_FALSE(SummaryToJson(summary, Sample()).contains("distinct_failures"));
  summary.failing_scenarios = 2;
  summary.distinct_failures = 1;
  const std::string table = FormatOutcomeTable(summary);
  EXPECT_NE(table.find("  failing scenarios                     2   40.0%, 1 distinct "
                       "(failures.csv)\n"),
            std::string::npos)
      << table;
  const Json json = SummaryToJson(summary, Sample());
  EXPECT_EQ(json["failing_scenarios"], 2);
  EXPECT_EQ(json["distinct_failures"], 1);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  EXPECT_EQ(keys[5], "failing_scenarios");  // after the counts, before the times
  EXPECT_EQ(keys[7], "wall_time_s");
}

TEST(FormatOutcomeTableTest, TheReliableFailuresStandBesideTheDistinctOnesAndTheRunsApart) {
  BatchSummary summary = Summarize("demo", 7, Sample(), 10.0);
  summary.failing_scenarios = 2;
  summary.distinct_failures = 2;
  summary.reproduction = ReproductionCounts{5, 3, 1, 10};
  const std::string table = FormatOutcomeTable(summary);
  EXPECT_NE(table.find("  failing scenarios                     2   40.0%, 2 distinct, 1 reliable "
                       "(failures.csv)\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("  reproduction runs 10, beside the 5 scenarios: up to 5 of each distinct "
                       "failure; reliable when reproduced in at least 3\n"),
            std::string::npos)
      << table;
  const Json json = SummaryToJson(summary, Sample());
  EXPECT_EQ(json["total"], 5);  // the reproduction runs are not the batch's scenarios
  EXPECT_EQ(json["reliable_failures"], 1);
  EXPECT_EQ(json["reproduction_runs"], 10);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  EXPECT_EQ(keys[7], "reliable_failures");  // after the distinct failures
  EXPECT_EQ(keys[8], "reproduction_runs");
}

TEST(FormatOutcomeTableTest, NearMissesAreCountedBesideTheFailures) {
  BatchSummary summary = Summarize("demo", 7, Sample(), 10.0);
  EXPECT_FALSE(SummaryToJson(summary, Sample()).contains("contacts"));
  summary.failing_scenarios = 2;
  summary.distinct_failures = 1;
  summary.contacts = 1;
  const std::string table = FormatOutcomeTable(summary);
  EXPECT_NE(table.find("(failures.csv)\n  near misses (contact)                 1   20.0%, "
                       "successes that touched an obstacle (failures.json)\n"),
            std::string::npos)
      << table;
  const Json json = SummaryToJson(summary, Sample());
  EXPECT_EQ(json["contacts"], 1);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  EXPECT_EQ(keys[7], "contacts");  // beside the failures, before the times
}

}  // namespace
}  // namespace asg::report
