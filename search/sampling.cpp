// Random obstacles, random feasible candidates and the mutation operators.
#include "search/sampling.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"

namespace asg::search {
namespace {

// Local redraws of one obstacle until it is clear of the start and goal: cheap, no planning.
constexpr int kLocalTries = 1000;

bool Varies(const Range& range) { return range.max > range.min; }

// An index drawn with the given non-negative weights; nullopt when they sum to 0.
std::optional<size_t> Pick(const OperatorWeights& weights, core::Random& random) {
  double total = 0.0;
  for (double w : weights) total += w;
  if (!(total > 0.0)) return std::nullopt;
  double u = random.Uniform01() * total;
  size_t last = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] <= 0.0) continue;
    last = i;
    if (u < weights[i]) return i;
    u -= weights[i];
  }
  return last;
}

// Applies one operator in place; false when it does not apply.
bool Apply(const SearchSpace& space, MutationOperator op, double nudge_sigma,
           std::vector<Obstacle>* obstacles, core::Random& random) {
  switch (op) {
    case MutationOperator::kAdd: {
      const std::optional<uint32_t> actor_class = SampleClassWithRoom(space, *obstacles, random);
      if (!actor_class) return false;
      obstacles->push_back(SampleClearObstacle(space, *actor_class, random));
      return true;
    }
    case MutationOperator::kRemove: {
      if (obstacles->size() <= std::max<size_t>(1, space.min_obstacles)) return false;
      const auto index = random.UniformInt(0, static_cast<int64_t>(obstacles->size()) - 1);
      obstacles->erase(obstacles->begin() + index);
      return true;
    }
    case MutationOperator::kMove: {
      if (obstacles->empty()) return false;
      Obstacle& target =
          (*obstacles)[random.UniformInt(0, static_cast<int64_t>(obstacles->size()) - 1)];
      const ActorClassSpace& actor_class = space.classes[target.actor_class];
      const std::array<std::pair<const Range*, double*>, 4> coordinates{
          {{&actor_class.x, &target.x},
           {&actor_class.y, &target.y},
           {&actor_class.yaw, &target.yaw},
           {&actor_class.scale, &target.scale}}};
      std::vector<size_t> varying;
      for (size_t i = 0; i < coordinates.size(); ++i) {
        if (Varies(*coordinates[i].first)) varying.push_back(i);
      }
      if (varying.empty()) return false;
      const auto& [range, value] =
          coordinates[varying[random.UniformInt(0, static_cast<int64_t>(varying.size()) - 1)]];
      *value = random.Uniform(range->min, range->max);
      return true;
    }
    case MutationOperator::kNudge: {
      if (obstacles->empty()) return false;
      Obstacle& target =
          (*obstacles)[random.UniformInt(0, static_cast<int64_t>(obstacles->size()) - 1)];
      const ActorClassSpace& actor_class = space.classes[target.actor_class];
      target.x = std::clamp(target.x + nudge_sigma * Gaussian(random), actor_class.x.min,
                            actor_class.x.max);
      target.y = std::clamp(target.y + nudge_sigma * Gaussian(random), actor_class.y.min,
                            actor_class.y.max);
      return true;
    }
  }
  return false;
}

// Whether the operator can apply to a candidate of this size and composition.
bool Applicable(const SearchSpace& space, MutationOperator op,
                const std::vector<Obstacle>& obstacles) {
  switch (op) {
    case MutationOperator::kAdd:
      return obstacles.size() < MaxObstacles(space);
    case MutationOperator::kRemove:
      return obstacles.size() > std::max<size_t>(1, space.min_obstacles);
    case MutationOperator::kMove:
    case MutationOperator::kNudge:
      return !obstacles.empty();
  }
  return false;
}

}  // namespace

const char* OperatorName(MutationOperator op) {
  switch (op) {
    case MutationOperator::kAdd:
      return "add";
    case MutationOperator::kRemove:
      return "remove";
    case MutationOperator::kMove:
      return "move";
    case MutationOperator::kNudge:
      return "nudge";
  }
  return "?";
}

