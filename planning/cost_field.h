// The cost field the planner driver's path search reads: inflated, impassable cells near
// obstacles plus a soft gaussian penalty beyond, as in the research autonomy stack.
#pragma once

#include <cstdint>
#include <vector>

#include "planning/grid.h"
#include "planning/vote_grid.h"

namespace asg::planning {

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
  CostField(const Grid& grid, const CostSettings& settings);

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
  /// The grid the field covers.
  const Grid& grid() const { return grid_; }
  /// The settings the field was made with.
  const CostSettings& settings() const { return settings_; }

 private:
  Grid grid_;
  CostSettings settings_;
  std::vector<float> penalty_;
  std::vector<uint8_t> lethal_;  // 0 passable, 1 within inflation_radius, 2 occupied
  std::vector<float> kernel_;    // gaussian weight per (dx, dy) offset within penalty_reach
  int kernel_half_ = 0;          // offsets run -kernel_half_..kernel_half_
};

}  // namespace asg::planning
