// Tests for failures/distance.h.
#include "failures/distance.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/failures/hand_built_runs.h"

namespace asg::failures {
namespace {

using hand_built::MakeRun;
using hand_built::Obstacle;
using hand_built::SignatureOf;
using protocol::TerminationReason;

constexpr auto kCollision = TerminationReason::REASON_VEHICLE_COLLISION;
constexpr auto kStuck = TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT;

/// A collision with the rock at (40, 40), driven east from (10, 40) to (38.6, 40), with a tree
/// 3.4 m from where it stopped.
RunFacts RockFromTheWest() {
  return MakeRun(1, kCollision, {{10, 40}, {38.6, 40}},
                 {Obstacle("rock", 40, 40), Obstacle("tree", 37, 43)});
}

TEST(DistanceTest, AnObstacle30MetresAwayDoesNotMakeADifferentFailure) {
  const RunFacts a = RockFromTheWest();
  RunFacts b = a;
  b.obstacles.push_back(Obstacle("tree", 38.6, 70));  // 30 m north of the failure point
  const DistanceTerms terms = FailureDistance(SignatureOf(FailureKind::kCollision, a),
                                              SignatureOf(FailureKind::kCollision, b));
  EXPECT_EQ(terms.distance, 0.0);
  EXPECT_TRUE(terms.Same());
}

TEST(DistanceTest, TheSameRockHitFromAnotherSideAmongOtherObstaclesIsADifferentFailure) {
  const Signature west = SignatureOf(FailureKind::kCollision, RockFromTheWest());
  // North from (40, 10) into the same rock, a bush 3.4 m from where it stopped, no tree.
  const Signature south = SignatureOf(
      FailureKind::kCollision, MakeRun(2, kCollision, {{40, 10}, {40, 38.6}},
                                       {Obstacle("rock", 40, 40), Obstacle("bush", 43, 37)}));
  const DistanceTerms terms = FailureDistance(west, south);
  EXPECT_NEAR(terms.heading, 90.0 / 60.0, 1e-9);
  // The rock pairs up; the tree and the bush (weight 1 - 3.4 / 5 each) do not.
  EXPECT_NEAR(terms.cause, 2.0 * (1.0 - std::hypot(3.0, 1.6) / 5.0) / 0.5, 1e-9);
  EXPECT_GT(terms.cause, 1.0);
  EXPECT_NEAR(terms.location, std::hypot(1.4, 1.4) / 3.0, 1e-9);
  EXPECT_FALSE(terms.Same());
  EXPECT_FALSE(SameFailure(west, south));
}

TEST(DistanceTest, ACollisionAndAFlipAtTheSamePlaceAreDifferent) {
  const RunFacts run = RockFromTheWest();
  const DistanceTerms terms = FailureDistance(SignatureOf(FailureKind::kCollision, run),
                                              SignatureOf(FailureKind::kFlip, run));
  EXPECT_TRUE(std::isinf(terms.kind));
  EXPECT_EQ(terms.location, 0.0);
  EXPECT_EQ(terms.cause, 0.0);
  EXPECT_FALSE(terms.Same());
}

TEST(DistanceTest, AFailureMovedByFiveCentimetresIsTheSame) {
  const Signature a = SignatureOf(FailureKind::kCollision, RockFromTheWest());
  // The whole drive 0.05 m to the north, and (separately) 0.05 m further east.
  const Signature north = SignatureOf(
      FailureKind::kCollision, MakeRun(2, kCollision, {{10, 40.05}, {38.6, 40.05}},
                                       {Obstacle("rock", 40, 40), Obstacle("tree", 37, 43)}));
  const Signature further = SignatureOf(
      FailureKind::kCollision, MakeRun(3, kCollision, {{10, 40}, {38.65, 40}},
                                       {Obstacle("rock", 40, 40), Obstacle("tree", 37, 43)}));
  for (const Signature& b : {north, further}) {
    const DistanceTerms terms = FailureDistance(a, b);
    EXPECT_NEAR(terms.location, 0.05 / 3.0, 1e-9);
    EXPECT_EQ(terms.cause, 0.0);  // the same two obstacles, paired
    EXPECT_LT(terms.distance, 0.05);
    EXPECT_TRUE(terms.Same());
  }
}

TEST(DistanceTest, AnObstacleAtTheEdgeOfTheRadiusDoesNotSplit) {
  const RunFacts a = RockFromTheWest();
  RunFacts edge = a;
  edge.obstacles.push_back(Obstacle("tree", 38.6, 44.95));  // 4.95 m from the point
  DistanceTerms terms = FailureDistance(SignatureOf(FailureKind::kCollision, a),
                                        SignatureOf(FailureKind::kCollision, edge));
  EXPECT_NEAR(terms.cause, (1.0 - 4.95 / 5.0) / 0.5, 1e-9);
  EXPECT_TRUE(terms.Same());
  // The same tree just inside the radius in one run and just outside it in the other.
  RunFacts outside = a;
  outside.obstacles.push_back(Obstacle("tree", 38.6, 45.1));
  terms = FailureDistance(SignatureOf(FailureKind::kCollision, edge),
                          SignatureOf(FailureKind::kCollision, outside));
  EXPECT_LT(terms.cause, 0.05);
  EXPECT_TRUE(terms.Same());
}

TEST(DistanceTest, AnObstacleCloseToThePointInOneRunOnlySplits) {
  RunFacts crowded = RockFromTheWest();
  crowded.obstacles.push_back(Obstacle("bush", 38.6, 38.6));  // 1.4 m south of the point
  const DistanceTerms terms =
      FailureDistance(SignatureOf(FailureKind::kCollision, RockFromTheWest()),
                      SignatureOf(FailureKind::kCollision, crowded));
  EXPECT_NEAR(terms.cause, (1.0 - 1.4 / 5.0) / 0.5, 1e-9);
  EXPECT_FALSE(terms.Same());
}

TEST(DistanceTest, CausesPairByClassClosestFirst) {
  const auto cause = [](const char* class_name, double x, double weight) {
    return Cause{class_name, {x, 0.0}, 0.0, weight, 0};
  };
  // b's rock at 0.5 is 0.3 from a's rock at 0.8 and 0.5 from a's rock at 0: it pairs with the
  // nearer; the rock at 0 and the tree (no tree in b) stay unmatched.
  const std::vector<Cause> a = {cause("rock", 0.0, 0.9), cause("rock", 0.8, 0.5),
                                cause("tree", 0.5, 0.25)};
  const std::vector<Cause> b = {cause("rock", 0.5, 0.7)};
  EXPECT_NEAR(UnmatchedCauseWeight(a, b, 1.0), 0.9 + 0.25, 1e-12);
  EXPECT_NEAR(UnmatchedCauseWeight(b, a, 1.0), 0.9 + 0.25, 1e-12);
  // Beyond the match radius nothing pairs.
  EXPECT_NEAR(UnmatchedCauseWeight(a, b, 0.2), 0.9 + 0.5 + 0.25 + 0.7, 1e-12);
}

TEST(DistanceTest, HeadingsCompareAcrossTheHalfTurn) {
  Signature a, b;
  a.heading = 170.0;
  b.heading = -170.0;
  EXPECT_NEAR(FailureDistance(a, b).heading, 20.0 / 60.0, 1e-12);
  b.heading = 110.0;
  EXPECT_NEAR(FailureDistance(a, b).heading, 1.0, 1e-12);
  EXPECT_TRUE(SameFailure(a, b));  // exactly at the scale: still the same
  b.heading = 109.0;
  EXPECT_FALSE(SameFailure(a, b));
}

TEST(DistanceTest, DifferentHitClassesAreDifferentAndAnUnknownHitIsNoEvidence) {
  Signature a, b;
  a.hit = Cause{"rock", {0, 0}, 0.0, 1.0, 0};
  EXPECT_EQ(FailureDistance(a, b).hit, 0.0);
  b.hit = Cause{"rock", {0.3, 0}, 0.0, 1.0, 2};
  EXPECT_EQ(FailureDistance(a, b).hit, 0.0);
  b.hit->class_name = "tree";
  EXPECT_TRUE(std::isinf(FailureDistance(a, b).hit));
  EXPECT_FALSE(SameFailure(a, b));
}

TEST(DistanceTest, TheSlopeAtThePointCounts) {
  Signature a, b;
  b.slope = 5.0;
  EXPECT_NEAR(FailureDistance(a, b).slope, 5.0 / 6.0, 1e-12);
  b.slope = 9.0;
  EXPECT_FALSE(SameFailure(a, b));
}

TEST(DistanceTest, TheApproachShapeTellsRoutesFromOppositeSidesApart) {
  // Both end at (20, 20) heading north for the last 4 m; one came from the west, one from the
  // east.
  const Signature west =
      SignatureOf(FailureKind::kStuck, MakeRun(1, kStuck, {{0, 16}, {20, 16}, {20, 20}}));
  const Signature east =
      SignatureOf(FailureKind::kStuck, MakeRun(2, kStuck, {{40, 16}, {20, 16}, {20, 20}}));
  DistanceTerms terms = FailureDistance(west, east);
  EXPECT_EQ(terms.location, 0.0);
  EXPECT_NEAR(terms.heading, 0.0, 1e-9);
  EXPECT_GT(terms.shape, 1.0);
  EXPECT_FALSE(terms.Same());
  // A route 1 m to the south of the western one is the same.
  const Signature close =
      SignatureOf(FailureKind::kStuck, MakeRun(3, kStuck, {{0, 15}, {20, 15}, {20, 20}}));
  terms = FailureDistance(west, close);
  EXPECT_LT(terms.shape, 0.2);
  EXPECT_TRUE(terms.Same());
}

TEST(DistanceTest, ASignatureIsAtZeroFromItselfAndTheDistanceIsSymmetric) {
  const Signature a = SignatureOf(FailureKind::kCollision, RockFromTheWest());
  const Signature b = SignatureOf(FailureKind::kCollision,
                                  MakeRun(2, kCollision, {{40, 10}, {40, 38.6}},
                                          {Obstacle("rock", 40, 40), Obstacle("bush", 43, 37)}));
  EXPECT_EQ(FailureDistance(a, a).distance, 0.0);
  EXPECT_EQ(FailureDistance(a, b).distance, FailureDistance(b, a).distance);
}

}  // namespace
}  // namespace asg::failures