double Gaussian(core::Random& random) {
  const double u1 = 1.0 - random.Uniform01();  // (0, 1]: the log stays finite
  const double u2 = random.Uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

Obstacle SampleObstacle(const SearchSpace& space, uint32_t actor_class, core::Random& random) {
  ASG_CHECK(actor_class < space.classes.size());
  const ActorClassSpace& c = space.classes[actor_class];
  Obstacle obstacle;
  obstacle.actor_class = actor_class;
  obstacle.x = random.Uniform(c.x.min, c.x.max);
  obstacle.y = random.Uniform(c.y.min, c.y.max);
  obstacle.yaw = random.Uniform(c.yaw.min, c.yaw.max);
  obstacle.scale = random.Uniform(c.scale.min, c.scale.max);
  return obstacle;
}

Obstacle SampleClearObstacle(const SearchSpace& space, uint32_t actor_class, core::Random& random) {
  Obstacle obstacle = SampleObstacle(space, actor_class, random);
  for (int i = 0; i < kLocalTries && !ClearOfStartAndGoal(space, obstacle); ++i) {
    obstacle = SampleObstacle(space, actor_class, random);
  }
  return obstacle;
}

bool ClearOfStartAndGoal(const SearchSpace& space, const Obstacle& obstacle) {
  const Eigen::Vector2d position(obstacle.x, obstacle.y);
  return (position - space.start).norm() >= space.start_clearance &&
         (position - space.goal).norm() >= space.goal_clearance;
}

std::optional<uint32_t> SampleClassWithRoom(const SearchSpace& space,
                                            const std::vector<Obstacle>& obstacles,
                                            core::Random& random) {
  std::vector<int64_t> room(space.classes.size());
  for (size_t c = 0; c < space.classes.size(); ++c) room[c] = space.classes[c].max_count;
  for (const Obstacle& obstacle : obstacles) {
    if (obstacle.actor_class < room.size()) --room[obstacle.actor_class];
  }
  int64_t free_slots = 0;
  for (int64_t r : room) free_slots += std::max<int64_t>(0, r);
  if (free_slots == 0) return std::nullopt;
  int64_t slot = random.UniformInt(0, free_slots - 1);
  for (size_t c = 0; c < room.size(); ++c) {
    if (room[c] <= 0) continue;
    if (slot < room[c]) return static_cast<uint32_t>(c);
    slot -= room[c];
  }
  ASG_CHECK(false);
  return std::nullopt;
}

uint32_t MaxObstacles(const SearchSpace& space) {
  uint32_t total = 0;
  for (const ActorClassSpace& c : space.classes) total += c.max_count;
  return total;
}

std::optional<std::vector<Obstacle>> SampleFeasible(const SearchSpace& space, size_t count,
                                                    core::Random& random, uint32_t max_tries) {
  if (count > MaxObstacles(space) || count < space.min_obstacles) return std::nullopt;
  for (uint32_t attempt = 0; attempt < max_tries; ++attempt) {
    std::vector<Obstacle> obstacles;
    obstacles.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      obstacles.push_back(
          SampleClearObstacle(space, *SampleClassWithRoom(space, obstacles, random), random));
    }
    if (Feasible(space, obstacles)) return obstacles;
  }
  return std::nullopt;
}

std::optional<Mutant> Mutate(const SearchSpace& space, const std::vector<Obstacle>& parent,
                             const MutationSettings& settings, core::Random& random) {
  for (uint32_t attempt = 0; attempt < settings.max_tries; ++attempt) {
    Mutant mutant;
    mutant.obstacles = parent;
    for (uint32_t m = 0; m < settings.mutations_per_child; ++m) {
      OperatorWeights weights = settings.weights;
      for (size_t i = 0; i < kOperatorCount; ++i) {
        if (!Applicable(space, static_cast<MutationOperator>(i), mutant.obstacles)) weights[i] = 0;
      }
      const std::optional<size_t> index = Pick(weights, random);
      if (!index) return std::nullopt;
      const auto op = static_cast<MutationOperator>(*index);
      // Applicable() and Apply() agree, except a move on a space whose ranges are all fixed.
      if (!Apply(space, op, settings.nudge_sigma, &mutant.obstacles, random)) continue;
      mutant.operators.push_back(op);
      if (!mutant.origin.empty()) mutant.origin += "+";
      mutant.origin += OperatorName(op);
    }
    if (!mutant.operators.empty() && Feasible(space, mutant.obstacles)) return mutant;
  }
  return std::nullopt;
}

}  // namespace asg::search
