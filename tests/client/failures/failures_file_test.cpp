// Tests for client/failures/failures_file.h.
#include "client/failures/failures_file.h"

#include <gtest/gtest.h>

#include "results/files.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

// Two distinct failures at threshold 0.5: a crash copied three times, a timeout without regret;
// one near miss.
BatchFailures TwoFailures() {
  BatchFailures found;
  found.regret_threshold = 0.5;
  found.failing_scenarios = 4;
  failures::FailureCluster crash;
  crash.id = 1;
  crash.kind = failures::FailureKind::kCollision;
  crash.members = {3, 8, 12};
  crash.first_found = 3;
  crash.representative = 8;
  crash.x = 38.6;
  crash.y = 1.0 / 3.0;
  crash.max_regret = 1.25;
  failures::FailureCluster timeout;
  timeout.id = 2;
  timeout.kind = failures::FailureKind::kTimeout;
  timeout.members = {5};
  timeout.first_found = 5;
  timeout.representative = 5;
  timeout.x = 10;
  timeout.y = -0.0;
  found.clusters = {crash, timeout};
  found.contact_scenarios = {7};
  return found;
}

TEST(FailuresFile, TheCsvHasOneRowPerDistinctFailure) {
  EXPECT_EQ(FailuresCsv(TwoFailures()),
            "failure_id,kind,representative,members,first_found,x,y,max_regret\n"
            "1,collision,8,3,3,38.6,0.3333333333333333,1.25\n"
            "2,timeout,5,1,5,10,0,\n");
  EXPECT_EQ(FailuresCsv(BatchFailures{}), std::string(kFailuresCsvHeader) + "\n");
}

// TwoFailures with 5 reproduction runs each: the crash reproduced in 4, the timeout's never ran.
BatchFailures TwoReproducedFailures() {
  BatchFailures found = TwoFailures();
  found.reproduce = 5;
  failures::FailureCluster& crash = found.clusters[0];
  crash.reproduced = 4;
  crash.runs = 5;
  crash.reproduction_folders = std::vector<std::string>();
  for (int run = 1; run <= 5; ++run) {
    crash.reproduction_folders->push_back("reproduce/scenario_0008_run_" + std::to_string(run));
  }
  return found;
}

TEST(FailuresFile, ReproducedFailuresHaveTwoMoreColumns) {
  EXPECT_EQ(FailuresCsv(TwoReproducedFailures()),
            "failure_id,kind,representative,members,first_found,x,y,max_regret,reproduced,runs\n"
            "1,collision,8,3,3,38.6,0.3333333333333333,1.25,4,5\n"
            "2,timeout,5,1,5,10,0,,,\n");
  BatchFailures none;
  none.reproduce = 5;
  EXPECT_EQ(FailuresCsv(none),
            std::string(kFailuresCsvHeader) + std::string(kReproductionCsvColumns) + "\n");
}

TEST(FailuresFile, TheJsonOfReproducedFailuresCountsTheReliableOnesAndReadsBack) {
  testutil::TempDir dir;
  WriteFailuresFiles(dir.path(), TwoReproducedFailures());
  const json::Json json = results::ReadJsonFile(dir.path() / "failures.json");
  EXPECT_EQ(json["reproduce"], 5);
  EXPECT_EQ(json["reliable_failures"], 1);
  EXPECT_EQ(json["reproduction_runs"], 5);
  EXPECT_EQ(json["failures"][0]["reproduced"], 4);
  EXPECT_EQ(json["failures"][0]["reproduction_folders"][4], "reproduce/scenario_0008_run_5");
  EXPECT_FALSE(json["failures"][1].contains("runs"));
  const BatchFailures read = ReadFailuresJson(dir.path());
  EXPECT_EQ(read.reproduce, 5u);
  EXPECT_EQ(read.clusters[0].runs, 5u);
  const std::string bytes = results::ReadTextFile(dir.path() / "failures.json");
  WriteFailuresFiles(dir.path(), read);
  EXPECT_EQ(results::ReadTextFile(dir.path() / "failures.json"), bytes);
  // Without reproduction runs the counts of reliable failures and runs are left out.
  WriteFailuresFiles(dir.path(), TwoFailures());
  const json::Json plain = results::ReadJsonFile(dir.path() / "failures.json");
  EXPECT_EQ(plain["reproduce"], 0);
  EXPECT_FALSE(plain.contains("reliable_failures"));
  EXPECT_FALSE(plain.contains("reproduction_runs"));
}

