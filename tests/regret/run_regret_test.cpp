// Tests for regret/run_regret.h: regret on hand-built runs.
#include "regret/run_regret.h"

#include <gtest/gtest.h>

#include <cmath>

namespace asg::regret {
namespace {

const Eigen::Vector2d kStart{10, 10};
const Eigen::Vector2d kGoal{50, 50};

constexpr FailureTime kMoment = FailureTime::kFailureMoment;
constexpr FailureTime kEndOfRun = FailureTime::kEndOfRun;
constexpr double kPeriod = 0.05;  // [s] between samples

/// Samples of a vehicle driving the polyline at `speed`, one every kPeriod (the last leg's
/// samples spread evenly over it).
RunPath Drive(const Polyline& route, double speed, bool success) {
  RunPath run;
  run.success = success;
  run.path.push_back(route.front());
  run.times.push_back(0.0);
  double time = 0.0;
  for (size_t i = 1; i < route.size(); ++i) {
    const Eigen::Vector2d a = route[i - 1], b = route[i];
    const double leg = (b - a).norm() / speed;  // [s]
    const int steps = std::max(1, static_cast<int>(std::round(leg / kPeriod)));
    for (int k = 1; k <= steps; ++k) {
      run.path.push_back(a + (double(k) / steps) * (b - a));
      run.times.push_back(time + leg * k / steps);
    }
    time += leg;
  }
  run.sim_time = time;
  return run;
}

/// `run` followed by `seconds` more samples around its last point, each moved by up to `wobble`
/// [m] (a vehicle pressed against an obstacle, rocking on its suspension) except the last, which
/// is back at that point, as a later timeout would have recorded them.
RunPath Linger(RunPath run, double seconds, double wobble) {
  const Eigen::Vector2d last = run.path.back();
  const int samples = static_cast<int>(std::round(seconds / kPeriod));
  for (int k = 1; k <= samples; ++k) {
    const double angle = 0.7 * k;
    const double offset = k == samples ? 0.0 : wobble;
    run.path.push_back(last + offset * Eigen::Vector2d(std::cos(angle), std::sin(angle)));
    run.times.push_back(run.sim_time + k * kPeriod);
  }
  run.sim_time += samples * kPeriod;
  return run;
}

TEST(RunRegretTest, ThePlannerInAnOpenFieldHasRegretNearZero) {
  ReferenceProblem problem;
  const ReferencePlan plan = PlanReference(problem, {});
  // Straight at 5 m/s into the goal radius (5 m short of the goal point).
  const Eigen::Vector2d stop = kGoal - 5.0 * (kGoal - kStart).normalized();
  const RegretTerms terms = ComputeRegret(Drive({kStart, stop}, 5.0, true), plan, problem.cost,
                                          kStart, kGoal, 5.0, kMoment);
  EXPECT_NEAR(terms.cost, plan.cost, 1e-6);
  EXPECT_NEAR(terms.time, plan.time, 1e-6);
  EXPECT_LT(terms.regret, 1e-6);
  EXPECT_EQ(terms.cost_position_term, 0.0);
}

TEST(RunRegretTest, SlowerAndLongerRunsCostTheirRelativeExcess) {
  ReferenceProblem problem;
  const ReferencePlan plan = PlanReference(problem, {});
  // At 2.5 m/s the same path takes twice the time: time term 1, cost term 0.
  const RegretTerms slow = ComputeRegret(Drive({kStart, kGoal}, 2.5, true), plan, problem.cost,
                                         kStart, kGoal, 5.0, kMoment);
  EXPECT_NEAR(slow.time_term, 1.0, 1e-6);
  EXPECT_NEAR(slow.cost_term, 0.0, 1e-6);
  EXPECT_NEAR(slow.regret, 1.0, 1e-6);
}

TEST(RunRegretTest, AMissedDetourAroundAWallHasALargeRegret) {
  ReferenceProblem problem;
  for (double t = 0.0; t <= 32.0; t += 1.5) problem.cost.obstacles.push_back({14 + t, 46 - t});
  const ReferencePlan plan = PlanReference(problem, {});
  ASSERT_TRUE(plan.found);
  // The vehicle drives straight at the wall and is stopped there (a collision) after 4 s.
  const RegretTerms crash = ComputeRegret(Drive({kStart, {29, 29}}, 5.0, false), plan, problem.cost,
                                          kStart, kGoal, 5.0, kMoment);
  EXPECT_GT(crash.regret, 0.75);
  EXPECT_GT(crash.cost_position_term, 0.0);
  EXPECT_GT(crash.time_position_term, 0.0);
  // Following the reference path instead has (almost) none.
  const RegretTerms follow =
      ComputeRegret(Drive(plan.path, 5.0, true), plan, problem.cost, kStart, kGoal, 5.0, kMoment);
  EXPECT_LT(follow.regret, 0.02);
  EXPECT_GT(crash.regret, 20.0 * follow.regret);
}

TEST(RunRegretTest, BothPositionTermsCountOnFailure) {
  ReferenceProblem problem;
  const ReferencePlan plan = PlanReference(problem, {});
  // Measured to the end of the run: stopped after 2 s at the start, no distance, time spent.
  const RunPath stuck = Linger(Drive({kStart, kStart}, 5.0, false), 2.0, 0.0);
  const RegretTerms terms = ComputeRegret(stuck, plan, problem.cost, kStart, kGoal, 5.0, kEndOfRun);
  const double distance = (kGoal - kStart).norm();
  EXPECT_NEAR(terms.time, 2.0, 1e-9);
  EXPECT_NEAR(terms.cost_position_term, 0.0, 1e-9);              // no cost spent: still at P_C
  EXPECT_NEAR(terms.time_position_term, 10.0 / distance, 1e-9);  // P_T is 10 m along
  EXPECT_NEAR(terms.cost_term, 1.0, 1e-9);
  EXPECT_NEAR(terms.regret, terms.cost_term + terms.time_term + 10.0 / distance, 1e-9);
}

TEST(RunRegretTest, TheFailureMomentIsWhereTheVehicleStopsMakingProgress) {
  // Out and back: the vehicle passes its final point on the way out, which is not the moment.
  const Polyline path = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {2, 0}, {1.2, 0}, {1.1, 0}, {1.0, 0.1}};
  EXPECT_EQ(FailureSample(path, 0.5), 5u);
  EXPECT_EQ(FailureSample(path, 0.05), 7u);  // only the last sample is that close
  EXPECT_EQ(FailureSample({{4, 4}}, 0.5), 0u);
  EXPECT_EQ(FailureSample({{4, 4}, {4, 4}, {4.1, 4}}, 0.5), 0u);
}

TEST(RunRegretTest, AStuckRunHasTheSameRegretWhicheverTimeoutEndsIt) {
  ReferenceProblem problem;
  for (double t = 0.0; t <= 32.0; t += 1.5) problem.cost.obstacles.push_back({14 + t, 46 - t});
  const ReferencePlan plan = PlanReference(problem, {});
  ASSERT_TRUE(plan.found);
  // Into the wall in 5.37 s, then pressed against it: ended by a 5 s stuck timeout or by a 17 s
  // sim timeout, rocking by 3 cm meanwhile.
  const RunPath approach = Drive({kStart, {29, 29}}, 5.0, false);
  const RunPath stuck_timeout = Linger(approach, 5.0, 0.03);
  const RunPath sim_timeout = Linger(approach, 17.0 - approach.sim_time, 0.03);
  const auto regret = [&](const RunPath& run, FailureTime failure_time) {
    return ComputeRegret(run, plan, problem.cost, kStart, kGoal, 5.0, failure_time);
  };
  const RegretTerms stuck = regret(stuck_timeout, kMoment);
  const RegretTerms timer = regret(sim_timeout, kMoment);
  // Measured up to the moment it stopped: the approach's time (less the last half metre).
  EXPECT_NEAR(stuck.time, approach.sim_time, 0.5 / 5.0 + kPeriod);
  EXPECT_NEAR(timer.time, stuck.time, 1e-9);
  EXPECT_NEAR(timer.cost, stuck.cost, 1e-9);
  EXPECT_NEAR(timer.regret, stuck.regret, 1e-9);
  EXPECT_GT(stuck.regret, 0.75);  // still a bad run
  // Measured to the end of the run, the timer decides: here the later end lies closer to the
  // detour's T_opt (15.6 s) and lowers the time term; past a shorter T_opt it would raise it.
  const RegretTerms stuck_end = regret(stuck_timeout, kEndOfRun);
  const RegretTerms timer_end = regret(sim_timeout, kEndOfRun);
  EXPECT_NEAR(stuck_end.time, approach.sim_time + 5.0, 1e-9);
  EXPECT_NEAR(timer_end.time, 17.0, kPeriod);
  EXPECT_GT(std::abs(timer_end.regret - stuck_end.regret), 0.2);
  EXPECT_GT(std::abs(stuck_end.regret - stuck.regret), 0.2);
}

TEST(RunRegretTest, ACollisionsRegretIgnoresTrailingSamples) {
  ReferenceProblem problem;
  for (double t = 0.0; t <= 32.0; t += 1.5) problem.cost.obstacles.push_back({14 + t, 46 - t});
  const ReferencePlan plan = PlanReference(problem, {});
  const RunPath crash = Drive({kStart, {29, 29}}, 5.0, false);
  const auto regret = [&](const RunPath& run, FailureTime failure_time) {
    return ComputeRegret(run, plan, problem.cost, kStart, kGoal, 5.0, failure_time);
  };
  // Samples recorded at the crash point after the collision change nothing.
  EXPECT_EQ(regret(Linger(crash, 1.0, 0.0), kMoment), regret(crash, kMoment));
  // A collision ends the run at once: measured to its failure moment or to its end, nearly the
  // same (the moment is the last half metre before the crash point, 0.1 s earlier).
  EXPECT_NEAR(regret(crash, kMoment).regret, regret(crash, kEndOfRun).regret, 0.03);
  EXPECT_LT(regret(crash, kMoment).time, crash.sim_time);
}

TEST(RunRegretTest, AVehicleIdleAtTheStartHasNoTime) {
  ReferenceProblem problem;
  const ReferencePlan plan = PlanReference(problem, {});
  const RunPath start = Drive({kStart, kStart}, 5.0, false);
  for (const double seconds : {5.0, 17.0}) {
    const RegretTerms idle = ComputeRegret(Linger(start, seconds, 0.01), plan, problem.cost, kStart,
                                           kGoal, 5.0, kMoment);
    EXPECT_EQ(idle.time, 0.0);
    EXPECT_EQ(idle.cost, 0.0);
    // Nothing done in no time: the cost and time terms are 1 each, the positions the start's.
    EXPECT_NEAR(idle.regret, 2.0, 1e-9);
  }
}

TEST(RunRegretTest, ASuccessIsMeasuredToItsEnd) {
  ReferenceProblem problem;
  const ReferencePlan plan = PlanReference(problem, {});
  // Slow at the end, within half a metre of the stop: all of it counts.
  const Eigen::Vector2d stop = kGoal - 5.0 * (kGoal - kStart).normalized();
  const RunPath run = Linger(Drive({kStart, stop}, 5.0, true), 3.0, 0.0);
  EXPECT_EQ(ComputeRegret(run, plan, problem.cost, kStart, kGoal, 5.0, kMoment),
            ComputeRegret(run, plan, problem.cost, kStart, kGoal, 5.0, kEndOfRun));
  EXPECT_NEAR(ComputeRegret(run, plan, problem.cost, kStart, kGoal, 5.0, kMoment).time_term,
              3.0 / plan.time, 1e-6);
}

}  // namespace
}  // namespace asg::regret
