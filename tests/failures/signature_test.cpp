// Tests for failures/signature.h.
#include "failures/signature.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/failures/hand_built_runs.h"

namespace asg::failures {
namespace {

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

TEST(SignatureTest, ATimeoutOrDepartureHappensWhereTheRunEndedWhateverItTouched) {
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
