// The grid sweep of one obstacle over fixed ones.
#include "search/grid_strategy.h"

#include <stdexcept>

namespace asg::search {
namespace {

// Point i of n spanning [min, max] with both ends; the middle when n is 1.
double GridValue(const Range& range, uint32_t i, uint32_t n) {
  if (n <= 1) return 0.5 * (range.min + range.max);
  return range.min + (range.max - range.min) * i / (n - 1);
}

}  // namespace

GridStrategy::GridStrategy(const SearchSpace& space, const GridSettings& settings)
    : space_(space), settings_(settings) {
  if (space_.classes.empty()) throw std::invalid_argument("grid: the space has no classes");
  if (!settings_.actor_class.empty()) {
    bool found = false;
    for (size_t c = 0; c < space_.classes.size() && !found; ++c) {
      if (space_.classes[c].path_name == settings_.actor_class) {
        actor_class_ = static_cast<uint32_t>(c);
        found = true;
      }
    }
    if (!found) {
      throw std::invalid_argument("grid: actor_class \"" + settings_.actor_class +
                                  "\" is not a class of the space");
    }
  }
  if (settings_.x_count == 0 || settings_.y_count == 0) {
    throw std::invalid_argument("grid: x_count and y_count must be >= 1 (got " +
                                std::to_string(settings_.x_count) + ", " +
                                std::to_string(settings_.y_count) + ")");
  }
  for (size_t i = 0; i < settings_.fixed.size(); ++i) {
    if (settings_.fixed[i].actor_class >= space_.classes.size()) {
      throw std::invalid_argument("grid: fixed[" + std::to_string(i) + "] has class index " +
                                  std::to_string(settings_.fixed[i].actor_class) +
                                  " outside the space");
    }
  }
}

std::vector<Candidate> GridStrategy::Ask(size_t count) {
  std::vector<Candidate> out;
  const ActorClassSpace& swept = space_.classes[actor_class_];
  while (out.size() < count && next_point_ < points()) {
    const uint32_t i = static_cast<uint32_t>(next_point_ % settings_.x_count);
    const uint32_t j = static_cast<uint32_t>(next_point_ / settings_.x_count);
    ++next_point_;
    std::vector<Obstacle> obstacles = settings_.fixed;
    Obstacle obstacle;
    obstacle.actor_class = actor_class_;
    obstacle.x = GridValue(swept.x, i, settings_.x_count);
    obstacle.y = GridValue(swept.y, j, settings_.y_count);
    obstacle.yaw = swept.yaw.min;
    obstacle.scale = swept.scale.min;
    obstacles.push_back(obstacle);
    if (!Feasible(space_, obstacles)) continue;
    out.push_back(history_.Propose(std::move(obstacles), {}, "grid", 0));
  }
  return out;
}

}  // namespace asg::search
