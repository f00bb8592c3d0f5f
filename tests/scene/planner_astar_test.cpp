// Tests for scene/planner_astar.h.
#include "scene/planner_astar.h"

#include <gtest/gtest.h>

#include <cmath>

namespace asg::scene {
namespace {

const PlannerGrid kGrid = PlannerGrid::Covering(0.0, 60.0, 1.0);

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

TEST(PlanPathTest, SameInputsGiveTheSamePath) {
  const CostField field = FieldWith({{30, 30}, {31, 30}, {25, 35}});
  const PlannedPath a = PlanPath(field, {10.0, 10.0}, {50.0, 50.0}, 4.0);
  const PlannedPath b = PlanPath(field, {10.0, 10.0}, {50.0, 50.0}, 4.0);
  EXPECT_EQ(a.points, b.points);
  EXPECT_EQ(a.cost, b.cost);
}

}  // namespace
}  // namespace asg::scene
