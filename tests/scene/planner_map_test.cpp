// Tests for scene/planner_map.h.
#include "scene/planner_map.h"

#include <gtest/gtest.h>

namespace asg::scene {
namespace {

TEST(PlannerGridTest, CoversTheLandscapeAndMapsPointsToCells) {
  const PlannerGrid grid = PlannerGrid::Covering(0.0, 60.0, 1.0);
  EXPECT_EQ(grid.size, 60);
  EXPECT_EQ(grid.CellAt(10.2, 20.7), grid.Index(10, 20));
  EXPECT_EQ(grid.CellAt(-5.0, 75.0), grid.Index(0, 59));  // clamped
  EXPECT_TRUE(grid.Contains(59.9, 0.0));
  EXPECT_FALSE(grid.Contains(60.0, 10.0));
  const Eigen::Vector2d center = grid.Center(grid.Index(3, 4));
  EXPECT_DOUBLE_EQ(center.x(), 3.5);
  EXPECT_DOUBLE_EQ(center.y(), 4.5);
  EXPECT_EQ(PlannerGrid::Covering(-10.0, 10.0, 0.75).size, 27);  // 26.7 rounded up
}

TEST(VoteGridTest, VotesOccupyCellsOnceAndCapAtFifty) {
  VoteGrid votes(PlannerGrid::Covering(0.0, 20.0, 1.0));
  const int cell = votes.grid().CellAt(5.5, 6.5);
  EXPECT_EQ(votes.Vote(5.5, 6.5), cell);  // first vote: newly occupied
  EXPECT_EQ(votes.Vote(5.1, 6.9), -1);    // same cell: already occupied
  EXPECT_EQ(votes.Votes(cell), 2);
  for (int i = 0; i < 100; ++i) votes.Vote(5.5, 6.5);
  EXPECT_EQ(votes.Votes(cell), VoteGrid::kMaxVotes);
  EXPECT_EQ(votes.Vote(25.0, 5.0), -1);  // outside: ignored
  EXPECT_EQ(votes.OccupiedCells(), std::vector<int>{cell});
  EXPECT_EQ(votes.TotalVotes(), 102);
}

TEST(CostFieldTest, InflatesOccupiedCellsAndAddsAGaussianPenaltyBeyond) {
  const PlannerGrid grid = PlannerGrid::Covering(0.0, 30.0, 1.0);
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
}  // namespace asg::scene
