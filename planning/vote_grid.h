// Obstacle votes per grid cell: what the planner driver's forward sensor has seen so far.
#pragma once

#include <cstdint>
#include <vector>

#include "planning/grid.h"

namespace asg::planning {

/// Obstacle votes per cell: each line-of-sight hit on an obstacle adds one vote to the cell of
/// the hit point, up to kMaxVotes. A cell with at least one vote is occupied. Not thread-safe.
class VoteGrid {
 public:
  static constexpr int kMaxVotes = 50;  ///< vote cap per cell (the research mapper's)

  explicit VoteGrid(const Grid& grid);

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
  /// The grid the votes are counted on.
  const Grid& grid() const { return grid_; }

 private:
  Grid grid_;
  std::vector<uint8_t> votes_;
  std::vector<int> occupied_;
  int64_t total_votes_ = 0;
};

}  // namespace asg::planning
