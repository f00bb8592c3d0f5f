// Tests for search/strategy_registry.h.
#include "search/strategy_registry.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using nlohmann::ordered_json;
using testing::ResearchSpace;

std::string ErrorOf(const std::string& name, const ordered_json& settings) {
  try {
    MakeStrategy(name, settings, ResearchSpace(2.0), 1);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(MakeStrategy, MakesEveryKnownStrategyByName) {
  for (const std::string& name : StrategyNames()) {
    const auto strategy = MakeStrategy(name, nullptr, ResearchSpace(2.0), 1);
    ASSERT_NE(strategy, nullptr);
    EXPECT_EQ(strategy->name(), name);
    const std::vector<Candidate> asked = strategy->Ask(2);
    ASSERT_EQ(asked.size(), 2u) << name;
    EXPECT_EQ(asked[0].id, 1u);
  }
}

TEST(MakeStrategy, AppliesSettings) {
  const auto strategy =
      MakeStrategy("bacre", {{"seed_count", 2}, {"seed_obstacles", 3}}, ResearchSpace(2.0), 1);
  EXPECT_EQ(strategy->Ask(1)[0].obstacles.size(), 3u);
  const auto grid = MakeStrategy(
      "grid",
      {{"actor_class", "bush"},
       {"x_count", 2},
       {"y_count", 1},
       {"fixed", ordered_json::array({{{"class", "tree"}, {"x", 45.0}, {"y", 15.0}}})}},
      ResearchSpace(2.0), 1);
  const std::vector<Candidate> points = grid->Ask(5);
  ASSERT_EQ(points.size(), 2u);  // (0, 30) and (60, 30)
  EXPECT_EQ(points[1].obstacles[0], (Obstacle{0, 45.0, 15.0}));
  EXPECT_EQ(points[1].obstacles[1], (Obstacle{1, 60.0, 30.0}));
}

TEST(MakeStrategy, NamesAnUnknownStrategyAndListsTheKnownOnes) {
  EXPECT_EQ(ErrorOf("cmaes", nullptr),
            "unknown search strategy \"cmaes\"; known: random, grid, ga, bacre, bacre-novelty, "
            "map-elites");
}

TEST(MakeStrategy, NamesAnUnknownSetting) {
  EXPECT_EQ(ErrorOf("random", {{"max_obstacle", 3}}),
            "random has no setting \"max_obstacle\" (value 3); known: min_obstacles, "
            "max_obstacles, max_tries");
}

TEST(MakeStrategy, NamesAnIllTypedSetting) {
  EXPECT_EQ(ErrorOf("bacre", {{"curation_ratio", "wide"}}),
            "bacre setting \"curation_ratio\" is \"wide\": needs a number");
  EXPECT_EQ(ErrorOf("ga", {{"population", -5}}),
            "ga setting \"population\" is -5: needs a non-negative integer below 2^32");
  EXPECT_EQ(ErrorOf("bacre", {{"annealing", 1}}),
            "bacre setting \"annealing\" is 1: needs true or false");
  EXPECT_EQ(ErrorOf("bacre", ordered_json::array()),
            "bacre settings must be a JSON object, got []");
}

TEST(MakeStrategy, PassesOnAValueTheStrategyRejects) {
  EXPECT_NE(ErrorOf("bacre-novelty", {{"operator_floor", 0.3}}).find("operator_floor 0.3"),
            std::string::npos);
  EXPECT_NE(ErrorOf("grid", {{"fixed", ordered_json::array({{{"class", "rock"}}})}}).find("rock"),
            std::string::npos);
}

}  // namespace
}  // namespace asg::search
