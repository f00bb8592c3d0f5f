// The one grid A* of the farm: an 8-connected search over a Grid whose problem-specific rules
// (which cells may be entered, which corners cut, what an edge costs, where the goal is, the
// heuristic) come from a rules object. The planner driver (planning/field_planner.h) and the
// regret's reference agent (regret/reference_plan.h) are its two rule sets.
//
// Order of the search, on which results depend bit for bit: the open list pops the lowest
// f = g + h first, then the deeper entry (higher g), then the lower cell index; a cell popped
// twice is skipped; neighbours are visited east, west, north, south, then north-east,
// south-east, north-west, south-west; an edge relaxes a cell only when strictly cheaper.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <queue>
#include <vector>

#include "planning/grid.h"

namespace asg::planning {

/// The rules of one search problem. Each method is called with cell indices of the grid:
///   IsGoal(cell): whether the search ends when `cell` is expanded;
///   Heuristic(cell): a lower bound of the cost from `cell` to a goal (admissible);
///   CanEnter(from, to): whether the move from `from` to its neighbour `to` is allowed;
///   CanPassCorner(from, side): whether a diagonal move from `from` may pass the side cell
///     `side` (asked for both side cells of every diagonal move);
///   EdgeCost(from, to, length): the cost of the move, `length` [m] being the distance between
///     the two cells' centres (resolution, or resolution * sqrt(2) diagonally).
template <class R>
concept SearchRules = requires(const R& rules, int cell, int other, double length) {
  { rules.IsGoal(cell) } -> std::convertible_to<bool>;
  { rules.Heuristic(cell) } -> std::convertible_to<double>;
  { rules.CanEnter(cell, other) } -> std::convertible_to<bool>;
  { rules.CanPassCorner(cell, other) } -> std::convertible_to<bool>;
  { rules.EdgeCost(cell, other, length) } -> std::convertible_to<double>;
};

/// What a search found.
struct GridPath {
  bool found = false;      ///< a goal cell was expanded
  std::vector<int> cells;  ///< the path's cells from the start cell to the goal cell reached;
                           ///< empty when not found
  double cost = 0.0;       ///< sum of the path's edge costs (0 when not found)
  int expanded = 0;        ///< cells the search expanded
};

namespace detail {

/// An entry of the open list.
struct OpenEntry {
  double f;  // cost so far + heuristic
  double g;  // cost so far
  int cell;
};

/// Orders the open list: lowest f first, then the deeper entry (higher g), then the lower index.
struct WorseEntry {
  bool operator()(const OpenEntry& a, const OpenEntry& b) const {
    if (a.f != b.f) return a.f > b.f;
    if (a.g != b.g) return a.g < b.g;
    return a.cell > b.cell;
  }
};

/// The cells from the search's start to `reached`, following `parent` links (-1 ends them).
std::vector<int> TraceCells(const std::vector<int>& parent, int reached);

inline constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
inline constexpr int kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

}  // namespace detail

/// The cheapest path from `start_cell` to the first goal cell expanded, under `rules` (see
/// SearchRules and the order above). Deterministic; thread-safe when the rules are.
template <SearchRules Rules>
GridPath SearchGrid(const Grid& grid, int start_cell, const Rules& rules) {
  const int n = grid.size;
  std::vector<double> g(grid.CellCount(), std::numeric_limits<double>::infinity());
  std::vector<int> parent(grid.CellCount(), -1);
  std::vector<uint8_t> closed(grid.CellCount(), 0);
  std::priority_queue<detail::OpenEntry, std::vector<detail::OpenEntry>, detail::WorseEntry> open;

  GridPath result;
  g[start_cell] = 0.0;
  open.push({rules.Heuristic(start_cell), 0.0, start_cell});
  int reached = -1;
  while (!open.empty()) {
    const detail::OpenEntry top = open.top();
    open.pop();
    const int cell = top.cell;
    if (closed[cell]) continue;
    closed[cell] = 1;
    ++result.expanded;
    if (rules.IsGoal(cell)) {
      reached = cell;
      break;
    }
    const int cx = cell % n, cy = cell / n;
    for (int k = 0; k < 8; ++k) {
      const int x = cx + detail::kDx[k], y = cy + detail::kDy[k];
      if (x < 0 || y < 0 || x >= n || y >= n) continue;
      const int next = grid.Index(x, y);
      if (closed[next] || !rules.CanEnter(cell, next)) continue;
      const bool diagonal = k >= 4;
      if (diagonal && !(rules.CanPassCorner(cell, grid.Index(x, cy)) &&
                        rules.CanPassCorner(cell, grid.Index(cx, y)))) {
        continue;
      }
      const double length = (diagonal ? M_SQRT2 : 1.0) * grid.resolution;
      const double tentative = g[cell] + rules.EdgeCost(cell, next, length);
      if (tentative < g[next]) {
        g[next] = tentative;
        parent[next] = cell;
        open.push({tentative + rules.Heuristic(next), tentative, next});
      }
    }
  }
  if (reached < 0) return result;
  result.found = true;
  result.cells = detail::TraceCells(parent, reached);
  result.cost = g[reached];
  return result;
}

}  // namespace asg::planning
