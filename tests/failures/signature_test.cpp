// Tests for failures/signature.h.
#include "failures/signature.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "failures/distance.h"
#include "tests/failures/hand_built_runs.h"

namespace asg::failures {
namespace {

using hand_built::CrawlTo;
using hand_built::DriveTo;
using hand_built::MakeRun;
using hand_built::Obstacle;
using hand_built::SignatureOf;
using protocol::TerminationReason;

TEST(SignatureTest, ACollisionWithoutContactIsAtTheEndAmongTheObstaclesNearIt) {
  // East into a rock at (21, 10); a tree 3 m north of the end, grass on it, a rock 30 m away.
  const RunFacts run = MakeRun(7, TerminationReason::REASON_VEHICLE_COLLISION, {{0, 10}, {20, 10}},
                               {Obstacle("tree", 20, 13),
                                Obstacle("rock", 21, 10),
                                {"grass", 20, 10, true},
                                Obstacle("rock", 50, 10)});
  const Signature signature = SignatureOf(FailureKind::kCollision, run);
  EXPECT_EQ(signature.kind, FailureKind::kCollision);
  EXPECT_FALSE(signature.at_contact);
  EXPECT_EQ(signature.point, Eigen::Vector2d(20, 10));
  EXPECT_NEAR(signature.heading, 0.0, 1e-9);
  ASSERT_EQ(signature.causes.size(), 2u);  // not the grass, not the far rock
  EXPECT_EQ(signature.causes[0].class_name, "rock");
  EXPECT_NEAR(signature.causes[0].weight, 1.0 - 1.0 / 5.0, 1e-12);
  EXPECT_EQ(signature.causes[0].actor_index, 1u);
  EXPECT_EQ(signature.causes[1].class_name, "tree");
  EXPECT_NEAR(signature.causes[1].weight, 1.0 - 3.0 / 5.0, 1e-12);
  EXPECT_FALSE(signature.hit.has_value());
  ASSERT_EQ(signature.approach.size(), 5u);
  EXPECT_NEAR(signature.approach[4].x(), -15.0, 1e-9);
}

TEST(SignatureTest, AKnownContactIsTheFailurePointAndNamesTheHitActor) {
  // North along x = 5 to y = 20, touching the bush at (5, 11) at t = 2 s (y = 10): the rest of
  // the drive (it went on past the bush) is not the approach.
  RunFacts run = MakeRun(3, TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT, {{5, 0}, {5, 20}},
                         {Obstacle("bush", 5, 11)});
  run.first_contact = Contact{2.01, 5.0, 10.0, 0};
  const Signature signature = SignatureOf(FailureKind::kStuck, run);
  EXPECT_TRUE(signature.at_contact);
  EXPECT_EQ(signature.point, Eigen::Vector2d(5, 10));
  EXPECT_NEAR(signature.heading, 90.0, 1e-9);
  ASSERT_TRUE(signature.hit.has_value());
  EXPECT_EQ(signature.hit->class_name, "bush");
  EXPECT_NEAR(signature.approach[0].y(), -3.0, 1e-9);
  EXPECT_EQ(signature.approach[4], Eigen::Vector2d(0, -10));  // the start, 10 m back
}

TEST(SignatureTest, ASteadyTimeoutOrADepartureHappensWhereTheRunEndedWhateverItTouched) {
  RunFacts run = MakeRun(3, TerminationReason::REASON_SIM_TIMEOUT, {{5, 0}, {5, 20}},
                         {Obstacle("bush", 5, 11)});
  run.first_contact = Contact{2.01, 5.0, 10.0, 0};
  for (const FailureKind kind : {FailureKind::kTimeout, FailureKind::kOutOfBounds}) {
    const Signature signature = SignatureOf(kind, run);
    EXPECT_FALSE(signature.at_contact);
    EXPECT_EQ(signature.point, Eigen::Vector2d(5, 20));
    EXPECT_FALSE(signature.hit.has_value());
  }
}

/// A timeout that drove east from (0, 40) to (`x`, 40), crawled 0.5 m on over 10 s against a
/// rock 1.8 m ahead, then got free and drove to `end`, where the sim timeout stopped it.
RunFacts CrawledAt(double x, const Eigen::Vector2d& end) {
  RunFacts run = MakeRun(5, TerminationReason::REASON_SIM_TIMEOUT, {{0, 40}, {x, 40}},
                         {Obstacle("rock", x + 1.8, 40.5)});
  CrawlTo(run.trajectory, {x + 0.5, 40}, 10.0);
  DriveTo(run.trajectory, end);
  return run;
}

TEST(SignatureTest, TwoTimeoutsThatCrawledAtOneSpotAndWereStopped10MetresApartAreOneFailure) {
  const Signature near = SignatureOf(FailureKind::kTimeout, CrawledAt(30, {35, 40}));
  const Signature far = SignatureOf(FailureKind::kTimeout, CrawledAt(30, {45, 40}));
  // The failure point is where the 10 s went, the middle of the crawl, not where each ended.
  EXPECT_NEAR(near.point.x(), 30.25, 0.15);
  EXPECT_NEAR(near.point.y(), 40.0, 1e-9);
  EXPECT_NEAR((near.point - far.point).norm(), 0.0, 1e-9);
  EXPECT_FALSE(near.at_contact);
  EXPECT_FALSE(near.hit.has_value());
  ASSERT_EQ(near.causes.size(), 1u);  // the rock it crawled against
  EXPECT_NEAR(near.heading, 0.0, 1e-9);
  EXPECT_TRUE(SameFailure(near, far));
  // One that turned north after getting free came the same way: the path after it is not read.
  const Signature turned = SignatureOf(FailureKind::kTimeout, CrawledAt(30, {30.5, 50}));
  EXPECT_NEAR(turned.heading, 0.0, 1.0);  // its center drawn 2 cm north by the turn
  EXPECT_TRUE(SameFailure(near, turned));
  // At their end points (a dwell longer than any) they would be 10 m apart.
  SignatureSettings no_dwell;
  no_dwell.min_dwell = 60.0;
  EXPECT_FALSE(SameFailure(
      ComputeSignature(FailureKind::kTimeout, CrawledAt(30, {35, 40}), hand_built::Flat, no_dwell),
      ComputeSignature(FailureKind::kTimeout, CrawledAt(30, {45, 40}), hand_built::Flat,
                       no_dwell)));
}

TEST(SignatureTest, ATimeoutThatDweltElsewhereIsADifferentFailureWhereverItEnded) {
  const Signature at_30 = SignatureOf(FailureKind::kTimeout, CrawledAt(30, {45, 40}));
  const Signature at_20 = SignatureOf(FailureKind::kTimeout, CrawledAt(20, {45, 40}));
  EXPECT_NEAR(at_20.point.x(), 20.25, 0.15);
  EXPECT_FALSE(SameFailure(at_30, at_20));
}

TEST(SignatureTest, ATimeoutFailsWhereItFirstDweltNotWhereTheTimerCutALongerDwell) {
  // Both crawl at x = 30, get free and stall again at x = 33 until the timer stops them: one
  // after 14 s at the first place and 4 s at the second, the other after 6 s and 12 s.
  RunFacts long_first = CrawledAt(30, {33, 40});
  CrawlTo(long_first.trajectory, {33, 40}, 4.0);
  RunFacts short_first =
      MakeRun(5, TerminationReason::REASON_SIM_TIMEOUT, {{0, 40}, {30, 40}}, long_first.obstacles);
  CrawlTo(short_first.trajectory, {30.5, 40}, 6.0);
  DriveTo(short_first.trajectory, {33, 40});
  CrawlTo(short_first.trajectory, {33, 40}, 12.0);
  const Signature a = SignatureOf(FailureKind::kTimeout, long_first);
  const Signature b = SignatureOf(FailureKind::kTimeout, short_first);
  EXPECT_NEAR(a.point.x(), 30.25, 0.15);
  EXPECT_NEAR(b.point.x(), 30.25, 0.15);
  EXPECT_TRUE(SameFailure(a, b));
}

TEST(SignatureTest, AnIdleRunFailsAtTheStartFacingItsYaw) {
  RunFacts idle = MakeRun(2, TerminationReason::REASON_VEHICLE_IDLING_TIMEOUT, {{10, 10}});
  idle.trajectory = {{0.0, 10, 10, 45}};
  CrawlTo(idle.trajectory, {10.02, 10.01}, 5.0);  // settling on its wheels
  const Signature signature = SignatureOf(FailureKind::kTimeout, idle);
  EXPECT_NEAR(signature.point.x(), 10.01, 0.01);
  EXPECT_NEAR(signature.point.y(), 10.005, 0.01);
  EXPECT_NEAR(signature.heading, 45.0, 1e-9);
  for (const Eigen::Vector2d& point : signature.approach) EXPECT_LT(point.norm(), 0.05);
}

TEST(SignatureTest, ASteadySlowTimeoutKeepsItsEndPoint) {
  // 30 s at 2 m/s: 1.5 s within 1.5 m of any point, never the 3 s of a dwell.
  RunFacts slow = MakeRun(6, TerminationReason::REASON_SIM_TIMEOUT, {{0, 0}, {0.25, 0}});
  CrawlTo(slow.trajectory, {60, 0}, 30.0);
  const Signature signature = SignatureOf(FailureKind::kTimeout, slow);
  EXPECT_NEAR(signature.point.x(), 60.0, 1e-9);
  EXPECT_NEAR(signature.heading, 0.0, 1e-9);
  EXPECT_NEAR(signature.approach[4].x(), -15.0, 1e-9);
}

TEST(SignatureTest, ADepartureFromTheLandscapeHappensWhereItEndedEvenAfterADwell) {
  const Signature signature = SignatureOf(FailureKind::kOutOfBounds, CrawledAt(30, {45, 40}));
  EXPECT_EQ(signature.point, Eigen::Vector2d(45, 40));
}

TEST(SignatureTest, TheSlopeIsReadAtTheFailurePoint) {
  const RunFacts run = MakeRun(1, TerminationReason::REASON_VEHICLE_FLIPPED, {{0, 0}, {12, 4}});
  double read_x = 0.0, read_y = 0.0;
  const Signature signature = ComputeSignature(FailureKind::kFlip, run, [&](double x, double y) {
    read_x = x;
    read_y = y;
    return 17.5;
  });
  EXPECT_EQ(signature.slope, 17.5);
  EXPECT_EQ(read_x, 12.0);
  EXPECT_EQ(read_y, 4.0);
}

TEST(SignatureTest, ARunWithoutSamplesOrWithABadContactIsRefusedByName) {
  RunFacts empty;
  empty.scenario_number = 12;
  try {
    SignatureOf(FailureKind::kTimeout, empty);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "scenario 12 has no trajectory sample, so no failure point");
  }
  RunFacts run = MakeRun(4, TerminationReason::REASON_VEHICLE_COLLISION, {{0, 0}, {3, 0}},
                         {{"grass", 3, 0, true}});
  run.first_contact = Contact{0.5, 3, 0, 1};
  EXPECT_THROW(SignatureOf(FailureKind::kCollision, run), std::invalid_argument);
  run.first_contact->actor_index = 0;
  try {
    SignatureOf(FailureKind::kCollision, run);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "scenario 4: the first contact names actor 0 (grass), which is traversable");
  }
}

TEST(SignatureTest, DescribeRunClassifiesThenSigns) {
  RunFacts run =
      MakeRun(9, TerminationReason::REASON_SUCCESS, {{0, 0}, {30, 0}}, {Obstacle("rock", 15, 1)});
  run.regret = 0.3;
  EXPECT_FALSE(DescribeRun(run, hand_built::Flat).has_value());  // a clean success
  run.first_contact = Contact{1.51, 7.5, 0, 0};
  const std::optional<Failure> contact = DescribeRun(run, hand_built::Flat);
  ASSERT_TRUE(contact.has_value());
  EXPECT_EQ(contact->scenario_number, 9u);
  EXPECT_EQ(contact->regret, 0.3);
  EXPECT_EQ(contact->signature.kind, FailureKind::kContact);
  EXPECT_EQ(contact->signature.point, Eigen::Vector2d(7.5, 0));
  run.regret = 0.8;
  EXPECT_EQ(DescribeRun(run, hand_built::Flat)->signature.kind, FailureKind::kHighRegret);
  EXPECT_EQ(DescribeRun(run, hand_built::Flat, 0.9)->signature.kind, FailureKind::kContact);
}

}  // namespace
}  // namespace asg::failures
