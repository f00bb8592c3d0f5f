// Tests for search/random_strategy.h.
#include "search/random_strategy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>

#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::ResearchSpace;

TEST(RandomStrategy, ProposesFeasibleCandidatesWithOneToTwelveObstacles) {
  const SearchSpace space = ResearchSpace(2.0);
  RandomStrategy strategy(space, RandomSettings{}, 1);
  std::set<size_t> sizes;
  uint64_t last_id = 0;
  for (int batch = 0; batch < 4; ++batch) {
    const std::vector<Candidate> candidates = strategy.Ask(25);
    ASSERT_EQ(candidates.size(), 25u);
    std::vector<Evaluation> evaluations;
    for (const Candidate& c : candidates) {
      EXPECT_EQ(c.id, last_id + 1);
      last_id = c.id;
      EXPECT_EQ(c.origin, "random");
      EXPECT_TRUE(c.parents.empty());
      EXPECT_GE(c.obstacles.size(), 1u);
      EXPECT_LE(c.obstacles.size(), 12u);
      EXPECT_TRUE(Feasible(space, c.obstacles));
      sizes.insert(c.obstacles.size());
      evaluations.push_back({c.id, 0.1, false});
    }
    strategy.Tell(evaluations);
  }
  EXPECT_GE(sizes.size(), 8u);  // the counts spread over the range
}

TEST(RandomStrategy, TheClutteredBaselineHoldsAsManyObstaclesAsTheSpaceAllows) {
  // min_obstacles = max_obstacles = the sum of max_count: every class full, placed at random.
  const SearchSpace space = ResearchSpace(2.0);
  RandomStrategy strategy(space, {.min_obstacles = 12, .max_obstacles = 12}, 3);
  const std::vector<Candidate> candidates = strategy.Ask(20);
  ASSERT_EQ(candidates.size(), 20u);
  std::set<double> first_x;
  for (const Candidate& c : candidates) {
    ASSERT_EQ(c.obstacles.size(), 12u);
    size_t trees = 0;
    for (const Obstacle& o : c.obstacles) trees += o.actor_class == 0 ? 1 : 0;
    EXPECT_EQ(trees, 6u);
    EXPECT_TRUE(Feasible(space, c.obstacles));
    first_x.insert(c.obstacles[0].x);
  }
  EXPECT_EQ(first_x.size(), 20u);  // placed anew for every candidate
}

TEST(RandomStrategy, SameSeedGivesSameCandidates) {
  const SearchSpace space = ResearchSpace(2.0);
  RandomStrategy a(space, RandomSettings{}, 7);
  RandomStrategy b(space, RandomSettings{}, 7);
  RandomStrategy c(space, RandomSettings{}, 8);
  const auto from_a = a.Ask(10);
  EXPECT_EQ(from_a, b.Ask(10));
  EXPECT_NE(from_a, c.Ask(10));
}

TEST(RandomStrategy, RejectsATellOfAnUnknownOrRepeatedId) {
  const SearchSpace space = ResearchSpace(2.0);
  RandomStrategy strategy(space, RandomSettings{}, 1);
  strategy.Ask(2);
  EXPECT_THROW(strategy.Tell({{3, 0.0, false}}), std::invalid_argument);
  strategy.Tell({{1, 0.0, false}});
  EXPECT_THROW(strategy.Tell({{1, 0.0, false}}), std::invalid_argument);
  EXPECT_THROW(strategy.Tell({{2, std::nan(""), false}}), std::invalid_argument);
}

TEST(RandomStrategy, RejectsAnObstacleRangeOutsideTheSpace) {
  const SearchSpace space = ResearchSpace(2.0);
  RandomSettings settings;
  settings.max_obstacles = 13;
  EXPECT_THROW(RandomStrategy(space, settings, 1), std::invalid_argument);
}

}  // namespace
}  // namespace asg::search
