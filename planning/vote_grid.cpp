// Vote counting of the planner driver's map.
#include "planning/vote_grid.h"

namespace asg::planning {

VoteGrid::VoteGrid(const Grid& grid) : grid_(grid), votes_(grid.CellCount(), 0) {}

int VoteGrid::Vote(double x, double y) {
  if (!grid_.Contains(x, y)) return -1;
  ++total_votes_;
  const int index = grid_.CellAt(x, y);
  uint8_t& v = votes_[index];
  if (v >= kMaxVotes) return -1;
  ++v;
  if (v != 1) return -1;
  occupied_.push_back(index);
  return index;
}

}  // namespace asg::planning
