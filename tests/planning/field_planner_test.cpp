// Tests for planning/field_planner.h.
#include "planning/field_planner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace asg::planning {
namespace {

const Grid kGrid = Grid::Covering(0.0, 60.0, 1.0);

// Votes a full-strength obstacle into every cell (ix, iy) listed.
CostField FieldWith(const std::vector<std::pair<int, int>>& cells) {
  VoteGrid votes(kGrid);
  for (const auto& [ix, iy] : cells) {
    for (int i = 0; i < VoteGrid::kMaxVotes; ++i) votes.Vote(ix + 0.5, iy + 0.5);
  }
  CostField field(kGrid, CostSettings{});
  field.Rebuild(votes);
  return field;
}

// Whether any point sampled every 0.1 m along the polyline lies in a lethal cell.
bool TouchesLethal(const CostField& field, const std::vector<Eigen::Vector2d>& points) {
  for (size_t i = 1; i < points.size(); ++i) {
    const double length = (points[i] - points[i - 1]).norm();
    for (double s = 0.0; s <= length; s += 0.1) {
      const Eigen::Vector2d p = points[i - 1] + (points[i] - points[i - 1]) * (s / length);
      if (field.Lethal(kGrid.CellAt(p.x(), p.y()))) return true;
    }
  }
  return false;
}

TEST(PlanPathTest, EmptyGridGivesAStraightPathOfEuclideanLength) {
  const CostField field = FieldWith({});
  for (const auto& [start, goal] : std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>>{
           {{10.0, 10.0}, {50.0, 50.0}}, {{5.0, 10.0}, {55.0, 30.0}}, {{50.0, 8.0}, {3.0, 41.0}}}) {
    const PlannedPath plan = PlanPath(field, start, goal, 0.0);
    ASSERT_TRUE(plan.found);
    EXPECT_EQ(plan.points.front(), start);
    EXPECT_LT((plan.points.back() - goal).norm(), 0.75);
    const std::vector<Eigen::Vector2d> smooth = ShortcutPath(field, plan.points);
    const double euclid = (goal - start).norm();
    EXPECT_NEAR(PathLength(smooth), euclid, 0.05 * euclid) << start.transpose();
    EXPECT_LE(smooth.size(), plan.points.size());
    // The raw 8-connected path stays within the octile bound (at worst 1.0824 times euclidean)
    // plus the step from the start point to its cell's neighbour.
    EXPECT_LT(PathLength(plan.points), 1.0824 * euclid + 1.5);
  }
}

TEST(PlanPathTest, StopsAtTheEdgeOfTheGoalTolerance) {
  const CostField field = FieldWith({});
  const PlannedPath plan = PlanPath(field, {10.0, 10.0}, {50.0, 50.0}, 4.0);
  ASSERT_TRUE(plan.found);
  const double end = (plan.points.back() - Eigen::Vector2d(50.0, 50.0)).norm();
  EXPECT_LE(end, 4.0);
  EXPECT_GT(end, 3.0);
}

TEST(PlanPathTest, RoutesAroundAWall) {
  // A wall x = 30, y from 0 to 45, between start and goal; the only way is around its north end.
  std::vector<std::pair<int, int>> wall;
  for (int iy = 0; iy <= 45; ++iy) wall.push_back({30, iy});
  const CostField field = FieldWith(wall);
  const Eigen::Vector2d start(10.0, 20.0), goal(50.0, 20.0);
  const PlannedPath plan = PlanPath(field, start, goal, 0.0);
  ASSERT_TRUE(plan.found);
  EXPECT_FALSE(TouchesLethal(field, plan.points));
  double highest = 0.0;
  for (const Eigen::Vector2d& p : plan.points) highest = std::max(highest, p.y());
  EXPECT_GT(highest, 48.0);  // past the wall's end (45) plus the inflation (2)
  const std::vector<Eigen::Vector2d> smooth = ShortcutPath(field, plan.points);
  EXPECT_FALSE(TouchesLethal(field, smooth));
  EXPECT_LT(PathLength(smooth), PathLength(plan.points));
  EXPECT_GT(PathLength(smooth), 2.0 * std::hypot(20.0, 28.0));  // no shortcut through the wall
}

TEST(PlanPathTest, ReportsNoPathToAnEnclosedGoal) {
  // A closed square ring of occupied cells around the goal.
  std::vector<std::pair<int, int>> ring;
  for (int i = 40; i <= 56; ++i) {
    ring.push_back({i, 40});
    ring.push_back({i, 56});
    ring.push_back({40, i});
    ring.push_back({56, i});
  }
  const CostField field = FieldWith(ring);
  const PlannedPath plan = PlanPath(field, {10.0, 10.0}, {48.0, 48.0}, 4.0);
  EXPECT_FALSE(plan.found);
  EXPECT_TRUE(plan.points.empty());
  EXPECT_GT(plan.expanded, 1000);  // it searched the whole outside before giving up
  // A gap of 7 cells (wider than twice the inflation) in the south wall opens it.
  std::vector<std::pair<int, int>> open_ring;
  for (const auto& c : ring) {
    if (!(c.second == 40 && c.first >= 45 && c.first <= 51)) open_ring.push_back(c);
  }
  EXPECT_TRUE(PlanPath(FieldWith(open_ring), {10.0, 10.0}, {48.0, 48.0}, 4.0).found);
}

TEST(PlanPathTest, EscapesFromAStartInsideTheInflation) {
  const CostField field = FieldWith({{20, 20}});
  const Eigen::Vector2d start(21.6, 20.5);  // 1.1 m from the occupied cell's centre
  ASSERT_TRUE(field.Lethal(kGrid.CellAt(start.x(), start.y())));
  const PlannedPath plan = PlanPath(field, start, {40.0, 20.5}, 0.0);
  ASSERT_TRUE(plan.found);
  for (size_t i = 1; i < plan.points.size(); ++i) {
    EXPECT_FALSE(field.Blocked(kGrid.CellAt(plan.points[i].x(), plan.points[i].y())));
  }
  // Once out, it never re-enters a lethal cell.
  bool left = false;
  for (const Eigen::Vector2d& p : plan.points) {
    const bool lethal = field.Lethal(kGrid.CellAt(p.x(), p.y()));
    if (!lethal) left = true;
    EXPECT_FALSE(left && lethal);
  }
  EXPECT_TRUE(left);
}

TEST(PlanPathTest, HandComputedStraightAndDiagonalPaths) {
  const CostField field = FieldWith({});
  // Three cells east: cost 3, through the centres of the cells passed.
  const PlannedPath east = PlanPath(field, {10.5, 10.5}, {13.5, 10.5}, 0.0);
  ASSERT_TRUE(east.found);
  EXPECT_DOUBLE_EQ(east.cost, 3.0);
  const std::vector<Eigen::Vector2d> expected_east{
      {10.5, 10.5}, {11.5, 10.5}, {12.5, 10.5}, {13.5, 10.5}};
  EXPECT_EQ(east.points, expected_east);
  // Three cells north-east: three diagonal steps of sqrt(2).
  const PlannedPath diagonal = PlanPath(field, {0.5, 0.5}, {3.5, 3.5}, 0.0);
  ASSERT_TRUE(diagonal.found);
  EXPECT_NEAR(diagonal.cost, 3.0 * std::sqrt(2.0), 1e-12);
  EXPECT_EQ(diagonal.points.size(), 4u);
  // Two east and one north: one diagonal and one straight step, 1 + sqrt(2).
  EXPECT_NEAR(PlanPath(field, {5.5, 5.5}, {7.5, 6.5}, 0.0).cost, 1.0 + std::sqrt(2.0), 1e-12);
  // Start and goal in the same cell: nothing to do.
  const PlannedPath here = PlanPath(field, {5.2, 5.7}, {5.9, 5.1}, 0.0);
  ASSERT_TRUE(here.found);
  EXPECT_EQ(here.cost, 0.0);
  EXPECT_EQ(here.points.size(), 1u);
}

// Independent reference for PlanPath's cost: Dijkstra over every cell with the documented rules
// (8-connected; lethal cells neither entered nor cut past diagonally; an edge of length l costs
// l * (1 + mean penalty of its two cells); goal = a passable cell whose centre lies within the
// tolerance, or the goal's own cell). Returns infinity when no goal cell is reachable.
double BruteForceCost(const CostField& field, int start, const Eigen::Vector2d& goal,
                      double tolerance) {
  const Grid& grid = field.grid();
  const int n = grid.size;
  const int goal_cell = grid.CellAt(goal.x(), goal.y());
  std::vector<double> best(grid.CellCount(), std::numeric_limits<double>::infinity());
  std::vector<bool> done(grid.CellCount(), false);
  best[start] = 0.0;
  for (;;) {
    int cell = -1;
    for (int i = 0; i < grid.CellCount(); ++i) {
      if (!done[i] && std::isfinite(best[i]) && (cell < 0 || best[i] < best[cell])) cell = i;
    }
    if (cell < 0) return std::numeric_limits<double>::infinity();
    done[cell] = true;
    const bool goal_here = cell == goal_cell || (grid.Center(cell) - goal).norm() <= tolerance;
    if (goal_here && !field.Lethal(cell)) return best[cell];
    const int cx = cell % n, cy = cell / n;
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        const int x = cx + dx, y = cy + dy;
        if ((dx == 0 && dy == 0) || x < 0 || y < 0 || x >= n || y >= n) continue;
        const int next = grid.Index(x, y);
        if (field.Lethal(next)) continue;
        if (dx != 0 && dy != 0 &&
            (field.Lethal(grid.Index(x, cy)) || field.Lethal(grid.Index(cx, y)))) {
          continue;
        }
        const double length = (dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0) * grid.resolution;
        const double cost =
            length * (1.0 + 0.5 * (double{field.Penalty(cell)} + double{field.Penalty(next)}));
        best[next] = std::min(best[next], best[cell] + cost);
      }
    }
  }
}

