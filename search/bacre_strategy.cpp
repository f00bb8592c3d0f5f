// Seeds, then one mutation of a curated (or random) told candidate per child.
#include "search/bacre_strategy.h"

#include <algorithm>
#include <stdexcept>

#include "core/number_format.h"

namespace asg::search {
namespace {

void CheckUnit(const char* name, double value) { CheckUnitInterval("bacre", name, value); }

}  // namespace

void CheckUnitInterval(const std::string& strategy, const char* name, double value) {
  if (!(value >= 0.0 && value <= 1.0)) {
    throw std::invalid_argument(strategy + ": " + name + " " + core::FormatNumber(value) +
                                " is outside [0, 1]");
  }
}

std::vector<uint64_t> CuratedIds(const History& history, double ratio) {
  const double threshold =
      history.max_regret() - ratio * (history.max_regret() - history.min_regret());
  std::vector<uint64_t> out;
  for (uint64_t id : history.told_ids()) {
    if (history.regret(id) >= threshold) out.push_back(id);
  }
  return out;
}

BacreStrategy::BacreStrategy(const SearchSpace& space, const BacreSettings& settings, uint64_t seed)
    : space_(space), settings_(settings), random_(seed) {
  CheckUnit("random_parent_probability", settings_.random_parent_probability);
  CheckUnit("curation_ratio", settings_.curation_ratio);
  CheckUnit("annealing_random_parent_probability", settings_.annealing_random_parent_probability);
  CheckUnit("annealing_curation_ratio", settings_.annealing_curation_ratio);
  if (settings_.seed_obstacles < std::max(1u, space_.min_obstacles) ||
      settings_.seed_obstacles > MaxObstacles(space_)) {
    throw std::invalid_argument("bacre: seed_obstacles " +
                                std::to_string(settings_.seed_obstacles) + " is outside the space");
  }
  if (settings_.mutations_per_child == 0 || settings_.max_tries == 0) {
    throw std::invalid_argument("bacre: mutations_per_child and max_tries must be >= 1");
  }
  mutation_.weights = {settings_.add_probability, settings_.remove_probability,
                       settings_.move_probability, 0.0};
  for (double w : mutation_.weights) {
    if (!(w >= 0.0)) throw std::invalid_argument("bacre: a mutation probability is negative");
  }
  if (mutation_.weights[0] + mutation_.weights[1] + mutation_.weights[2] <= 0.0) {
    throw std::invalid_argument("bacre: every mutation probability is 0");
  }
  mutation_.mutations_per_child = settings_.mutations_per_child;
  mutation_.max_tries = settings_.max_tries;
}

uint64_t BacreStrategy::SelectParent() {
  double random_parent = settings_.random_parent_probability;
  double ratio = settings_.curation_ratio;
  if (settings_.annealing) {
    const double t =
        settings_.annealing_iterations == 0
            ? 1.0
            : std::min(1.0, static_cast<double>(children_) / settings_.annealing_iterations);
    random_parent += (1.0 - t) * (settings_.annealing_random_parent_probability - random_parent);
    ratio += (1.0 - t) * (settings_.annealing_curation_ratio - ratio);
  }
  const std::vector<uint64_t>& told = history_.told_ids();
  if (random_.Uniform01() < random_parent) {
    return told[random_.UniformInt(0, static_cast<int64_t>(told.size()) - 1)];
  }
  const std::vector<uint64_t> curated = CuratedIds(history_, ratio);
  return curated[random_.UniformInt(0, static_cast<int64_t>(curated.size()) - 1)];
}

std::vector<Candidate> BacreStrategy::Ask(size_t count) {
  std::vector<Candidate> out;
  while (out.size() < count) {
    if (seeds_ < settings_.seed_count || history_.told_ids().empty()) {
      auto obstacles =
          SampleFeasible(space_, settings_.seed_obstacles, random_, settings_.max_tries);
      if (!obstacles) throw std::runtime_error("bacre: no feasible seed found");
      ++seeds_;
      out.push_back(history_.Propose(std::move(*obstacles), {}, "seed", 0));
      continue;
    }
    std::optional<Child> child = ProposeChild(
        space_, mutation_, random_, [this] { return SelectParent(); }, &history_);
    if (!child) throw std::runtime_error("bacre: no feasible child found");
    ++children_;
    out.push_back(std::move(child->candidate));
  }
  return out;
}

}  // namespace asg::search
