// Tests for search/ga_strategy.h.
#include "search/ga_strategy.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::ResearchSpace;
using testing::ToyRegret;

GaSettings SmallGa() {
  GaSettings settings;
  settings.population = 20;
  settings.parents = 6;
  settings.generations = 3;
  settings.obstacle_count = 6;
  return settings;
}

std::vector<Evaluation> Score(const std::vector<Candidate>& candidates) {
  std::vector<Evaluation> out;
  for (const Candidate& c : candidates) out.push_back({c.id, ToyRegret(c, 1), false});
  return out;
}

TEST(GaStrategy, WaitsForTheGenerationBeforeBreedingTheNext) {
  const SearchSpace space = ResearchSpace(2.0);
  GaStrategy strategy(space, SmallGa(), 1);
  const std::vector<Candidate> first = strategy.Ask(15);
  ASSERT_EQ(first.size(), 15u);
  const std::vector<Candidate> rest = strategy.Ask(15);  // only 5 left in generation 0
  ASSERT_EQ(rest.size(), 5u);
  EXPECT_TRUE(strategy.Ask(10).empty());  // nothing told yet
  strategy.Tell(Score(first));
  EXPECT_TRUE(strategy.Ask(10).empty());  // generation 0 not complete
  strategy.Tell(Score(rest));
  const std::vector<Candidate> second = strategy.Ask(30);
  ASSERT_EQ(second.size(), 20u);
  for (const Candidate& c : first) {
    EXPECT_EQ(c.generation, 0u);
    EXPECT_EQ(c.origin, "random");
    EXPECT_EQ(c.obstacles.size(), 6u);
  }
  for (const Candidate& c : second) {
    EXPECT_EQ(c.generation, 1u);
    EXPECT_EQ(c.obstacles.size(), 6u);
    EXPECT_TRUE(Feasible(space, c.obstacles));
    if (c.origin == "crossover") {
      ASSERT_EQ(c.parents.size(), 2u);
      EXPECT_LE(c.parents[0], 20u);
      EXPECT_LE(c.parents[1], 20u);
    }
  }
  strategy.Tell(Score(second));
  EXPECT_EQ(strategy.Ask(30).size(), 20u);  // generation 2, the last of 3
}

TEST(GaStrategy, ParentsAreAmongTheBestOfTheGeneration) {
  const SearchSpace space = ResearchSpace(2.0);
  GaStrategy strategy(space, SmallGa(), 2);
  const std::vector<Candidate> first = strategy.Ask(20);
  std::vector<Evaluation> evaluations;
  for (const Candidate& c : first) evaluations.push_back({c.id, static_cast<double>(c.id), false});
  strategy.Tell(evaluations);  // regret = id: the best 6 are ids 15..20
  for (const Candidate& c : strategy.Ask(20)) {
    for (uint64_t parent : c.parents) EXPECT_GE(parent, 15u);
  }
}

TEST(GaStrategy, SameSeedAndTellsGiveSameCandidates) {
  const SearchSpace space = ResearchSpace(2.0);
  GaStrategy a(space, SmallGa(), 4);
  GaStrategy b(space, SmallGa(), 4);
  const auto ga = a.Ask(20);
  EXPECT_EQ(ga, b.Ask(20));
  a.Tell(Score(ga));
  b.Tell(Score(ga));
  EXPECT_EQ(a.Ask(20), b.Ask(20));
}

TEST(GaStrategy, RejectsMoreParentsThanThePopulation) {
  const SearchSpace space = ResearchSpace(2.0);
  GaSettings settings = SmallGa();
  settings.parents = 21;
  EXPECT_THROW(GaStrategy(space, settings, 1), std::invalid_argument);
}

}  // namespace
}  // namespace asg::search
