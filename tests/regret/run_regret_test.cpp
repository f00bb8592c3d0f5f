// Tests for regret/run_regret.h: regret on hand-built runs.
#include "regret/run_regret.h"

#include <gtest/gtest.h>

#include <cmath>

namespace asg::regret {
namespace {

const Eigen::Vector2d kStart{10, 10};
const Eigen::Vector2d kGoal{50, 50};

/// Samples of a vehicle driving the polyline at `speed`, one every 0.05 s.
RunPath Drive(const Polyline& route, double speed, bool success) {
  RunPath run;
  run.success = success;
  run.path.push_back(route.front());
  double time = 0.0;
  for (size_t i = 1; i < route.size(); ++i) {
    const Eigen::Vector2d a = route[i - 1], b = route[i];
    const int steps = std::max(1, static_cast<int>(std::round((b - a).norm() / speed / 0.05)));
    for (int k = 1; k <= steps; ++k) run.path.push_back(a + (double(k) / steps) * (b - a));
    time += (b - a).norm() / speed;
  }
  run.sim_time = time;
  return run;
}

TEST(RunRegretTest, ThePlannerInAnOpenFieldHasRegretNearZero) {
  ReferenceProblem problem;
  const ReferencePlan plan = PlanReference(problem, {});
  // Straight at 5 m/s into the goal radius (5 m short of the goal point).
  const Eigen::Vector2d stop = kGoal - 5.0 * (kGoal - kStart).normalized();
  const RegretTerms terms =
      ComputeRegret(Drive({kStart, stop}, 5.0, true), plan, problem.cost, kStart, kGoal, 5.0);
  EXPECT_NEAR(terms.cost, plan.cost, 1e-6);
  EXPECT_NEAR(terms.time, plan.time, 1e-6);
  EXPECT_LT(terms.regret, 1e-6);
  EXPECT_EQ(terms.cost_position_term, 0.0);
}

TEST(RunRegretTest, SlowerAndLongerRunsCostTheirRelativeExcess) {
  ReferenceProblem problem;
  const ReferencePlan plan = PlanReference(problem, {});
  // At 2.5 m/s the same path takes twice the time: time term 1, cost term 0.
  const RegretTerms slow =
      ComputeRegret(Drive({kStart, kGoal}, 2.5, true), plan, problem.cost, kStart, kGoal, 5.0);
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
  const RegretTerms crash =
      ComputeRegret(Drive({kStart, {29, 29}}, 5.0, false), plan, problem.cost, kStart, kGoal, 5.0);
  EXPECT_GT(crash.regret, 0.75);
  EXPECT_GT(crash.cost_position_term, 0.0);
  EXPECT_GT(crash.time_position_term, 0.0);
  // Following the reference path instead has (almost) none.
  const RegretTerms follow =
      ComputeRegret(Drive(plan.path, 5.0, true), plan, problem.cost, kStart, kGoal, 5.0);
  EXPECT_LT(follow.regret, 0.02);
  EXPECT_GT(crash.regret, 20.0 * follow.regret);
}

TEST(RunRegretTest, BothPositionTermsCountOnFailure) {
  ReferenceProblem problem;
  const ReferencePlan plan = PlanReference(problem, {});
  // Stopped after 2 s at the start: no distance, time spent.
  RunPath stuck;
  stuck.path = {kStart, kStart};
  stuck.sim_time = 2.0;
  const RegretTerms terms = ComputeRegret(stuck, plan, problem.cost, kStart, kGoal, 5.0);
  const double distance = (kGoal - kStart).norm();
  EXPECT_NEAR(terms.cost_position_term, 0.0, 1e-9);              // no cost spent: still at P_C
  EXPECT_NEAR(terms.time_position_term, 10.0 / distance, 1e-9);  // P_T is 10 m along
  EXPECT_NEAR(terms.cost_term, 1.0, 1e-9);
  EXPECT_NEAR(terms.regret, terms.cost_term + terms.time_term + 10.0 / distance, 1e-9);
}

}  // namespace
}  // namespace asg::regret
