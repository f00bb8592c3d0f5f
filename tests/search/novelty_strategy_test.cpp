// Tests for search/novelty_strategy.h.
#include "search/novelty_strategy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "search/sampling.h"
#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::ResearchSpace;
using testing::RunToy;
using testing::Scored;

TEST(LayoutDistance, IsTheSymmetricMeanNearestDistance) {
  const std::vector<Obstacle> a{{0, 0.0, 0.0}, {0, 10.0, 0.0}};
  const std::vector<Obstacle> b{{0, 0.0, 3.0}};
  // a -> b: (3 + sqrt(109)) / 2; b -> a: 3.
  EXPECT_NEAR(LayoutDistance(a, b), 0.5 * (0.5 * (3.0 + std::sqrt(109.0)) + 3.0), 1e-12);
  EXPECT_DOUBLE_EQ(LayoutDistance(a, b), LayoutDistance(b, a));
  EXPECT_EQ(LayoutDistance(a, a), 0.0);
  EXPECT_TRUE(std::isinf(LayoutDistance(a, {})));
}

TEST(NoveltyStrategy, ChildrenHaveOneToldParentAndFeasibleLayouts) {
  const SearchSpace space = ResearchSpace(2.0);
  NoveltySettings settings;
  settings.seed_count = 20;
  NoveltyStrategy strategy(space, settings, 5);
  const std::vector<Scored> scored = RunToy(strategy, 120, 20, 5);
  ASSERT_EQ(scored.size(), 120u);
  for (size_t i = 0; i < scored.size(); ++i) {
    const Candidate& c = scored[i].candidate;
    EXPECT_EQ(c.id, i + 1);
    EXPECT_TRUE(Feasible(space, c.obstacles)) << Infeasibility(space, c.obstacles);
    if (i < 20) {
      EXPECT_EQ(c.origin, "seed");
      EXPECT_EQ(c.obstacles.size(), MaxObstacles(space));  // 6 trees and 6 bushes
    } else {
      ASSERT_EQ(c.parents.size(), 1u);
      EXPECT_LT(c.parents[0], c.id);
      EXPECT_EQ(c.generation, scored[c.parents[0] - 1].candidate.generation + 1);
      EXPECT_TRUE(c.origin == "add" || c.origin == "remove" || c.origin == "move" ||
                  c.origin == "nudge")
          << c.origin;
    }
  }
}

TEST(NoveltyStrategy, OperatorProbabilitiesAdaptButKeepTheFloor) {
  const SearchSpace space = ResearchSpace(2.0);
  NoveltySettings settings;
  settings.seed_count = 20;
  NoveltyStrategy strategy(space, settings, 9);
  const OperatorWeights initial = strategy.operator_probabilities();
  EXPECT_NEAR(initial[3], 0.3, 1e-12);
  RunToy(strategy, 300, 20, 9);
  const OperatorWeights adapted = strategy.operator_probabilities();
  double total = 0.0;
  for (double p : adapted) {
    EXPECT_GE(p, settings.operator_floor - 1e-12);
    total += p;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_NE(adapted, initial);
}

TEST(NoveltyStrategy, SameSeedAndTellsGiveSameCandidates) {
  const SearchSpace space = ResearchSpace(2.0);
  NoveltySettings settings;
  settings.seed_count = 10;
  NoveltyStrategy a(space, settings, 3);
  NoveltyStrategy b(space, settings, 3);
  const std::vector<Scored> ra = RunToy(a, 60, 10, 3);
  const std::vector<Scored> rb = RunToy(b, 60, 10, 3);
  ASSERT_EQ(ra.size(), rb.size());
  for (size_t i = 0; i < ra.size(); ++i) EXPECT_EQ(ra[i].candidate, rb[i].candidate);
}

}  // namespace
}  // namespace asg::search
