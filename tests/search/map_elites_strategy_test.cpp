// Tests for search/map_elites_strategy.h.
#include "search/map_elites_strategy.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::ResearchSpace;
using testing::RunToy;
using testing::Scored;
using testing::ToyEvaluation;

Evaluation Described(uint64_t id, double regret, double x, double y, uint32_t outcome = 1) {
  return testing::DescribedAt(id, regret, x, y, outcome);
}

MapElitesSettings FewSeeds(uint32_t seed_count) {
  MapElitesSettings settings;
  settings.seed_count = seed_count;
  return settings;
}

TEST(MapElitesStrategy, EachCellKeepsItsHighestRegretElite) {
  MapElitesStrategy strategy(ResearchSpace(2.0), FewSeeds(6), 1);
  ASSERT_EQ(strategy.Ask(6).size(), 6u);
  EXPECT_EQ(strategy.archive(), std::vector<ArchiveEntry>{});
  strategy.Tell({Described(1, 0.5, 40.0, 20.0),     // cell (5, 2, 1, 0)
                 Described(2, 0.9, 41.0, 21.0),     // same cell, higher: replaces 1
                 Described(3, 0.9, 42.0, 22.0),     // same cell, equal: 2 stays
                 Described(4, 0.2, 40.0, 20.0, 3),  // another outcome: another cell
                 Described(5, 1.5, 5.0, 50.0, 1)});
  strategy.Tell({Described(6, 0.7, 44.0, 16.0)});  // same cell as 2, lower: 2 stays
  const std::optional<std::vector<ArchiveEntry>> archive = strategy.archive();
  ASSERT_TRUE(archive);
  ASSERT_EQ(archive->size(), 3u);
  // Ascending cell order: x, then y, then outcome.
  EXPECT_EQ((*archive)[0].cell, (ArchiveCell{0, 6, 1, 0}));
  EXPECT_EQ((*archive)[0].elite, 5u);
  EXPECT_EQ((*archive)[1].cell, (ArchiveCell{5, 2, 1, 0}));
  EXPECT_EQ((*archive)[1].elite, 2u);
  EXPECT_DOUBLE_EQ((*archive)[1].regret, 0.9);
  EXPECT_EQ((*archive)[2].cell, (ArchiveCell{5, 2, 3, 0}));
  EXPECT_EQ((*archive)[2].elite, 4u);
}

TEST(MapElitesStrategy, ChildrenMutateAnEliteOfTheArchiveAndAreFeasible) {
  const SearchSpace space = ResearchSpace(2.0);
  MapElitesStrategy strategy(space, FewSeeds(20), 5);
  std::set<uint64_t> ids_told;
  size_t children = 0;
  for (int round = 0; round < 6; ++round) {
    std::set<uint64_t> elites;
    const std::optional<std::vector<ArchiveEntry>> archive = strategy.archive();
    ASSERT_TRUE(archive);
    for (const ArchiveEntry& entry : *archive) elites.insert(entry.elite);
    const std::vector<Candidate> asked = strategy.Ask(20);
    ASSERT_EQ(asked.size(), 20u);
    std::vector<Evaluation> told;
    for (const Candidate& c : asked) {
      EXPECT_TRUE(Feasible(space, c.obstacles)) << Infeasibility(space, c.obstacles);
      if (round == 0) {
        EXPECT_EQ(c.origin, "seed");
        EXPECT_TRUE(c.parents.empty());
      } else {
        ++children;
        ASSERT_EQ(c.parents.size(), 1u);
        EXPECT_EQ(elites.count(c.parents[0]), 1u) << c.parents[0];
        // Two operators by default, e.g. "move+nudge".
        const size_t plus = c.origin.find('+');
        ASSERT_NE(plus, std::string::npos) << c.origin;
        for (const std::string& op : {c.origin.substr(0, plus), c.origin.substr(plus + 1)}) {
          EXPECT_TRUE(op == "add" || op == "remove" || op == "move" || op == "nudge") << op;
        }
      }
      told.push_back(ToyEvaluation(c, 5));
    }
    strategy.Tell(told);
  }
  EXPECT_EQ(children, 100u);
}

TEST(MapElitesStrategy, SeedsVaryInClutterAndContinueWhileTheArchiveIsEmpty) {
  const SearchSpace space = ResearchSpace(2.0);
  MapElitesStrategy strategy(space, FewSeeds(10), 2);
  std::set<size_t> sizes;
  for (const Candidate& c : strategy.Ask(10)) sizes.insert(c.obstacles.size());
  EXPECT_GT(sizes.size(), 3u);
  // Told without descriptions (an external generator's regrets): nothing to mutate yet.
  std::vector<Evaluation> told;
  for (uint64_t id = 1; id <= 10; ++id) told.push_back({id, 0.5, false});
  strategy.Tell(told);
  for (const Candidate& c : strategy.Ask(5)) EXPECT_EQ(c.origin, "seed");
}

TEST(MapElitesStrategy, SameSeedAndTellsGiveSameCandidates) {
  const SearchSpace space = ResearchSpace(2.0);
  MapElitesStrategy a(space, FewSeeds(10), 3);
  MapElitesStrategy b(space, FewSeeds(10), 3);
  const std::vector<Scored> ra = RunToy(a, 80, 10, 3);
  const std::vector<Scored> rb = RunToy(b, 80, 10, 3);
  ASSERT_EQ(ra.size(), 80u);
  ASSERT_EQ(rb.size(), 80u);
  for (size_t i = 0; i < ra.size(); ++i) EXPECT_EQ(ra[i].candidate, rb[i].candidate) << i;
  MapElitesStrategy c(space, FewSeeds(10), 4);
  EXPECT_NE(RunToy(c, 80, 10, 3)[0].candidate, ra[0].candidate);
}

TEST(MapElitesStrategy, RejectsSettingsOutOfRange) {
  const SearchSpace space = ResearchSpace(2.0);
  const auto error_of = [&](void (*edit)(MapElitesSettings*)) {
    MapElitesSettings settings;
    edit(&settings);
    try {
      MapElitesStrategy strategy(space, settings, 1);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_EQ(error_of([](MapElitesSettings* s) { s->grid_cells = 0; }),
            "map-elites: grid_cells 0 is outside 1..64");
  EXPECT_EQ(error_of([](MapElitesSettings* s) { s->near_path_bins = 17; }),
            "map-elites: near_path_bins 17 is outside 1..16");
  EXPECT_EQ(error_of([](MapElitesSettings* s) { s->seed_obstacles = 13; }),
            "map-elites: seed_obstacles 13 is outside the space's [1, 12]");
  EXPECT_EQ(error_of([](MapElitesSettings* s) { s->nudge_sigma = -1.0; }),
            "map-elites: a mutation probability or nudge_sigma is negative (-1)");
  EXPECT_EQ(error_of([](MapElitesSettings* s) {
              s->add_probability = s->remove_probability = 0.0;
              s->move_probability = s->nudge_probability = 0.0;
            }),
            "map-elites: every mutation probability is 0");
  EXPECT_EQ(error_of([](MapElitesSettings* s) { s->max_tries = 0; }),
            "map-elites: mutations_per_child and max_tries must be >= 1");
  EXPECT_EQ(error_of([](MapElitesSettings*) {}), "");
}

}  // namespace
}  // namespace asg::search
