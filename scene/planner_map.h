// The planner driver's picture of the world: a square grid of obstacle votes, and the cost field
// the path search reads (inflated, impassable cells near obstacles plus a soft gaussian penalty
// beyond, as in the research autonomy stack).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace asg::scene {

/// Geometry of a square grid of cells covering [min, min + size * resolution]^2 in world x, y.
/// Cells are indexed row-major: index = iy * size + ix. A plain value, thread-safe to share.
struct PlannerGrid {
  double min = 0.0;         ///< [m] lowest x and y covered
  double resolution = 1.0;  ///< [m] side of one cell
  int size = 60;            ///< cells per side

  /// A grid covering [min, max]^2 with cells of `resolution` (the last cell may overhang max).
  static PlannerGrid Covering(double min, double max, double resolution);
  /// Number of cells.
  int CellCount() const { return size * size; }
  /// The column (x) or row (y) holding coordinate v [m], clamped into the grid.
  int Coordinate(double v) const;
  /// The cell holding world point (x, y) [m], clamped into the grid.
  int CellAt(double x, double y) const { return Index(Coordinate(x), Coordinate(y)); }
  /// Whether world point (x, y) [m] lies inside the grid.
  bool Contains(double x, double y) const;
  /// Row-major index of column ix and row iy.
  int Index(int ix, int iy) const { return iy * size + ix; }
  /// [m] world x, y of the centre of a cell.
  Eigen::Vector2d Center(int index) const;
};

/// Obstacle votes per cell: each line-of-sight hit on an obstacle adds one vote to the cell of
/// the hit point, up to kMaxVotes. A cell with at least one vote is occupied. Not thread-safe.
class VoteGrid {
 public:
  static constexpr int kMaxVotes = 50;  ///< vote cap per cell (the research mapper's)

  explicit VoteGrid(const PlannerGrid& grid);

  /// Adds a vote to the cell holding world point (x, y) [m]; points outside the grid are ignored.
  /// Returns the cell index if this vote made the cell occupied, -1 otherwise.
  int Vote(double x, double y);
  /// Votes in a cell, 0..kMaxVotes.
  int Votes(int index) const { return votes_[index]; }
  /// Whether a cell holds at least one vote.
  bool Occupied(int index) const { return votes_[index] > 0; }
  /// The occupied cells, in the order they became occupied.
  const std::vector<int>& OccupiedCells() const { return occupied_; }
  /// Count of votes cast since construction (including those past the cap).
  int64_t TotalVotes() const { return total_votes_; }
  const PlannerGrid& grid() const { return grid_; }

 private:
  PlannerGrid grid_;
  std::vector<uint8_t> votes_;
  std::vector<int> occupied_;
  int64_t total_votes_ = 0;
};

/// How votes turn into planning cost.
struct CostSettings {
  double inflation_radius = 2.0;  ///< [m] cells whose centre is this close to an occupied
                                  ///< cell's centre are impassable
  double penalty_sigma = 1.5;     ///< [m] spread of the soft gaussian penalty around obstacles
  double penalty_reach = 4.5;     ///< [m] beyond this distance a cell adds no penalty
};

/// The cost field the path search reads: an edge of length l between cells costs
/// l * (1 + penalty) (the mean of the two cells' penalties), and lethal cells are impassable.
/// Penalty of a cell = sum over occupied cells of votes / kMaxVotes * exp(-d^2 / (2 sigma^2)).
/// Rebuilt from a VoteGrid whenever a plan is made. Not thread-safe.
class CostField {
 public:
  CostField(const PlannerGrid& grid, const CostSettings& settings);

  /// Recomputes every cell from the votes (cost: cells within penalty_reach of each occupied cell).
  void Rebuild(const VoteGrid& votes);
  /// Soft penalty of a cell, >= 0.
  float Penalty(int index) const { return penalty_[index]; }
  /// Whether a cell is impassable (an occupied cell or within inflation_radius of one).
  bool Lethal(int index) const { return lethal_[index] != 0; }
  /// Whether a cell is occupied itself (impassable even when escaping a lethal area).
  bool Blocked(int index) const { return lethal_[index] == 2; }
  /// Marks a cell occupied without inflating around it; for tests and callers that know
  /// obstacles in advance.
  void SetBlocked(int index) { lethal_[index] = 2; }
  const PlannerGrid& grid() const { return grid_; }
  const CostSettings& settings() const { return settings_; }

 private:
  PlannerGrid grid_;
  CostSettings settings_;
  std::vector<float> penalty_;
  std::vector<uint8_t> lethal_;  // 0 passable, 1 within inflation_radius, 2 occupied
  std::vector<float> kernel_;    // gaussian weight per (dx, dy) offset within penalty_reach
  int kernel_half_ = 0;          // offsets run -kernel_half_..kernel_half_
};

}  // namespace asg::scene
