// Tests for client/failures/reproduction.h.
#include "client/failures/reproduction.h"

#include <gtest/gtest.h>

#include "protocol/messages.h"
#include "results/files.h"
#include "tests/client/failures/hand_made_folders.h"
#include "tests/source_catalog.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using hand_made::Actor;
using hand_made::Request;
using hand_made::WriteDoneAt;
using json::Json;
using protocol::TerminationReason;

// The runs below are in hand_made::RockScene.
std::vector<Actor> Scene() { return hand_made::RockScene(); }

// Scenario 2's reproduction runs 1..5 (numbers 11..15): the same crash 0.05 m aside, a success,
// a flip where it crashed, none for run 4, and run 5 invalid.
void WriteReproductionRuns(const fs::path& dir) {
  const auto folder = [&](uint32_t run) { return dir / ReproductionFolderName(2, "", run); };
  WriteDoneAt(folder(1), Request(11, Scene()), TerminationReason::REASON_VEHICLE_COLLISION, 1.1,
              {{10, 40.05}, {38.6, 40.05}});
  WriteDoneAt(folder(2), Request(12, Scene()), TerminationReason::REASON_SUCCESS, 0.1,
              {{10, 10}, {50, 50}});
  WriteDoneAt(folder(3), Request(13, Scene()), TerminationReason::REASON_VEHICLE_FLIPPED, 1.2,
              {{10, 40}, {38.6, 40}});
  results::ScenarioRecord invalid;
  invalid.request = Json::object();
  invalid.result =
      results::UnrunnableResult(15, results::ScenarioStatus::kInvalid, "cannot build", 0);
  results::PublishDirectory(results::StageScenarioFolder(folder(5).parent_path(), invalid),
                            folder(5));
}

class ReproductionTest : public ::testing::Test {
 protected:
  // Two distinct failures: scenario 2 drove into the rock, 4 flipped; 3 reached the goal.
  ReproductionTest() { hand_made::WriteCrashSuccessFlip(dir_.path()); }
  const fs::path& dir() const { return dir_.path(); }

  testutil::TempDir dir_;
  FailureReader reader_{testing::SourceCatalogPath()};
};

TEST(Reproduction, AFailureIsReliableWhenReproducedInAtLeastThreeFifthsOfItsRuns) {
  const std::vector<std::pair<uint32_t, uint32_t>> minimum = {{0, 0}, {1, 1}, {2, 2}, {3, 2},
                                                              {4, 3}, {5, 3}, {10, 6}};
  for (const auto& [reproduce, least] : minimum) {
    EXPECT_EQ(ReliableMinimum(reproduce), least) << reproduce;
  }
  failures::FailureCluster cluster;
  EXPECT_FALSE(IsReliable(cluster, 5));  // not judged
  cluster.reproduced = 3;
  cluster.runs = 5;
  EXPECT_TRUE(IsReliable(cluster, 5));
  cluster.reproduced = 2;
  EXPECT_FALSE(IsReliable(cluster, 5));
  EXPECT_FALSE(IsReliable(cluster, 0));
}

TEST(Reproduction, ARunsFolderNamesTheRepresentativesFolderAndTheRun) {
  EXPECT_EQ(ReproductionFolderName(42, "", 1), "reproduce/scenario_0042_run_1");
  EXPECT_EQ(ReproductionFolderName(3, "planner", 2), "reproduce/scenario_0003_planner_run_2");
  EXPECT_EQ(ReproductionFolderName(12345, "", 10), "reproduce/scenario_12345_run_10");
}

TEST(Reproduction, ARepeatedRunKeepsTheRequestButItsNumberAndRun) {
  const Json request = {{"scenario_number", 3},
                        {"seed", 9},
                        {"variation", {{"run", 0}, {"start_position_range", 0.2}}},
                        {"goal_radius", 4.0}};
  const Json repeated = RepeatedRunRequest(request, 12, 2);
  EXPECT_EQ(repeated["scenario_number"], 12);
  EXPECT_EQ(repeated["variation"]["run"], 2);
  EXPECT_EQ(repeated["variation"]["start_position_range"], 0.2);
  EXPECT_EQ(repeated["seed"], 9);
  EXPECT_EQ(repeated["goal_radius"], 4.0);
  EXPECT_EQ(RepeatedRunRequest({{"seed", 9}}, 5, 1)["variation"], Json({{"run", 1}}));
}

