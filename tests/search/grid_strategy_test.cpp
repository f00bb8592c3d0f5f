// Tests for search/grid_strategy.h.
#include "search/grid_strategy.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::ResearchSpace;

TEST(GridStrategy, SweepsTheGridSkippingInfeasiblePointsThenStops) {
  const SearchSpace space = ResearchSpace(0.5);
  GridSettings settings;
  settings.actor_class = "bush";
  settings.x_count = 3;  // x, y in {0, 30, 60}
  settings.y_count = 3;
  settings.fixed = {{0, 45.0, 10.0}};
  GridStrategy strategy(space, settings);
  EXPECT_EQ(strategy.points(), 9u);
  std::vector<Candidate> all = strategy.Ask(5);
  ASSERT_EQ(all.size(), 5u);
  const std::vector<Candidate> rest = strategy.Ask(5);
  all.insert(all.end(), rest.begin(), rest.end());
  // (30, 30) lies on the straight path: the reference path passes too close, so it is skipped.
  ASSERT_EQ(all.size(), 8u);
  EXPECT_TRUE(strategy.Ask(5).empty());
  const double expected[8][2] = {{0, 0},   {30, 0}, {60, 0},  {0, 30},
                                 {60, 30}, {0, 60}, {30, 60}, {60, 60}};
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].id, i + 1);
    EXPECT_EQ(all[i].origin, "grid");
    ASSERT_EQ(all[i].obstacles.size(), 2u);
    EXPECT_EQ(all[i].obstacles[0], settings.fixed[0]);
    EXPECT_EQ(all[i].obstacles[1].actor_class, 1u);
    EXPECT_EQ(all[i].obstacles[1].x, expected[i][0]);
    EXPECT_EQ(all[i].obstacles[1].y, expected[i][1]);
    EXPECT_TRUE(Feasible(space, all[i].obstacles));
  }
}

TEST(GridStrategy, RejectsAnUnknownClass) {
  const SearchSpace space = ResearchSpace(2.0);
  GridSettings settings;
  settings.actor_class = "rock";
  EXPECT_THROW(GridStrategy(space, settings), std::invalid_argument);
}

}  // namespace
}  // namespace asg::search
