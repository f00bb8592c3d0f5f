// Tests for planning/grid.h.
#include "planning/grid.h"

#include <gtest/gtest.h>

namespace asg::planning {
namespace {

TEST(GridTest, CoversTheLandscapeAndMapsPointsToCells) {
  const Grid grid = Grid::Covering(0.0, 60.0, 1.0);
  EXPECT_EQ(grid.size, 60);
  EXPECT_EQ(grid.CellAt(10.2, 20.7), grid.Index(10, 20));
  EXPECT_EQ(grid.CellAt(-5.0, 75.0), grid.Index(0, 59));  // clamped
  EXPECT_TRUE(grid.Contains(59.9, 0.0));
  EXPECT_FALSE(grid.Contains(60.0, 10.0));
  const Eigen::Vector2d center = grid.Center(grid.Index(3, 4));
  EXPECT_DOUBLE_EQ(center.x(), 3.5);
  EXPECT_DOUBLE_EQ(center.y(), 4.5);
  EXPECT_EQ(Grid::Covering(-10.0, 10.0, 0.75).size, 27);  // 26.7 rounded up
}

TEST(GridTest, CellOfAPointIsTheCellOfItsCoordinates) {
  const Grid grid{-5.0, 0.5, 20};
  EXPECT_EQ(grid.CellAt(Eigen::Vector2d(-4.9, 0.2)), grid.CellAt(-4.9, 0.2));
  EXPECT_EQ(grid.CellAt(Eigen::Vector2d(-4.9, 0.2)), grid.Index(0, 10));
  EXPECT_EQ(grid.CellCount(), 400);
}

// A 6 x 6 mask with two blobs: an L of cells at the west and a diagonal pair at the east.
TEST(ConnectedAreaTest, FillsTheEightConnectedBlobOfTheSeedOnly) {
  const Grid grid{0.0, 1.0, 6};
  std::vector<uint8_t> mask(grid.CellCount(), 0);
  for (const auto& [x, y] : {std::pair{0, 0}, {0, 1}, {0, 2}, {1, 2}, {4, 4}, {5, 5}}) {
    mask[grid.Index(x, y)] = 1;
  }
  const std::vector<uint8_t> west = ConnectedArea(grid, mask, grid.Index(0, 0));
  int count = 0;
  for (uint8_t cell : west) count += cell;
  EXPECT_EQ(count, 4);
  EXPECT_TRUE(west[grid.Index(1, 2)]);
  EXPECT_FALSE(west[grid.Index(4, 4)]);
  // Diagonal neighbours are connected.
  const std::vector<uint8_t> east = ConnectedArea(grid, mask, grid.Index(4, 4));
  EXPECT_TRUE(east[grid.Index(5, 5)]);
  EXPECT_FALSE(east[grid.Index(0, 0)]);
  // A seed outside the mask gives an empty area.
  const std::vector<uint8_t> none = ConnectedArea(grid, mask, grid.Index(3, 3));
  EXPECT_EQ(none, std::vector<uint8_t>(grid.CellCount(), 0));
}

}  // namespace
}  // namespace asg::planning
