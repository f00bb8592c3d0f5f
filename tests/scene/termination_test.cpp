// Tests for scene/termination.h: order, thresholds and timers of the rules.
#include "scene/termination.h"

#include <gtest/gtest.h>

namespace asg::scene {
namespace {

using protocol::TerminationReason;

constexpr double kPeriod = 0.05;

TerminationSettings Settings() {
  TerminationSettings settings;
  settings.allow_collisions = false;
  settings.max_roll = 30.0;
  settings.max_pitch = 30.0;
  settings.sim_timeout = 10.0;
  settings.idle_timeout = 1.0;
  settings.stuck_timeout = 2.0;
  settings.goal = {50.0, 50.0};
  settings.goal_radius = 5.0;
  settings.min_xy = 0.0;
  settings.max_xy = 60.0;
  settings.min_z = -5.0;
  settings.max_z = 50.0;
  return settings;
}

TickObservation At(double time, double speed, double command) {
  TickObservation o;
  o.time = time;
  o.position = {10.0, 10.0, 0.5};
  o.forward_speed = speed;
  o.commanded_speed = command;
  return o;
}

// Feeds ticks 0, 1, ... with the given speed and command until a reason appears; returns the
// time of that tick (or -1 after `max_ticks`).
double TimeOfEnd(TerminationRules* rules, double speed, double command, int max_ticks,
                 std::optional<TerminationReason>* reason) {
  for (int k = 0; k < max_ticks; ++k) {
    *reason = rules->Update(At(k * kPeriod, speed, command));
    if (*reason) return k * kPeriod;
  }
  return -1.0;
}

TEST(TerminationTest, CollisionComesFirstAndOnlyWhenDisallowed) {
  TerminationRules rules(Settings(), kPeriod);
  TickObservation o = At(0.0, 0.0, 0.0);
  o.touched_actor = true;
  o.roll = 80.0;             // also flipped
  o.position = {50, 50, 0};  // also at the goal
  EXPECT_EQ(rules.Update(o), TerminationReason::REASON_VEHICLE_COLLISION);
  TerminationSettings allowed = Settings();
  allowed.allow_collisions = true;
  TerminationRules allowing(allowed, kPeriod);
  EXPECT_EQ(allowing.Update(o), TerminationReason::REASON_VEHICLE_FLIPPED);
}

TEST(TerminationTest, RollAndPitchLimitsAreStrict) {
  TerminationRules rules(Settings(), kPeriod);
  TickObservation o = At(0.0, 0.0, 0.0);
  o.roll = -30.0;
  o.pitch = 30.0;
  EXPECT_EQ(rules.Update(o), std::nullopt);
  o.pitch = -30.001;
  EXPECT_EQ(rules.Update(o), TerminationReason::REASON_VEHICLE_FLIPPED);
}

TEST(TerminationTest, OutOfBoundsPrecedesTimeoutsAndFollowsFlips) {
  TerminationRules rules(Settings(), kPeriod);
  TickObservation o = At(20.0, 0.0, 0.0);  // also past the sim timeout
  o.position = {60.01, 10.0, 0.0};
  EXPECT_EQ(rules.Update(o), TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS);
  o.position = {10.0, 10.0, -5.5};
  EXPECT_EQ(rules.Update(o), TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS);
  o.roll = 31.0;
  EXPECT_EQ(rules.Update(o), TerminationReason::REASON_VEHICLE_FLIPPED);
}

TEST(TerminationTest, SimTimeoutAtExactlyTheTimeout) {
  TerminationRules rules(Settings(), kPeriod);
  std::optional<TerminationReason> reason;
  EXPECT_NEAR(TimeOfEnd(&rules, 0.0, 0.0, 1000, &reason), 10.0, 1e-9);
  EXPECT_EQ(reason, TerminationReason::REASON_SIM_TIMEOUT);
}

TEST(TerminationTest, IdleTimerNeedsTheVehicleToHaveMoved) {
  TerminationRules never_moved(Settings(), kPeriod);
  std::optional<TerminationReason> reason;
  TimeOfEnd(&never_moved, 0.0, 0.0, 1000, &reason);
  EXPECT_EQ(reason, TerminationReason::REASON_SIM_TIMEOUT);

  TerminationRules rules(Settings(), kPeriod);
  EXPECT_EQ(rules.Update(At(0.0, 0.0, 1.0)), std::nullopt);
  EXPECT_EQ(rules.Update(At(0.05, 1.0, 1.0)), std::nullopt);  // moving
  double time = 0.1;
  for (; time < 5.0; time += kPeriod) {
    if (auto r = rules.Update(At(time, 0.01, 0.0))) {
      EXPECT_EQ(*r, TerminationReason::REASON_VEHICLE_IDLING_TIMEOUT);
      break;
    }
  }
  EXPECT_NEAR(time, 0.1 + 1.0 - kPeriod, 1e-9);  // 20 idle ticks = 1 s
  EXPECT_NEAR(rules.idle_time(), 1.0, 1e-9);
}

TEST(TerminationTest, StuckTimerResetsWhenTheVehicleMoves) {
  TerminationRules rules(Settings(), kPeriod);
  std::optional<TerminationReason> reason;
  rules.Update(At(0.0, 0.0, 2.0));
  for (int k = 1; k <= 30; ++k) EXPECT_EQ(rules.Update(At(k * kPeriod, 0.0, 2.0)), std::nullopt);
  EXPECT_NEAR(rules.stuck_time(), 1.5, 1e-9);
  EXPECT_EQ(rules.Update(At(31 * kPeriod, 0.5, 2.0)), std::nullopt);
  EXPECT_EQ(rules.stuck_time(), 0.0);
  int k = 32;
  for (; k < 200; ++k) {
    reason = rules.Update(At(k * kPeriod, 0.0, 2.0));
    if (reason) break;
  }
  EXPECT_EQ(reason, TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT);
  EXPECT_EQ(k, 31 + 40);  // 40 ticks = 2 s after the reset
}

TEST(TerminationTest, NegativePeriodsDisableTimeouts) {
  TerminationSettings settings = Settings();
  settings.sim_timeout = -1.0;
  settings.stuck_timeout = -1.0;
  TerminationRules rules(settings, kPeriod);
  std::optional<TerminationReason> reason;
  EXPECT_EQ(TimeOfEnd(&rules, 0.0, 3.0, 2000, &reason), -1.0);
}

TEST(TerminationTest, GoalIsTwoDimensionalAndLast) {
  TerminationRules rules(Settings(), kPeriod);
  TickObservation o = At(0.0, 3.0, 3.0);
  o.position = {50.0 + 3.0, 50.0 + 4.0, 20.0};  // 5 m away in xy, high above
  EXPECT_EQ(rules.Update(o), TerminationReason::REASON_SUCCESS);
  o.position = {50.0 + 3.0, 50.0 + 4.01, 0.0};
  EXPECT_EQ(rules.Update(o), std::nullopt);
}

}  // namespace
}  // namespace asg::scene
