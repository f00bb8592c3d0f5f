// Tests for client/failures/distinct_counts.h.
#include "client/failures/distinct_counts.h"

#include <gtest/gtest.h>

#include "tests/failures/hand_built_runs.h"

namespace asg::client {
namespace {

using failures::hand_built::EastboundFailure;

TEST(DistinctFailureCounts, EachThresholdCountsTheRunsThatFailThere) {
  using failures::FailureKind;
  DistinctFailureCounts counts({0.375, 0.75, 1.0});
  EXPECT_EQ(counts.lowest(), 0.375);
  EXPECT_EQ(counts.Counts(), (std::vector<size_t>{0, 0, 0}));
  // A crash counts at every threshold whatever its regret; so does its copy, once.
  counts.Add(EastboundFailure(1, FailureKind::kCollision, 0.1, 20));
  counts.Add(EastboundFailure(2, FailureKind::kCollision, 0.2, 20.05));
  EXPECT_EQ(counts.Counts(), (std::vector<size_t>{1, 1, 1}));
  // Successes with regret 0.8 and 0.5, in different places: failures where the regret reaches.
  counts.Add(EastboundFailure(3, FailureKind::kHighRegret, 0.8, 50));
  counts.Add(EastboundFailure(4, FailureKind::kHighRegret, 0.5, 30));
  EXPECT_EQ(counts.Counts(), (std::vector<size_t>{3, 2, 1}));
  // A copy of scenario 4 with a higher regret is a new failure only where 4 was none.
  counts.Add(EastboundFailure(5, FailureKind::kHighRegret, 0.9, 30));
  EXPECT_EQ(counts.Counts(), (std::vector<size_t>{3, 3, 1}));
}

}  // namespace
}  // namespace asg::client
