// Tests for search/space.h.
#include "search/space.h"

#include <gtest/gtest.h>

#include "core/random.h"
#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::ResearchSpace;

Obstacle Tree(double x, double y) { return {0, x, y}; }
Obstacle Bush(double x, double y) { return {1, x, y}; }

TEST(Infeasibility, AnObstacleFarFromThePathIsFeasible) {
  const SearchSpace space = ResearchSpace(0.5);
  EXPECT_EQ(Infeasibility(space, {Tree(45.0, 15.0)}), "");
  EXPECT_TRUE(Feasible(space, {Tree(45.0, 15.0), Bush(15.0, 45.0)}));
}

TEST(Infeasibility, NamesAnObstacleNearTheStart) {
  const SearchSpace space = ResearchSpace(0.5);
  EXPECT_EQ(Infeasibility(space, {Tree(45.0, 15.0), Bush(15.0, 14.0)}),
            "obstacle 1 (bush) is 6.4 m from the start (< 10 m)");
}

TEST(Infeasibility, NamesAnObstacleNearTheGoal) {
  const SearchSpace space = ResearchSpace(0.5);
  EXPECT_EQ(Infeasibility(space, {Tree(50.0, 41.0)}),
            "obstacle 0 (tree) is 9 m from the goal (< 10 m)");
}

TEST(Infeasibility, NamesTooFewObstacles) {
  SearchSpace space = ResearchSpace(0.5);
  EXPECT_EQ(Infeasibility(space, {}), "the candidate has 0 obstacles (< min_obstacles 1)");
  space.min_obstacles = 3;
  EXPECT_FALSE(Feasible(space, {Tree(45.0, 15.0), Bush(15.0, 45.0)}));
}

TEST(Infeasibility, NamesAClassOverItsMaxCount) {
  const SearchSpace space = ResearchSpace(0.5);
  std::vector<Obstacle> trees;
  for (int i = 0; i < 7; ++i) trees.push_back(Tree(55.0, 2.0 + 2.0 * i));
  EXPECT_EQ(Infeasibility(space, trees), "the candidate has 7 of class tree (> max_count 6)");
  trees.pop_back();
  EXPECT_TRUE(Feasible(space, trees));
}

TEST(Infeasibility, NamesACoordinateOutsideItsRange) {
  SearchSpace space = ResearchSpace(0.5);
  space.classes[1].y = {30.0, 60.0};
  EXPECT_EQ(Infeasibility(space, {Bush(45.0, 15.0)}),
            "obstacle 0 (bush) has y 15 m outside [30, 60] m");
  EXPECT_EQ(Infeasibility(space, {Tree(61.0, 15.0)}),
            "obstacle 0 (tree) has x 61 m outside [0, 60] m");
}

TEST(Infeasibility, NamesAnUnknownClassIndex) {
  const SearchSpace space = ResearchSpace(0.5);
  EXPECT_EQ(Infeasibility(space, {{5, 45.0, 15.0}}),
            "obstacle 0 has class 5 but the space has 2 classes");
}

TEST(Infeasibility, RejectsAReferencePathTooCloseToAnObstacle) {
  const SearchSpace space = ResearchSpace(0.5);
  // docs/regret.md: a tree at (30, 30) leaves the reference path 3.2 m from it.
  EXPECT_EQ(Infeasibility(space, {Tree(30.0, 30.0)}),
            "the reference path passes 3.2 m from an obstacle (< path_clearance 4 m)");
}

TEST(Infeasibility, RejectsAReferencePathLongerThanTheTimeout) {
  SearchSpace space = ResearchSpace(0.5);
  space.sim_timeout = 10.0;  // the straight 56.6 m take 11.3 s at 5 m/s
  EXPECT_EQ(Infeasibility(space, {Tree(45.0, 15.0)}),
            "the reference path takes 11.3 s (> sim_timeout 10 s)");
}

TEST(Infeasibility, RejectsAWallThatBlocksEveryPath) {
  SearchSpace space = ResearchSpace(0.5);
  space.classes[0].max_count = 40;
  std::vector<Obstacle> wall;  // the anti-diagonal x + y = 60, a trunk every 2 m
  for (int i = 0; i <= 30; ++i) wall.push_back(Tree(2.0 * i, 60.0 - 2.0 * i));
  EXPECT_EQ(Infeasibility(space, wall),
            "the obstacles block every reference path from start to goal");
}

TEST(Infeasibility, IgnoresTraversableActorsInThePlan) {
  SearchSpace space = ResearchSpace(0.5);
  space.classes[1].obstacle = false;
  EXPECT_TRUE(Feasible(space, {Bush(30.0, 30.0)}));
  EXPECT_FALSE(Feasible(space, {Tree(30.0, 30.0)}));
}

}  // namespace
}  // namespace asg::search

namespace asg::search {
namespace {

// Whenever StraightReference skips the planner, the planner would have planned the straight
// segment: same time, same clearance, two points. Checked on random candidates of the research
// space (and a start heading the shortcut must refuse).
TEST(StraightReference, AgreesWithThePlannerWheneverItAnswers) {
  SearchSpace space = testing::ResearchSpace();
  core::Random random(17);
  int answered = 0, declined = 0;
  for (int i = 0; i < 400; ++i) {
    std::vector<Obstacle> obstacles;
    const int count = static_cast<int>(random.UniformInt(1, 4));
    for (int k = 0; k < count; ++k) {
      obstacles.push_back({static_cast<uint32_t>(k % 2), random.Uniform(0.0, 60.0),
                           random.Uniform(0.0, 60.0), 0.0, 1.0});
    }
    const std::optional<StraightPlan> straight = StraightReference(space, obstacles);
    if (!straight) {
      ++declined;
      continue;
    }
    ++answered;
    const regret::ReferencePlan plan =
        regret::PlanReference(ReferenceProblemOf(space, obstacles), space.reference);
    ASSERT_TRUE(plan.found) << i;
    EXPECT_EQ(plan.path.size(), 2u) << i;
    EXPECT_NEAR(plan.time, straight->time, 1e-9) << i;
    EXPECT_NEAR(plan.clearance, straight->clearance, 1e-9) << i;
  }
  EXPECT_GT(answered, 50);
  EXPECT_GT(declined, 50);
  // Facing away from the goal: the first move would pay the turn penalty, so no shortcut.
  space.start_yaw = 225.0;
  EXPECT_FALSE(StraightReference(space, {{0, 55.0, 5.0, 0.0, 1.0}}).has_value());
}

}  // namespace
}  // namespace asg::search
