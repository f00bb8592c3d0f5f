// Tests for planning/cost_field.h.
#include "planning/cost_field.h"

#include <gtest/gtest.h>

#include <cmath>

namespace asg::planning {
namespace {

TEST(CostFieldTest, InflatesOccupiedCellsAndAddsAGaussianPenaltyBeyond) {
  const Grid grid = Grid::Covering(0.0, 30.0, 1.0);
  VoteGrid votes(grid);
  for (int i = 0; i < VoteGrid::kMaxVotes; ++i) votes.Vote(15.5, 15.5);
  CostField field(grid, CostSettings{});
  field.Rebuild(votes);
  EXPECT_TRUE(field.Blocked(grid.Index(15, 15)));
  EXPECT_TRUE(field.Lethal(grid.Index(17, 15)));  // 2 m away: within the inflation radius
  EXPECT_FALSE(field.Blocked(grid.Index(17, 15)));
  EXPECT_TRUE(field.Lethal(grid.Index(16, 16)));   // 1.41 m
  EXPECT_FALSE(field.Lethal(grid.Index(18, 15)));  // 3 m
  EXPECT_FALSE(field.Lethal(grid.Index(17, 17)));  // 2.83 m
  // Full votes: penalty = exp(-d^2 / (2 * 1.5^2)).
  EXPECT_NEAR(field.Penalty(grid.Index(18, 15)), std::exp(-9.0 / 4.5), 1e-6);
  EXPECT_NEAR(field.Penalty(grid.Index(19, 15)), std::exp(-16.0 / 4.5), 1e-6);
  EXPECT_EQ(field.Penalty(grid.Index(20, 15)), 0.0f);  // 5 m: beyond the 4.5 m reach
  EXPECT_EQ(field.Penalty(grid.Index(2, 2)), 0.0f);

  // Half the votes, half the penalty; the map is rebuilt from scratch each time.
  VoteGrid fewer(grid);
  for (int i = 0; i < VoteGrid::kMaxVotes / 2; ++i) fewer.Vote(15.5, 15.5);
  field.Rebuild(fewer);
  EXPECT_NEAR(field.Penalty(grid.Index(18, 15)), 0.5 * std::exp(-9.0 / 4.5), 1e-6);
  field.Rebuild(VoteGrid(grid));
  EXPECT_FALSE(field.Lethal(grid.Index(15, 15)));
}

}  // namespace
}  // namespace asg::planning
