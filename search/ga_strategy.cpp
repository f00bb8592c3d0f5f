// Generations of crossover and mutation over a fixed obstacle layout.
#include "search/ga_strategy.h"

#include <algorithm>
#include <stdexcept>

#include "core/number_format.h"
#include "search/sampling.h"

namespace asg::search {

GaStrategy::GaStrategy(const SearchSpace& space, const GaSettings& settings, uint64_t seed)
    : space_(space), settings_(settings), random_(seed) {
  if (settings_.population < 2 || settings_.parents < 2 ||
      settings_.parents > settings_.population) {
    throw std::invalid_argument("ga: population " + std::to_string(settings_.population) +
                                " and parents " + std::to_string(settings_.parents) +
                                " need 2 <= parents <= population");
  }
  if (settings_.obstacle_count < std::max(1u, space_.min_obstacles) ||
      settings_.obstacle_count > MaxObstacles(space_)) {
    throw std::invalid_argument("ga: obstacle_count " + std::to_string(settings_.obstacle_count) +
                                " is outside the space's [" +
                                std::to_string(std::max(1u, space_.min_obstacles)) + ", " +
                                std::to_string(MaxObstacles(space_)) + "]");
  }
  if (!(settings_.mutation_probability >= 0.0 && settings_.mutation_probability <= 1.0)) {
    throw std::invalid_argument("ga: mutation_probability " +
                                core::FormatNumber(settings_.mutation_probability) +
                                " is outside [0, 1]");
  }
  if (settings_.max_tries == 0) throw std::invalid_argument("ga: max_tries is 0");
  // Deal the classes round-robin, each up to its max_count.
  std::vector<uint32_t> used(space_.classes.size(), 0);
  while (layout_.size() < settings_.obstacle_count) {
    for (size_t c = 0; c < space_.classes.size() && layout_.size() < settings_.obstacle_count;
         ++c) {
      if (used[c] < space_.classes[c].max_count) {
        ++used[c];
        layout_.push_back(static_cast<uint32_t>(c));
      }
    }
  }
}

std::vector<Obstacle> GaStrategy::RandomMember() {
  for (uint32_t attempt = 0; attempt < settings_.max_tries; ++attempt) {
    std::vector<Obstacle> obstacles;
    for (uint32_t actor_class : layout_) {
      obstacles.push_back(SampleClearObstacle(space_, actor_class, random_));
    }
    if (Feasible(space_, obstacles)) return obstacles;
  }
  throw std::runtime_error("ga: no feasible candidate of " +
                           std::to_string(settings_.obstacle_count) + " obstacles found");
}

void GaStrategy::Breed() {
  // The best of the generation, highest regret first (ties: lower id first).
  std::vector<uint64_t> ranked = generation_ids_;
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](uint64_t a, uint64_t b) { return history_.regret(a) > history_.regret(b); });
  ranked.resize(std::min<size_t>(ranked.size(), settings_.parents));
  for (size_t i = ranked.size(); i > 1; --i) {
    std::swap(ranked[i - 1], ranked[random_.UniformInt(0, static_cast<int64_t>(i) - 1)]);
  }
  const size_t families = ranked.size() / 2;
  std::vector<Pending> next;
  for (uint32_t k = 0; k < settings_.population; ++k) {
    const size_t family = k % families;
    const Candidate& a = history_.candidate(ranked[2 * family]);
    const Candidate& b = history_.candidate(ranked[2 * family + 1]);
    const size_t n = layout_.size();
    Pending child;
    for (uint32_t attempt = 0; attempt < settings_.max_tries && child.obstacles.empty();
         ++attempt) {
      const size_t cut = n > 1 ? static_cast<size_t>(random_.UniformInt(1, n - 1)) : 0;
      std::vector<Obstacle> obstacles(n);
      for (size_t i = 0; i < n; ++i) obstacles[i] = i < cut ? a.obstacles[i] : b.obstacles[i];
      const double beta = random_.Uniform01();
      obstacles[cut].x = beta * a.obstacles[cut].x + (1.0 - beta) * b.obstacles[cut].x;
      obstacles[cut].y = beta * a.obstacles[cut].y + (1.0 - beta) * b.obstacles[cut].y;
      for (Obstacle& obstacle : obstacles) {
        const ActorClassSpace& actor_class = space_.classes[obstacle.actor_class];
        if (random_.Uniform01() < settings_.mutation_probability) {
          obstacle.x = random_.Uniform(actor_class.x.min, actor_class.x.max);
        }
        if (random_.Uniform01() < settings_.mutation_probability) {
          obstacle.y = random_.Uniform(actor_class.y.min, actor_class.y.max);
        }
      }
      if (Feasible(space_, obstacles)) {
        child.obstacles = std::move(obstacles);
        child.parents = {a.id, b.id};
        child.origin = "crossover";
      }
    }
    if (child.obstacles.empty()) {
      child.obstacles = RandomMember();
      child.origin = "random";
    }
    next.push_back(std::move(child));
  }
  pending_ = std::move(next);
  next_pending_ = 0;
  generation_ids_.clear();
  ++generation_;
}

std::vector<Candidate> GaStrategy::Ask(size_t count) {
  std::vector<Candidate> out;
  while (out.size() < count) {
    if (generation_ == 0 && pending_.empty()) {
      for (uint32_t k = 0; k < settings_.population; ++k) {
        pending_.push_back({RandomMember(), {}, "random"});
      }
    }
    if (next_pending_ < pending_.size()) {
      Pending& member = pending_[next_pending_++];
      const Candidate& candidate =
          history_.Propose(std::move(member.obstacles), member.parents, member.origin, generation_);
      generation_ids_.push_back(candidate.id);
      out.push_back(candidate);
      continue;
    }
    const bool all_told = std::all_of(generation_ids_.begin(), generation_ids_.end(),
                                      [&](uint64_t id) { return history_.told(id); });
    const bool more = settings_.generations == 0 || generation_ + 1 < settings_.generations;
    if (!all_told || !more) break;
    Breed();
  }
  return out;
}

}  // namespace asg::search
