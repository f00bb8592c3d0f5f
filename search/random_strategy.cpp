// Random feasible candidates with a uniform number of obstacles.
#include "search/random_strategy.h"

#include <stdexcept>

#include "search/sampling.h"

namespace asg::search {

RandomStrategy::RandomStrategy(const SearchSpace& space, const RandomSettings& settings,
                               uint64_t seed)
    : space_(space), settings_(settings), random_(seed) {
  if (settings_.min_obstacles == 0) settings_.min_obstacles = std::max(1u, space_.min_obstacles);
  if (settings_.max_obstacles == 0) settings_.max_obstacles = MaxObstacles(space_);
  if (settings_.min_obstacles > settings_.max_obstacles ||
      settings_.max_obstacles > MaxObstacles(space_) ||
      settings_.min_obstacles < space_.min_obstacles) {
    throw std::invalid_argument(
        "random: obstacle range [" + std::to_string(settings_.min_obstacles) + ", " +
        std::to_string(settings_.max_obstacles) + "] is empty or outside the space's [" +
        std::to_string(space_.min_obstacles) + ", " + std::to_string(MaxObstacles(space_)) + "]");
  }
  if (settings_.max_tries == 0) throw std::invalid_argument("random: max_tries is 0");
}

std::vector<Candidate> RandomStrategy::Ask(size_t count) {
  std::vector<Candidate> out;
  out.reserve(count);
  while (out.size() < count) {
    std::optional<std::vector<Obstacle>> obstacles;
    for (int attempt = 0; attempt < 100 && !obstacles; ++attempt) {
      const auto n = random_.UniformInt(settings_.min_obstacles, settings_.max_obstacles);
      obstacles = SampleFeasible(space_, n, random_, settings_.max_tries);
    }
    if (!obstacles) throw std::runtime_error("random: no feasible candidate found");
    out.push_back(history_.Propose(std::move(*obstacles), {}, "random", 0));
  }
  return out;
}

}  // namespace asg::search