TEST(Reproduction, AReproductionRunTakesNoCapturesUnlessThatIsAllItDoes) {
  const Json request = {{"scenario_number", 3}, {"seed", 9}, {"take_scene_capture", true}};
  const Json reproduction = ReproductionRequest(request, 12, 2);
  EXPECT_EQ(reproduction["take_scene_capture"], false);
  EXPECT_EQ(reproduction["scenario_number"], 12);
  EXPECT_EQ(reproduction["variation"]["run"], 2);
  Json capture_only = request;
  capture_only["scene_capture_only"] = true;
  EXPECT_EQ(ReproductionRequest(capture_only, 12, 2)["take_scene_capture"], true);
}

TEST_F(ReproductionTest, RunsArePlannedByFailureIdThenRunAfterTheGivenNumber) {
  const BatchFailures found = FindBatchFailures(dir(), reader_, 0.75);
  ASSERT_EQ(found.clusters.size(), 2u);
  const std::vector<ReproductionRun> runs = PlanReproductionRuns(found, 2, 10);
  const std::vector<ReproductionRun> expected = {{10, 2, "", 1, "reproduce/scenario_0002_run_1"},
                                                 {11, 2, "", 2, "reproduce/scenario_0002_run_2"},
                                                 {12, 4, "", 1, "reproduce/scenario_0004_run_1"},
                                                 {13, 4, "", 2, "reproduce/scenario_0004_run_2"}};
  EXPECT_EQ(runs, expected);
  EXPECT_TRUE(PlanReproductionRuns(found, 0, 10).empty());
  try {
    PlanReproductionRuns(found, 2, protocol::kMaxScenarioNumber - 2);
    FAIL() << "no exception";
  } catch (const FailuresError& error) {
    EXPECT_STREQ(error.what(),
                 "the 4 reproduction runs would be numbered 2147483645 to 2147483648, past the "
                 "largest number 2147483647");
  }
}

TEST_F(ReproductionTest, OnlyADoneRunThatFailsTheSameWayReproducesTheFailure) {
  WriteReproductionRuns(dir());
  BatchFailures found = FindBatchFailures(dir(), reader_, 0.75);
  CheckReproductions(dir(), reader_, 5, &found);
  EXPECT_EQ(found.reproduce, 5u);
  const failures::FailureCluster& crash = found.clusters[0];
  ASSERT_EQ(crash.representative, 2u);
  // Run 1 is the same crash; the success and the flip are not; run 4 never ran and run 5 was
  // invalid, so neither counts as a run.
  EXPECT_EQ(crash.reproduced, 1u);
  EXPECT_EQ(crash.runs, 3u);
  EXPECT_EQ(
      crash.reproduction_folders,
      (std::vector<std::string>{"reproduce/scenario_0002_run_1", "reproduce/scenario_0002_run_2",
                                "reproduce/scenario_0002_run_3"}));
  // The flip has no runs: it stays unjudged.
  EXPECT_FALSE(found.clusters[1].runs.has_value());
  EXPECT_FALSE(found.clusters[1].reproduced.has_value());
  EXPECT_EQ(ReproductionRuns(found), 3u);
  EXPECT_EQ(ReliableFailures(found), 0u);
  // The reproduction folders are no scenarios of the batch.
  EXPECT_EQ(found.failing_scenarios, 2u);
  EXPECT_EQ(found.done.size(), 3u);
}

TEST_F(ReproductionTest, NoRunsAreJudgedWhenNoneAreAskedFor) {
  WriteReproductionRuns(dir());
  BatchFailures found = FindBatchFailures(dir(), reader_, 0.75);
  CheckReproductions(dir(), reader_, 0, &found);
  EXPECT_EQ(found.reproduce, 0u);
  EXPECT_FALSE(found.clusters[0].runs.has_value());
}

TEST_F(ReproductionTest, AnUnreadableRunIsNamed) {
  const fs::path folder = dir() / ReproductionFolderName(2, "", 1);
  fs::create_directories(folder);
  results::WriteFileAtomically(folder / "result.json", "{");
  BatchFailures found = FindBatchFailures(dir(), reader_, 0.75);
  try {
    CheckReproductions(dir(), reader_, 5, &found);
    FAIL() << "no exception";
  } catch (const results::ResultError& error) {
    EXPECT_NE(std::string(error.what()).find((folder / "result.json").string()), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace asg::client
