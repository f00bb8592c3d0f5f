// Tests for client/failures/batch_failures.h.
#include "client/failures/batch_failures.h"

#include <gtest/gtest.h>

#include "client/failures/failures_file.h"
#include "results/files.h"
#include "tests/client/failures/hand_made_folders.h"
#include "tests/source_catalog.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using hand_made::Request;
using hand_made::WriteDone;
using protocol::TerminationReason;

// Six scenarios in hand_made::RockScene: two copies of one crash into the rock from the west (2
// and 5), a success (3), a flip on open ground (4), an invalid one (1) and a third copy of the
// crash (6).
void WriteBatch(const fs::path& dir) {
  hand_made::WriteInvalid(dir, 1);
  hand_made::WriteCrashSuccessFlip(dir);
  WriteDone(dir, Request(5, hand_made::RockScene()), TerminationReason::REASON_VEHICLE_COLLISION,
            1.5, {{10, 40.1}, {38.6, 40.1}});
  WriteDone(dir, Request(6, hand_made::RockScene()), TerminationReason::REASON_VEHICLE_COLLISION,
            1.5, {{10, 39.9}, {38.55, 39.9}});
}

// Every file under `dir` by relative path, with its bytes.
std::map<std::string, std::string> Files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      files[entry.path().lexically_relative(dir).string()] = results::ReadTextFile(entry.path());
    }
  }
  return files;
}

results::ScenarioResult ResultOf(const fs::path& dir, uint32_t number) {
  const fs::path file = results::ScenarioFolder(dir, number) / "result.json";
  return results::ResultFromJson(results::ReadJsonFile(file), file.string());
}

// A batch folder of WriteBatch's scenarios, and a reader with the source tree's catalog.
class BatchFailuresTest : public ::testing::Test {
 protected:
  BatchFailuresTest() { WriteBatch(dir_.path()); }
  const fs::path& dir() const { return dir_.path(); }

  testutil::TempDir dir_;
  FailureReader reader_{testing::SourceCatalogPath()};
};

TEST_F(BatchFailuresTest, CopiesOfOneCrashAreOneFailureAndADifferentOneIsAnother) {
  const BatchFailures found = FindBatchFailures(dir(), reader_, 0.75);
  ASSERT_EQ(found.clusters.size(), 2u);
  const failures::FailureCluster& crash = found.clusters[0];
  EXPECT_EQ(crash.id, 1);  // first appearance: scenario 2
  EXPECT_EQ(crash.kind, failures::FailureKind::kCollision);
  EXPECT_EQ(crash.members, (std::vector<uint32_t>{2, 5, 6}));
  EXPECT_EQ(crash.first_found, 2u);
  EXPECT_EQ(crash.representative, 5u);  // the highest regret; 6 ties it and comes later
  EXPECT_EQ(crash.max_regret, 1.5);
  EXPECT_DOUBLE_EQ(crash.x, 38.6);
  EXPECT_DOUBLE_EQ(crash.y, 40.0);
  const failures::FailureCluster& flip = found.clusters[1];
  EXPECT_EQ(flip.id, 2);
  EXPECT_EQ(flip.kind, failures::FailureKind::kFlip);
  EXPECT_EQ(flip.members, (std::vector<uint32_t>{4}));
  // The members add up to the failing scenarios; the success and the invalid one are none.
  EXPECT_EQ(found.failing_scenarios, 4u);
  EXPECT_EQ(found.done.size(), 5u);
  const std::map<uint32_t, uint32_t> ids = {{2, 1}, {4, 2}, {5, 1}, {6, 1}};
  EXPECT_EQ(FailureIds(found), ids);
}

TEST_F(BatchFailuresTest, ASuccessThatTouchedIsANearMissCountedApartFromTheFailures) {
  // Scenario 7 reached the goal below the threshold after scraping the bush at (30, 10).
  results::ScenarioRecord scraped =
      hand_made::DoneRecord(Request(7, hand_made::RockScene()), TerminationReason::REASON_SUCCESS,
                            0.3, {{10, 10}, {50, 10}});
  scraped.result.counters.collisions_touched = 1;
  scraped.result.counters.first_contact = protocol::FirstContact{4.0, 29.5, 10.0, 2};
  results::WriteScenarioFolder(dir(), scraped);
  const BatchFailures found = UpdateBatchFailures(dir(), reader_, 0.75, 0);
  EXPECT_EQ(found.contact_scenarios, std::vector<uint32_t>{7});
  EXPECT_EQ(found.failing_scenarios, 4u);  // the near miss is no failure
  EXPECT_EQ(found.clusters.size(), 2u);
  EXPECT_EQ(ResultOf(dir(), 7).failure_id, 0u);
  // At a threshold below its regret it is a high-regret failure, and no near miss.
  const BatchFailures strict = FindBatchFailures(dir(), reader_, 0.25);
  EXPECT_TRUE(strict.contact_scenarios.empty());
  EXPECT_EQ(strict.clusters.back().kind, failures::FailureKind::kHighRegret);
  EXPECT_EQ(strict.clusters.back().members, std::vector<uint32_t>{7});
}

