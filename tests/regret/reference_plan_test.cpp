// Tests for regret/reference_plan.h.
#include "regret/reference_plan.h"

#include <gtest/gtest.h>

#include <cmath>

namespace asg::regret {
namespace {

ReferenceProblem ResearchProblem() {
  ReferenceProblem problem;  // 60 m square, (10, 10) yaw 45 -> (50, 50)
  return problem;
}

TEST(ReferencePlanTest, AnOpenFieldGivesTheStraightLine) {
  const ReferencePlan plan = PlanReference(ResearchProblem(), {});
  ASSERT_TRUE(plan.found);
  ASSERT_EQ(plan.path.size(), 2u);
  EXPECT_TRUE(plan.path.front().isApprox(Eigen::Vector2d(10, 10)));
  EXPECT_TRUE(plan.path.back().isApprox(Eigen::Vector2d(50, 50)));
  EXPECT_NEAR(plan.length, 40.0 * std::sqrt(2.0), 1e-9);
  EXPECT_NEAR(plan.cost, plan.length, 1e-9);
  EXPECT_NEAR(plan.time, plan.length / 5.0, 1e-9);
}

TEST(ReferencePlanTest, AWallAcrossTheDiagonalForcesADetourAroundItsEnd) {
  ReferenceProblem problem = ResearchProblem();
  // Obstacles every 1.5 m on the anti-diagonal x + y = 60 from (14, 46) to (46, 14): the
  // straight line crosses it at (30, 30); the wall's ends are open.
  for (double t = 0.0; t <= 32.0; t += 1.5) problem.cost.obstacles.push_back({14 + t, 46 - t});
  const ReferencePlan plan = PlanReference(problem, {});
  ASSERT_TRUE(plan.found);
  EXPECT_GT(plan.length, 40.0 * std::sqrt(2.0) + 5.0);
  EXPECT_GE(plan.clearance, ReferenceSettings{}.lethal_radius - 0.5);
  EXPECT_GT(plan.cost, plan.length);  // it passes near obstacles, at least at the wall's end
  // The path never crosses the wall: every vertex is on one side or beyond its ends.
  for (const Eigen::Vector2d& p : plan.path) {
    const bool beyond_ends = p.x() - p.y() > 32.0 + 1.0 || p.y() - p.x() > 32.0 + 1.0;
    EXPECT_TRUE(beyond_ends || std::abs(p.x() + p.y() - 60.0) > 1.0) << p.transpose();
  }
}

TEST(ReferencePlanTest, AClosedRingAroundTheGoalHasNoPath) {
  ReferenceProblem problem = ResearchProblem();
  for (int k = 0; k < 48; ++k) {
    const double angle = 2.0 * M_PI * k / 48;
    problem.cost.obstacles.push_back({50 + 8 * std::cos(angle), 50 + 8 * std::sin(angle)});
  }
  EXPECT_FALSE(PlanReference(problem, {}).found);
}

TEST(ReferencePlanTest, TheFirstSegmentKeepsCloseToTheStartHeading) {
  ReferenceProblem problem = ResearchProblem();
  problem.start_yaw = 225.0;  // facing away from the goal
  const ReferencePlan plan = PlanReference(problem, {});
  ASSERT_TRUE(plan.found);
  ASSERT_GE(plan.path.size(), 3u);
  const Eigen::Vector2d first = plan.path[1] - plan.path[0];
  const double heading = std::atan2(first.y(), first.x()) * 180.0 / M_PI;
  const double turn = std::abs(std::remainder(heading - 225.0, 360.0));
  EXPECT_LE(turn, ReferenceSettings{}.start_turn_limit + 1e-9);
}

TEST(ReferencePlanTest, IsDeterministic) {
  ReferenceProblem problem = ResearchProblem();
  problem.cost.obstacles = {{30, 30}, {25, 33}, {36, 27}};
  const ReferencePlan a = PlanReference(problem, {});
  const ReferencePlan b = PlanReference(problem, {});
  ASSERT_TRUE(a.found);
  EXPECT_EQ(a.path, b.path);
  EXPECT_EQ(a.cost, b.cost);
  // Going around the middle obstacle costs more than the open field, less than a wide detour.
  EXPECT_GT(a.cost, 40.0 * std::sqrt(2.0));
  EXPECT_LT(a.cost, 40.0 * std::sqrt(2.0) * 1.3);
}

}  // namespace
}  // namespace asg::regret
