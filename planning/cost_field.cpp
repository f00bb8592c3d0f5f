// The planner driver's cost field: a precomputed stamp of inflation and penalty laid around
// every occupied cell.
#include "planning/cost_field.h"

#include <algorithm>
#include <cmath>

namespace asg::planning {

CostField::CostField(const Grid& grid, const CostSettings& settings)
    : grid_(grid),
      settings_(settings),
      penalty_(grid.CellCount(), 0.0f),
      lethal_(grid.CellCount(), 0) {
  // Precompute the stamp every occupied cell leaves around itself: a negative weight marks
  // "lethal", a positive one is the gaussian penalty at full votes.
  const double reach = std::max(settings.penalty_reach, settings.inflation_radius);
  kernel_half_ = static_cast<int>(std::floor(reach / grid.resolution));
  const int side = 2 * kernel_half_ + 1;
  kernel_.assign(side * side, 0.0f);
  const double two_sigma_sq = 2.0 * settings.penalty_sigma * settings.penalty_sigma;
  for (int dy = -kernel_half_; dy <= kernel_half_; ++dy) {
    for (int dx = -kernel_half_; dx <= kernel_half_; ++dx) {
      const double d = std::hypot(dx, dy) * grid.resolution;
      float& w = kernel_[(dy + kernel_half_) * side + (dx + kernel_half_)];
      if (d <= settings.inflation_radius + 1e-9) {
        w = -1.0f;
      } else if (d <= reach + 1e-9) {
        w = static_cast<float>(std::exp(-d * d / two_sigma_sq));
      }
    }
  }
}

void CostField::Rebuild(const VoteGrid& votes) {
  std::fill(penalty_.begin(), penalty_.end(), 0.0f);
  std::fill(lethal_.begin(), lethal_.end(), 0);
  const int n = grid_.size;
  const int side = 2 * kernel_half_ + 1;
  for (int cell : votes.OccupiedCells()) {
    const int cx = cell % n;
    const int cy = cell / n;
    const float weight = static_cast<float>(votes.Votes(cell)) / VoteGrid::kMaxVotes;
    const int y0 = std::max(0, cy - kernel_half_), y1 = std::min(n - 1, cy + kernel_half_);
    const int x0 = std::max(0, cx - kernel_half_), x1 = std::min(n - 1, cx + kernel_half_);
    for (int y = y0; y <= y1; ++y) {
      const float* row = &kernel_[(y - cy + kernel_half_) * side + kernel_half_ - cx];
      for (int x = x0; x <= x1; ++x) {
        const float w = row[x];
        const int index = y * n + x;
        if (w < 0.0f) {
          lethal_[index] = 1;
        } else {
          penalty_[index] += weight * w;
        }
      }
    }
  }
  for (int cell : votes.OccupiedCells()) lethal_[cell] = 2;
}

}  // namespace asg::planning