TEST_F(BatchFailuresTest, ARegretAtTheThresholdMakesASuccessAFailure) {
  // At 0.1 the success of scenario 3 (regret 0.1) is a failure of kind high_regret.
  const BatchFailures found = FindBatchFailures(dir(), reader_, 0.1);
  ASSERT_EQ(found.clusters.size(), 3u);
  EXPECT_EQ(found.clusters[1].kind, failures::FailureKind::kHighRegret);
  EXPECT_EQ(found.clusters[1].members, (std::vector<uint32_t>{3}));
  EXPECT_EQ(found.clusters[2].id, 3);
  EXPECT_EQ(found.clusters[2].members, (std::vector<uint32_t>{4}));
}

TEST_F(BatchFailuresTest, ThePassWritesTheFilesAndTheFailureIdsAndGivesTheSameBytesAgain) {
  const std::string success_before =
      results::ReadTextFile(results::ScenarioFolder(dir(), 3) / "result.json");
  const BatchFailures found = UpdateBatchFailures(dir(), reader_, 0.75, 0);
  EXPECT_EQ(results::ReadTextFile(dir() / "failures.csv"), FailuresCsv(found));
  EXPECT_EQ(ResultOf(dir(), 2).failure_id, 1u);
  EXPECT_EQ(ResultOf(dir(), 4).failure_id, 2u);
  EXPECT_EQ(ResultOf(dir(), 6).failure_id, 1u);
  // A scenario that is no failure gets none: its result.json is not touched.
  EXPECT_EQ(ResultOf(dir(), 3).failure_id, 0u);
  EXPECT_EQ(results::ReadTextFile(results::ScenarioFolder(dir(), 3) / "result.json"),
            success_before);

  const std::map<std::string, std::string> first = Files(dir());
  FailureReader again(testing::SourceCatalogPath());  // a fresh one: nothing kept
  const BatchFailures rerun = UpdateBatchFailures(dir(), again, 0.75, 0);
  EXPECT_EQ(rerun.done[0].stored_failure_id, 1u);  // scenario 2, as the first pass wrote it
  EXPECT_EQ(WriteFailureIds(dir(), rerun), 0u);
  EXPECT_EQ(Files(dir()), first);
}

TEST_F(BatchFailuresTest, AFailureIdThatNoLongerHoldsIsRemoved) {
  UpdateBatchFailures(dir(), reader_, 0.1, 0);
  EXPECT_EQ(ResultOf(dir(), 3).failure_id, 2u);  // the high-regret success
  const BatchFailures found = FindBatchFailures(dir(), reader_, 0.75);
  EXPECT_EQ(WriteFailureIds(dir(), found), 2u);  // 3 loses its id, 4 becomes failure 2
  EXPECT_EQ(ResultOf(dir(), 3).failure_id, 0u);
  EXPECT_EQ(ResultOf(dir(), 4).failure_id, 2u);
  const std::string text = results::ReadTextFile(results::ScenarioFolder(dir(), 3) / "result.json");
  EXPECT_EQ(text.find("failure_id"), std::string::npos);
}

TEST_F(BatchFailuresTest, AFolderThatCannotBeReadIsNamed) {
  const fs::path broken = results::ScenarioFolder(dir(), 5) / "trajectory.csv";
  results::WriteFileAtomically(broken, "t,x\n0,1\n");
  try {
    FindBatchFailures(dir(), reader_, 0.75);
    FAIL() << "no exception";
  } catch (const results::ResultError& error) {
    EXPECT_EQ(std::string(error.what()), broken.string() + ": no column \"y\" in the header");
  }
}

}  // namespace
}  // namespace asg::client
