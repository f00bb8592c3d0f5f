// Tests for search/: the strategies compared on the toy objective, 1500 candidates each over three
// seeds (random, GA, BACRE, bacre-novelty with its own seeds and seeded like BACRE, map-elites).
// About a minute of work, so an executable of its own labelled slow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "search/bacre_strategy.h"
#include "search/ga_strategy.h"
#include "search/map_elites_strategy.h"
#include "search/novelty_strategy.h"
#include "search/random_strategy.h"
#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::CountAbove;
using testing::CountCellsAbove;
using testing::CountDistinctAbove;
using testing::ResearchSpace;
using testing::RunToy;
using testing::Scored;

constexpr size_t kBudget = 1500;
constexpr size_t kBatch = 50;

// Sums over three seeds of the toy-objective counts of one strategy.
struct Totals {
  size_t above_050 = 0;
  size_t above_075 = 0;
  size_t above_100 = 0;
  size_t distinct_075 = 0;
  size_t cells_075 = 0;  // archive cells (search/descriptors.h) of the candidates >= 0.75
  double best = 0.0;
};

// With `failure_distances`, each run hands the strategy the toy's failure distances.
template <typename MakeFn>
Totals RunThreeSeeds(MakeFn make, bool failure_distances = false) {
  Totals totals;
  for (uint64_t seed : {11u, 22u, 33u}) {
    std::unique_ptr<Strategy> strategy = make(seed);
    testing::ToyFailures failures;
    const std::vector<Scored> scored =
        RunToy(*strategy, kBudget, kBatch, seed, failure_distances ? &failures : nullptr);
    EXPECT_EQ(scored.size(), kBudget) << strategy->name();
    totals.above_050 += CountAbove(scored, 0.5);
    totals.above_075 += CountAbove(scored, 0.75);
    totals.above_100 += CountAbove(scored, 1.0);
    totals.distinct_075 += CountDistinctAbove(scored, 0.75, 1.0);
    totals.cells_075 += CountCellsAbove(scored, 0.75);
    for (const Scored& s : scored) totals.best = std::max(totals.best, s.regret);
  }
  std::printf(
      "%-14s >=0.5 %5zu  >=0.75 %5zu  >=1.0 %5zu  distinct>=0.75 %5zu  cells>=0.75 %4zu  "
      "best %.2f\n",
      make(1)->name().c_str(), totals.above_050, totals.above_075, totals.above_100,
      totals.distinct_075, totals.cells_075, totals.best);
  return totals;
}

// With its default cluttered seeds the strategy beats random on the toy objective (its hard spot
// rewards adding obstacles near one point, which 12-obstacle seeds cannot do before removing
// some, so there it finds fewer than BACRE); seeded like BACRE (one obstacle per seed), its
// novelty pressure, nudge and adaptive operators find more, and more distinct, than BACRE.
TEST(NoveltyStrategy, BeatsRandomAndSeededLikeBacreBeatsBacreOnTheToyObjective) {
  const SearchSpace space = ResearchSpace(2.0);
  const Totals random = RunThreeSeeds([&](uint64_t seed) -> std::unique_ptr<Strategy> {
    return std::make_unique<RandomStrategy>(space, RandomSettings{}, seed);
  });
  GaSettings ga_settings;
  ga_settings.generations = 0;
  const Totals ga = RunThreeSeeds([&](uint64_t seed) -> std::unique_ptr<Strategy> {
    return std::make_unique<GaStrategy>(space, ga_settings, seed);
  });
  const Totals bacre = RunThreeSeeds([&](uint64_t seed) -> std::unique_ptr<Strategy> {
    return std::make_unique<BacreStrategy>(space, BacreSettings{}, seed);
  });
  const Totals novelty = RunThreeSeeds([&](uint64_t seed) -> std::unique_ptr<Strategy> {
    return std::make_unique<NoveltyStrategy>(space, NoveltySettings{}, seed);
  });
  NoveltySettings seeded_like_bacre;
  seeded_like_bacre.seed_obstacles = 1;
  const Totals novelty_single = RunThreeSeeds([&](uint64_t seed) -> std::unique_ptr<Strategy> {
    return std::make_unique<NoveltyStrategy>(space, seeded_like_bacre, seed);
  });
  EXPECT_GT(bacre.above_075, random.above_075);
  EXPECT_GT(novelty.above_075, random.above_075);
  EXPECT_GT(novelty_single.above_075, bacre.above_075);
  EXPECT_GT(novelty_single.distinct_075, bacre.distinct_075);
  EXPECT_GT(ga.above_075, random.above_075);
}

// bacre-novelty's failure novelty (two failures crowd each other when they are the same failure
// by the toy's failure distance) finds more layout-distinct scenarios at 0.75 than its layout
// novelty, with its own seeds and seeded like BACRE.
TEST(NoveltyStrategy, FailureNoveltyFindsMoreDistinctScenariosOnTheToyObjective) {
  const SearchSpace space = ResearchSpace(2.0);
  for (const uint32_t seed_obstacles : {0u, 1u}) {
    Totals totals[2];
    for (const bool failure_novelty : {false, true}) {
      NoveltySettings settings;
      settings.seed_obstacles = seed_obstacles;
      settings.failure_novelty = failure_novelty;
      std::printf("seed_obstacles %u, failure_novelty %d: ", seed_obstacles, failure_novelty);
      totals[failure_novelty] = RunThreeSeeds(
          [&](uint64_t seed) -> std::unique_ptr<Strategy> {
            return std::make_unique<NoveltyStrategy>(space, settings, seed);
          },
          true);
    }
    EXPECT_GT(totals[1].distinct_075, totals[0].distinct_075) << seed_obstacles;
  }
}

// The quality-diversity strategy fills more archive cells at 0.75 than random sampling, which
// hardly reaches 0.75 at all, and more than BACRE, which piles its finds into few cells.
TEST(MapElitesStrategy, FindsMoreDistinctCellsAtThreeQuartersThanRandomOnTheToyObjective) {
  const SearchSpace space = ResearchSpace(2.0);
  const Totals random = RunThreeSeeds([&](uint64_t seed) -> std::unique_ptr<Strategy> {
    return std::make_unique<RandomStrategy>(space, RandomSettings{}, seed);
  });
  const Totals bacre = RunThreeSeeds([&](uint64_t seed) -> std::unique_ptr<Strategy> {
    return std::make_unique<BacreStrategy>(space, BacreSettings{}, seed);
  });
  const Totals map_elites = RunThreeSeeds([&](uint64_t seed) -> std::unique_ptr<Strategy> {
    return std::make_unique<MapElitesStrategy>(space, MapElitesSettings{}, seed);
  });
  EXPECT_GT(map_elites.cells_075, random.cells_075);
  EXPECT_GT(map_elites.cells_075, bacre.cells_075);
}

}  // namespace
}  // namespace asg::search
