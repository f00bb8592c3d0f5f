// Tests for planning/vote_grid.h.
#include "planning/vote_grid.h"

#include <gtest/gtest.h>

namespace asg::planning {
namespace {

TEST(VoteGridTest, VotesOccupyCellsOnceAndCapAtFifty) {
  VoteGrid votes(Grid::Covering(0.0, 20.0, 1.0));
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

}  // namespace
}  // namespace asg::planning