TEST(FailuresFile, TheJsonListsTheThresholdAndTheMembersAndReadsBack) {
  testutil::TempDir dir;
  const BatchFailures found = TwoFailures();
  WriteFailuresFiles(dir.path(), found);
  const json::Json json = results::ReadJsonFile(dir.path() / "failures.json");
  EXPECT_EQ(json["regret_threshold"], 0.5);
  EXPECT_EQ(json["failing_scenarios"], 4);
  EXPECT_EQ(json["distinct_failures"], 2);
  EXPECT_EQ(json["failures"][0]["member_scenarios"], json::Json::parse("[3, 8, 12]"));
  EXPECT_FALSE(json["failures"][1].contains("max_regret"));
  EXPECT_EQ(json["contacts"], 1);
  EXPECT_EQ(json["contact_scenarios"], json::Json::parse("[7]"));
  EXPECT_EQ(results::ReadTextFile(dir.path() / "failures.csv"), FailuresCsv(found));
  const BatchFailures read = ReadFailuresJson(dir.path());
  EXPECT_EQ(read.regret_threshold, 0.5);
  EXPECT_EQ(read.failing_scenarios, 4u);
  ASSERT_EQ(read.clusters.size(), 2u);
  EXPECT_EQ(read.clusters[0].members, found.clusters[0].members);
  EXPECT_EQ(read.clusters[0].y, found.clusters[0].y);
  EXPECT_EQ(read.clusters[1].kind, failures::FailureKind::kTimeout);
  EXPECT_EQ(read.contact_scenarios, std::vector<uint32_t>{7});
  // Written again from what was read: the same bytes.
  const std::string bytes = results::ReadTextFile(dir.path() / "failures.json");
  WriteFailuresFiles(dir.path(), read);
  EXPECT_EQ(results::ReadTextFile(dir.path() / "failures.json"), bytes);
}

TEST(FailuresFile, AFileWrittenBeforeNearMissesWereListedReadsWithNone) {
  testutil::TempDir dir;
  json::Json json = FailuresJson(TwoFailures());
  json.erase("contacts");
  json.erase("contact_scenarios");
  results::WriteFileAtomically(dir.path() / "failures.json", json.dump());
  const BatchFailures read = ReadFailuresJson(dir.path());
  EXPECT_TRUE(read.contact_scenarios.empty());
  EXPECT_EQ(read.clusters.size(), 2u);
}

TEST(FailuresFile, ABrokenFileIsNamedWithThePath) {
  testutil::TempDir dir;
  json::Json json = FailuresJson(TwoFailures());
  json["failures"][1]["kind"] = "crash";
  results::WriteFileAtomically(dir.path() / "failures.json", json.dump());
  try {
    ReadFailuresJson(dir.path());
    FAIL() << "no exception";
  } catch (const results::ResultError& error) {
    const std::string what = error.what();
    EXPECT_TRUE(what.starts_with((dir.path() / "failures.json").string() + ": failures[1].kind: "))
        << what;
    EXPECT_NE(what.find("crash"), std::string::npos) << what;
  }
  EXPECT_THROW(ReadFailuresJson(dir.path() / "missing"), results::ResultError);
}

TEST(FailuresFile, TheTableHasALinePerDistinctFailure) {
  const std::string table = FormatFailuresTable(TwoFailures());
  EXPECT_TRUE(table.starts_with(
      "4 failing scenarios (regret threshold 0.5), 2 distinct failures, 1 near misses "
      "(successes that touched an obstacle)\n  failure_id  kind"))
      << table;
  EXPECT_NE(table.find("           1  collision                  8        3           3    38.60"
                       "     0.33       1.25\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("           2  timeout                    5        1           5    10.00"
                       "     0.00          -\n"),
            std::string::npos)
      << table;
  EXPECT_EQ(FormatFailuresTable(BatchFailures{}),
            "0 failing scenarios (regret threshold 0.75), 0 distinct failures, 0 near misses "
            "(successes that touched an obstacle)\n");
}

TEST(FailuresFile, TheTableOfReproducedFailuresShowsHowOftenEachReproduced) {
  const std::string table = FormatFailuresTable(TwoReproducedFailures());
  EXPECT_TRUE(
      table.starts_with("4 failing scenarios (regret threshold 0.5), 2 distinct failures, "
                        "1 reliable (reproduced in at least 3 of 5 runs), 1 near misses "
                        "(successes that touched an obstacle)\n"))
      << table;
  EXPECT_NE(table.find("max_regret  reproduced\n"), std::string::npos) << table;
  EXPECT_NE(table.find("       1.25         4/5\n"), std::string::npos) << table;
  EXPECT_NE(table.find("          -           -\n"), std::string::npos) << table;
}

}  // namespace
}  // namespace asg::client
