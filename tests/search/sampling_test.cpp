// Tests for search/sampling.h.
#include "search/sampling.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::ResearchSpace;

TEST(SampleObstacle, StaysInTheClassRanges) {
  SearchSpace space = ResearchSpace(2.0);
  space.classes[1].x = {20.0, 25.0};
  space.classes[1].yaw = {0.0, 90.0};
  core::Random random(1);
  for (int i = 0; i < 200; ++i) {
    const Obstacle o = SampleObstacle(space, 1, random);
    EXPECT_EQ(o.actor_class, 1u);
    EXPECT_GE(o.x, 20.0);
    EXPECT_LE(o.x, 25.0);
    EXPECT_GE(o.yaw, 0.0);
    EXPECT_LE(o.yaw, 90.0);
    EXPECT_EQ(o.scale, 1.0);
  }
}

TEST(SampleClassWithRoom, DrawsOnlyClassesWithRoom) {
  const SearchSpace space = ResearchSpace(2.0);
  std::vector<Obstacle> six_trees(6, Obstacle{0, 45.0, 15.0});
  core::Random random(2);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(SampleClassWithRoom(space, six_trees, random), 1u);
  std::vector<Obstacle> full = six_trees;
  for (int i = 0; i < 6; ++i) full.push_back({1, 15.0, 45.0});
  EXPECT_FALSE(SampleClassWithRoom(space, full, random).has_value());
  EXPECT_EQ(MaxObstacles(space), 12u);
}

TEST(SampleFeasible, GivesFeasibleCandidatesOfTheAskedSize) {
  const SearchSpace space = ResearchSpace(2.0);
  core::Random random(3);
  for (size_t n : {1u, 6u, 12u}) {
    const auto obstacles = SampleFeasible(space, n, random, 200);
    ASSERT_TRUE(obstacles.has_value());
    EXPECT_EQ(obstacles->size(), n);
    EXPECT_TRUE(Feasible(space, *obstacles)) << Infeasibility(space, *obstacles);
  }
  EXPECT_FALSE(SampleFeasible(space, 13, random, 200).has_value());
}

TEST(SampleFeasible, FailsAfterMaxTriesInAnInfeasibleSpace) {
  SearchSpace space = ResearchSpace(2.0);
  space.sim_timeout = 1.0;  // no path fits
  core::Random random(4);
  EXPECT_FALSE(SampleFeasible(space, 2, random, 5).has_value());
}

TEST(Mutate, AddAppendsOneObstacle) {
  const SearchSpace space = ResearchSpace(2.0);
  const std::vector<Obstacle> parent{{0, 45.0, 15.0}};
  MutationSettings settings;
  settings.weights = {1.0, 0.0, 0.0, 0.0};
  core::Random random(5);
  const auto mutant = Mutate(space, parent, settings, random);
  ASSERT_TRUE(mutant.has_value());
  EXPECT_EQ(mutant->origin, "add");
  ASSERT_EQ(mutant->obstacles.size(), 2u);
  EXPECT_EQ(mutant->obstacles[0], parent[0]);
}

TEST(Mutate, RemoveNeedsTwoObstacles) {
  const SearchSpace space = ResearchSpace(2.0);
  MutationSettings settings;
  settings.weights = {0.0, 1.0, 0.0, 0.0};
  core::Random random(6);
  EXPECT_FALSE(Mutate(space, {{0, 45.0, 15.0}}, settings, random).has_value());
  const auto mutant = Mutate(space, {{0, 45.0, 15.0}, {1, 15.0, 45.0}}, settings, random);
  ASSERT_TRUE(mutant.has_value());
  EXPECT_EQ(mutant->origin, "remove");
  EXPECT_EQ(mutant->obstacles.size(), 1u);
}

TEST(Mutate, MoveChangesExactlyOneCoordinate) {
  const SearchSpace space = ResearchSpace(2.0);
  const std::vector<Obstacle> parent{{0, 45.0, 15.0}, {1, 15.0, 45.0}};
  MutationSettings settings;
  settings.weights = {0.0, 0.0, 1.0, 0.0};
  core::Random random(7);
  for (int i = 0; i < 20; ++i) {
    const auto mutant = Mutate(space, parent, settings, random);
    ASSERT_TRUE(mutant.has_value());
    int changed = 0;
    for (size_t k = 0; k < parent.size(); ++k) {
      changed += mutant->obstacles[k].x != parent[k].x;
      changed += mutant->obstacles[k].y != parent[k].y;
      EXPECT_EQ(mutant->obstacles[k].actor_class, parent[k].actor_class);
    }
    EXPECT_EQ(changed, 1);
    EXPECT_TRUE(Feasible(space, mutant->obstacles));
  }
}

TEST(Mutate, NudgeStaysNearAndChainsNameEveryOperator) {
  const SearchSpace space = ResearchSpace(2.0);
  const std::vector<Obstacle> parent{{0, 45.0, 15.0}};
  MutationSettings settings;
  settings.weights = {0.0, 0.0, 0.0, 1.0};
  settings.nudge_sigma = 1.0;
  settings.mutations_per_child = 3;
  core::Random random(8);
  const auto mutant = Mutate(space, parent, settings, random);
  ASSERT_TRUE(mutant.has_value());
  EXPECT_EQ(mutant->origin, "nudge+nudge+nudge");
  EXPECT_EQ(mutant->operators.size(), 3u);
  EXPECT_LT(std::hypot(mutant->obstacles[0].x - 45.0, mutant->obstacles[0].y - 15.0), 10.0);
}

TEST(Gaussian, HasZeroMeanAndUnitVariance) {
  core::Random random(9);
  double sum = 0.0, sum2 = 0.0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const double g = Gaussian(random);
    sum += g;
    sum2 += g * g;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.03);
  EXPECT_NEAR(sum2 / n, 1.0, 0.05);
}

}  // namespace
}  // namespace asg::search