TEST(PlanPathTest, CostMatchesABruteForceDijkstraOnRandomSmallGrids) {
  const Grid grid = Grid::Covering(0.0, 12.0, 1.0);
  CostSettings settings;
  settings.inflation_radius = 1.2;  // an obstacle's four side neighbours are lethal too
  std::mt19937 random(20240611);    // fixed seed: the same grids every run
  std::uniform_int_distribution<int> coordinate(0, grid.size - 1);
  std::uniform_int_distribution<int> obstacles(2, 9);
  std::uniform_int_distribution<int> votes(1, VoteGrid::kMaxVotes);
  int compared = 0, unreachable = 0;
  for (int trial = 0; trial < 200; ++trial) {
    VoteGrid grid_votes(grid);
    for (int k = obstacles(random); k > 0; --k) {
      const double x = coordinate(random) + 0.5, y = coordinate(random) + 0.5;
      for (int v = votes(random); v > 0; --v) grid_votes.Vote(x, y);
    }
    CostField field(grid, settings);
    field.Rebuild(grid_votes);
    const Eigen::Vector2d start(coordinate(random) + 0.5, coordinate(random) + 0.5);
    const Eigen::Vector2d goal(coordinate(random) + 0.3, coordinate(random) + 0.6);
    const double tolerance = trial % 3 == 0 ? 0.0 : 1.5;
    const int start_cell = grid.CellAt(start.x(), start.y());
    if (field.Lethal(start_cell)) continue;  // the escape rule is tested on its own
    SCOPED_TRACE("trial " + std::to_string(trial));
    const double expected = BruteForceCost(field, start_cell, goal, tolerance);
    const PlannedPath plan = PlanPath(field, start, goal, tolerance);
    ASSERT_EQ(plan.found, std::isfinite(expected));
    ++compared;
    if (!plan.found) {
      ++unreachable;
      continue;
    }
    EXPECT_NEAR(plan.cost, expected, 1e-9 * (1.0 + expected));
    // The path is made of legal moves into passable cells and ends in a goal cell.
    for (size_t i = 1; i < plan.points.size(); ++i) {
      const int cell = grid.CellAt(plan.points[i].x(), plan.points[i].y());
      EXPECT_FALSE(field.Lethal(cell));
      const Eigen::Vector2d step =
          plan.points[i] - (i == 1 ? grid.Center(start_cell) : plan.points[i - 1]);
      EXPECT_LE(step.cwiseAbs().maxCoeff(), grid.resolution + 1e-9);
    }
    const Eigen::Vector2d end = plan.points.back();
    EXPECT_TRUE(grid.CellAt(end.x(), end.y()) == grid.CellAt(goal.x(), goal.y()) ||
                (end - goal).norm() <= tolerance);
  }
  // The random grids exercised both outcomes.
  EXPECT_GT(compared, 100);
  EXPECT_GT(unreachable, 0);
  EXPECT_LT(unreachable, compared);
}

}  // namespace
}  // namespace asg::planning
