// Tests for planning/astar.h.
#include "planning/astar.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

namespace asg::planning {
namespace {

// Rules on hand-built fields: edges cost their length times 1 + the mean of the two cells'
// penalties; blocked cells are neither entered nor cut past unless `cut_corners`; without
// `diagonals` no corner may be passed (4-connected); the heuristic is the straight distance to the
// goal cell's centre, or 0 with `dijkstra`.
struct HandRules {
  const Grid* grid = nullptr;
  int goal = 0;
  std::set<int> blocked;
  std::vector<double> penalty;  // per cell; empty = none
  bool cut_corners = false;
  bool diagonals = true;
  bool dijkstra = false;

  bool IsGoal(int cell) const { return cell == goal; }
  double Heuristic(int cell) const {
    return dijkstra ? 0.0 : (grid->Center(cell) - grid->Center(goal)).norm();
  }
  bool CanEnter(int, int to) const { return !blocked.contains(to); }
  bool CanPassCorner(int, int side) const {
    return diagonals && (cut_corners || !blocked.contains(side));
  }
  double EdgeCost(int from, int to, double length) const {
    if (penalty.empty()) return length;
    return length * (1.0 + 0.5 * (penalty[from] + penalty[to]));
  }
};

const Grid kGrid{0.0, 1.0, 6};  // 6 x 6 cells of 1 m

HandRules RulesTo(int x, int y) {
  HandRules rules;
  rules.grid = &kGrid;
  rules.goal = kGrid.Index(x, y);
  return rules;
}

TEST(SearchGridTest, FindsTheShortestOctilePathOnAnOpenField) {
  const GridPath path = SearchGrid(kGrid, kGrid.Index(0, 0), RulesTo(3, 1));
  ASSERT_TRUE(path.found);
  // One diagonal and two straight steps: 2 + sqrt(2), through four cells.
  EXPECT_DOUBLE_EQ(path.cost, 2.0 + std::sqrt(2.0));
  ASSERT_EQ(path.cells.size(), 4u);
  EXPECT_EQ(path.cells.front(), kGrid.Index(0, 0));
  EXPECT_EQ(path.cells.back(), kGrid.Index(3, 1));
  EXPECT_GE(path.expanded, 4);
  // Start and goal in one cell: a path of that cell alone.
  const GridPath here = SearchGrid(kGrid, kGrid.Index(2, 2), RulesTo(2, 2));
  ASSERT_TRUE(here.found);
  EXPECT_EQ(here.cells, std::vector<int>{kGrid.Index(2, 2)});
  EXPECT_EQ(here.cost, 0.0);
  EXPECT_EQ(here.expanded, 1);
}

TEST(SearchGridTest, GoesAroundBlockedCellsAndFailsWhenTheyEncloseTheGoal) {
  // A wall at x = 2 from y = 0 to y = 4: the way from (0, 0) to (4, 0) is over its north end.
  HandRules rules = RulesTo(4, 0);
  for (int y = 0; y <= 4; ++y) rules.blocked.insert(kGrid.Index(2, y));
  const GridPath path = SearchGrid(kGrid, kGrid.Index(0, 0), rules);
  ASSERT_TRUE(path.found);
  for (int cell : path.cells) EXPECT_FALSE(rules.blocked.contains(cell)) << cell;
  EXPECT_TRUE(std::find(path.cells.begin(), path.cells.end(), kGrid.Index(2, 5)) !=
              path.cells.end());
  // Up the west side to (1, 5) (4 + sqrt 2), through the gap to (3, 5) (2: cutting past the
  // wall's end is not allowed), down to (4, 0) (4 + sqrt 2).
  EXPECT_DOUBLE_EQ(path.cost, 10.0 + 2.0 * std::sqrt(2.0));
  // Closing the gap leaves no way: every cell west of the wall is expanded, then it gives up.
  rules.blocked.insert(kGrid.Index(2, 5));
  const GridPath none = SearchGrid(kGrid, kGrid.Index(0, 0), rules);
  EXPECT_FALSE(none.found);
  EXPECT_TRUE(none.cells.empty());
  EXPECT_EQ(none.expanded, 12);
}

TEST(SearchGridTest, DiagonalMovesDoNotCutPastABlockedCorner) {
  // (1, 0) blocked: the diagonal (0, 0) -> (1, 1) would pass it, so the path goes via (0, 1).
  HandRules rules = RulesTo(1, 1);
  rules.blocked.insert(kGrid.Index(1, 0));
  const GridPath path = SearchGrid(kGrid, kGrid.Index(0, 0), rules);
  ASSERT_TRUE(path.found);
  EXPECT_EQ(path.cells,
            (std::vector<int>{kGrid.Index(0, 0), kGrid.Index(0, 1), kGrid.Index(1, 1)}));
  EXPECT_DOUBLE_EQ(path.cost, 2.0);
  // Rules that allow the cut take the diagonal.
  rules.cut_corners = true;
  const GridPath cut = SearchGrid(kGrid, kGrid.Index(0, 0), rules);
  EXPECT_EQ(cut.cells, (std::vector<int>{kGrid.Index(0, 0), kGrid.Index(1, 1)}));
  EXPECT_DOUBLE_EQ(cut.cost, std::sqrt(2.0));
}

TEST(SearchGridTest, EqualCostsAreSettledByTheLowerCellIndex) {
  // From (1, 1) to (0, 0) without diagonals: via (0, 1) (index 6) or (1, 0) (index 1), both
  // cost 2. (0, 1) is pushed first (west before south), yet the lower index is expanded first and
  // becomes the parent.
  HandRules rules = RulesTo(0, 0);
  rules.dijkstra = true;
  rules.diagonals = false;
  const GridPath path = SearchGrid(kGrid, kGrid.Index(1, 1), rules);
  ASSERT_TRUE(path.found);
  EXPECT_EQ(path.cells,
            (std::vector<int>{kGrid.Index(1, 1), kGrid.Index(1, 0), kGrid.Index(0, 0)}));
  EXPECT_DOUBLE_EQ(path.cost, 2.0);
}

TEST(SearchGridTest, CostEqualsTheSumOfItsEdgesAndRepeatsBitForBit) {
  const Grid grid{0.0, 0.5, 24};
  std::mt19937 random(7);  // fixed seed: the same field every run
  std::uniform_real_distribution<double> penalty(0.0, 2.0);
  HandRules rules;
  rules.grid = &grid;
  rules.goal = grid.Index(20, 17);
  for (int i = 0; i < grid.CellCount(); ++i) rules.penalty.push_back(penalty(random));
  for (int i = 0; i < 60; ++i) rules.blocked.insert(static_cast<int>(random() % 400) + 100);
  rules.blocked.erase(rules.goal);
  const GridPath first = SearchGrid(grid, grid.Index(1, 2), rules);
  ASSERT_TRUE(first.found);
  double sum = 0.0;
  for (size_t i = 1; i < first.cells.size(); ++i) {
    const int a = first.cells[i - 1], b = first.cells[i];
    const bool diagonal = a % grid.size != b % grid.size && a / grid.size != b / grid.size;
    sum += rules.EdgeCost(a, b, (diagonal ? M_SQRT2 : 1.0) * grid.resolution);
  }
  EXPECT_DOUBLE_EQ(first.cost, sum);
  const GridPath second = SearchGrid(grid, grid.Index(1, 2), rules);
  EXPECT_EQ(second.cells, first.cells);
  EXPECT_EQ(second.cost, first.cost);
  EXPECT_EQ(second.expanded, first.expanded);
  // Dijkstra (no heuristic) finds the same cost and expands at least as many cells.
  rules.dijkstra = true;
  const GridPath dijkstra = SearchGrid(grid, grid.Index(1, 2), rules);
  EXPECT_NEAR(dijkstra.cost, first.cost, 1e-9);
  EXPECT_GE(dijkstra.expanded, first.expanded);
}

}  // namespace
}  // namespace asg::planning
