// Tests for client/search/run_outcome.h.
#include "client/search/run_outcome.h"

#include <gtest/gtest.h>

#include "tests/client/failures/hand_made_folders.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using protocol::TerminationReason;

// Trees (obstacles) and a bush class that is traversable, start (10, 10), goal (50, 50).
search::SearchSpace Space() {
  search::SearchSpace space;
  search::ActorClassSpace tree;
  tree.path_name = "tree";
  search::ActorClassSpace grass;
  grass.path_name = "grass";
  grass.obstacle = false;
  space.classes = {tree, grass};
  return space;
}

// A candidate of two trees, one 5 m off the start-goal line and one far from it, and grass on it.
search::Candidate Candidate() {
  search::Candidate candidate;
  candidate.id = 4;
  candidate.obstacles = {{0, 33.5, 26.5}, {0, 5.0, 55.0}, {1, 30.0, 30.0}};
  return candidate;
}

// The record of a run ending for `reason` with `regret` after driving to (30, 12), its reference
// path the straight line from the start to the goal.
results::ScenarioRecord Record(TerminationReason reason, double regret) {
  results::ScenarioRecord record = hand_made::DoneRecord(
      hand_made::Request(7, {}), reason, regret, {{10.0, 10.0}, {20.0, 11.0}, {30.0, 12.0}});
  record.result.regret.reference_path = {{10.0, 10.0, 0.0}, {50.0, 50.0, 0.0}};
  return record;
}

search::Evaluation Describe(const results::ScenarioRecord& record,
                            const failures::Failure* failure = nullptr,
                            const std::filesystem::path& folder = {}) {
  const search::SearchSpace space = Space();
  const search::Candidate candidate = Candidate();
  search::Evaluation evaluation;
  const RunToDescribe run{
      &space,  &candidate, &record.result, folder.empty() ? &record : nullptr, folder,
      failure, 0.75};
  DescribeRun(run, &evaluation);
  return evaluation;
}

TEST(DescribeRun, AFailedRunIsItsKindWhereItEndedWithTheObstaclesNearItsReferencePath) {
  const search::Evaluation stuck =
      Describe(Record(TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT, 0.4));
  EXPECT_TRUE(stuck.described);
  EXPECT_EQ(OutcomeName(stuck.outcome), "stuck");
  EXPECT_DOUBLE_EQ(stuck.x, 30.0);
  EXPECT_DOUBLE_EQ(stuck.y, 12.0);
  EXPECT_EQ(stuck.obstacles_near_path, 1u);  // the near tree; the grass does not count
}

TEST(DescribeRun, AJudgedFailureIsPlacedAtItsSignaturesPoint) {
  failures::Failure failure;
  failure.signature.kind = failures::FailureKind::kCollision;
  failure.signature.point = {28.0, 11.5};
  const search::Evaluation collision =
      Describe(Record(TerminationReason::REASON_VEHICLE_COLLISION, 1.2), &failure);
  EXPECT_EQ(OutcomeName(collision.outcome), "collision");
  EXPECT_DOUBLE_EQ(collision.x, 28.0);
  EXPECT_DOUBLE_EQ(collision.y, 11.5);
}

TEST(DescribeRun, ASuccessIsAtTheGoalAndNamedByItsRegretAndContacts) {
  const search::Evaluation clean = Describe(Record(TerminationReason::REASON_SUCCESS, 0.2));
  EXPECT_EQ(clean.outcome, 0u);
  EXPECT_EQ(OutcomeName(clean.outcome), "none");
  EXPECT_DOUBLE_EQ(clean.x, 50.0);
  EXPECT_DOUBLE_EQ(clean.y, 50.0);
  EXPECT_EQ(OutcomeName(Describe(Record(TerminationReason::REASON_SUCCESS, 0.75)).outcome),
            "high_regret");
  results::ScenarioRecord scraped = Record(TerminationReason::REASON_SUCCESS, 0.2);
  scraped.result.counters.collisions_touched = 1;
  EXPECT_EQ(OutcomeName(Describe(scraped).outcome), "contact");
}

TEST(DescribeRun, AKeptRunIsReadFromItsFolderAsItWasWritten) {
  testutil::TempDir dir;
  const results::ScenarioRecord record = Record(TerminationReason::REASON_SIM_TIMEOUT, 0.9);
  results::WriteScenarioFolder(dir.path(), record);
  const search::Evaluation kept = Describe(record, nullptr, results::ScenarioFolder(dir.path(), 7));
  EXPECT_EQ(OutcomeName(kept.outcome), "timeout");
  const search::Evaluation written = Describe(record);
  EXPECT_EQ(kept.x, written.x);
  EXPECT_EQ(kept.y, written.y);
  EXPECT_DOUBLE_EQ(kept.x, 30.0);
}

TEST(DescribeRun, LeavesARunThatWasNotDoneUndescribed) {
  results::ScenarioRecord record = Record(TerminationReason::REASON_VEHICLE_COLLISION, 1.0);
  record.result.status = results::ScenarioStatus::kInvalid;
  EXPECT_FALSE(Describe(record).described);
}

TEST(CandidateEvaluation, IsTheMeanWithTheDescriptionOfTheRunOfHighestRegret) {
  search::Evaluation first;
  first.regret = 0.3;
  first.described = true;
  first.outcome = 0;
  search::Evaluation second = first;
  second.regret = 0.9;
  second.outcome = 3;
  second.failure = true;
  second.x = 12.0;
  search::Evaluation third = second;  // equal regret: the earlier run is described
  third.x = 40.0;
  search::Evaluation undone;  // not done: regret 0, undescribed
  const search::Evaluation told = CandidateEvaluation(9, 0.525, {first, second, third, undone});
  EXPECT_EQ(told.id, 9u);
  EXPECT_DOUBLE_EQ(told.regret, 0.525);
  EXPECT_TRUE(told.failure);
  EXPECT_TRUE(told.described);
  EXPECT_EQ(told.outcome, 3u);
  EXPECT_DOUBLE_EQ(told.x, 12.0);
  EXPECT_FALSE(CandidateEvaluation(9, 0.0, {undone}).described);
}

TEST(OutcomeName, NamesNoneAndEveryFailureKind) {
  EXPECT_EQ(OutcomeName(0), "none");
  EXPECT_EQ(OutcomeName(1), "collision");
  EXPECT_EQ(OutcomeName(5), "timeout");
  EXPECT_EQ(OutcomeName(search::kOutcomeCount - 1), "contact");
}

}  // namespace
}  // namespace asg::client
