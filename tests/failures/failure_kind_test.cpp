// Tests for failures/failure_kind.h.
#include "failures/failure_kind.h"

#include <gtest/gtest.h>

namespace asg::failures {
namespace {

using protocol::TerminationReason;

TEST(FailureKindTest, EveryReasonButSuccessIsAFailureOfItsKind) {
  const std::pair<TerminationReason, FailureKind> cases[] = {
      {TerminationReason::REASON_VEHICLE_COLLISION, FailureKind::kCollision},
      {TerminationReason::REASON_VEHICLE_FLIPPED, FailureKind::kFlip},
      {TerminationReason::REASON_SIM_TIMEOUT, FailureKind::kTimeout},
      {TerminationReason::REASON_VEHICLE_IDLING_TIMEOUT, FailureKind::kTimeout},
      {TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT, FailureKind::kStuck},
      {TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS, FailureKind::kOutOfBounds},
  };
  for (const auto& [reason, kind] : cases) {
    SCOPED_TRACE(protocol::TerminationReasonName(reason));
    // Whatever the regret, absent or low, and whether it touched anything.
    EXPECT_EQ(ClassifyRun(reason, std::nullopt), kind);
    EXPECT_EQ(ClassifyRun(reason, 0.0), kind);
    EXPECT_EQ(ClassifyRun(reason, 0.1, kDefaultRegretThreshold, true), kind);
    EXPECT_TRUE(IsFailure(kind));
  }
}

TEST(FailureKindTest, ASuccessFailsAtTheThresholdAndAbove) {
  const TerminationReason success = TerminationReason::REASON_SUCCESS;
  EXPECT_EQ(kDefaultRegretThreshold, 0.75);
  EXPECT_EQ(ClassifyRun(success, 0.75), FailureKind::kHighRegret);
  EXPECT_EQ(ClassifyRun(success, 3.2), FailureKind::kHighRegret);
  EXPECT_EQ(ClassifyRun(success, 0.7499999), std::nullopt);
  EXPECT_EQ(ClassifyRun(success, 0.0), std::nullopt);
  EXPECT_EQ(ClassifyRun(success, std::nullopt), std::nullopt);
  // A threshold of the batch's own.
  EXPECT_EQ(ClassifyRun(success, 0.375, 0.375), FailureKind::kHighRegret);
  EXPECT_EQ(ClassifyRun(success, 0.374, 0.375), std::nullopt);
}

TEST(FailureKindTest, ASuccessThatTouchedAnObstacleIsAContactThatIsNoFailure) {
  const TerminationReason success = TerminationReason::REASON_SUCCESS;
  EXPECT_EQ(ClassifyRun(success, 0.2, kDefaultRegretThreshold, true), FailureKind::kContact);
  EXPECT_EQ(ClassifyRun(success, std::nullopt, kDefaultRegretThreshold, true),
            FailureKind::kContact);
  EXPECT_FALSE(IsFailure(FailureKind::kContact));
  // At or above the threshold the high regret is the failure, touched or not.
  EXPECT_EQ(ClassifyRun(success, 0.75, kDefaultRegretThreshold, true), FailureKind::kHighRegret);
  EXPECT_TRUE(IsFailure(FailureKind::kHighRegret));
}

TEST(FailureKindTest, NamesReadBack) {
  const char* const names[] = {"collision", "flip",        "stuck",  "out_of_bounds",
                               "timeout",   "high_regret", "contact"};
  size_t i = 0;
  for (const FailureKind kind : kAllFailureKinds) {
    EXPECT_EQ(FailureKindName(kind), names[i++]);
    FailureKind read = FailureKind::kContact;
    ASSERT_TRUE(FailureKindFromName(FailureKindName(kind), &read));
    EXPECT_EQ(read, kind);
  }
  EXPECT_EQ(i, 7u);
  FailureKind unchanged = FailureKind::kFlip;
  EXPECT_FALSE(FailureKindFromName("crash", &unchanged));
  EXPECT_EQ(unchanged, FailureKind::kFlip);
}

}  // namespace
}  // namespace asg::failures
