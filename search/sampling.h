// Random draws every strategy shares: an obstacle of a class in its ranges, a random feasible
// candidate, and the mutations of the research method (add an obstacle, remove one, re-sample
// one coordinate), plus a local "nudge" used by bacre-novelty. Every draw comes from the
// caller's generator; the functions hold no state. A mutation or a random candidate is redrawn
// until it is feasible (space.h), at most max_tries times.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/random.h"
#include "search/space.h"

namespace asg::search {

/// The mutation operators.
enum class MutationOperator : uint32_t {
  kAdd = 0,     ///< append a random obstacle of a class with room left
  kRemove = 1,  ///< remove a random obstacle (needs more than max(1, min_obstacles))
  kMove = 2,    ///< re-sample one varying coordinate of a random obstacle uniformly in its range
  kNudge = 3,   ///< shift a random obstacle's x and y by a Gaussian step, clamped to the range
};
/// The number of mutation operators.
inline constexpr size_t kOperatorCount = 4;
/// An operator's name: "add", "remove", "move", "nudge".
const char* OperatorName(MutationOperator op);

/// Relative weights of the operators, in MutationOperator order (need not sum to 1).
using OperatorWeights = std::array<double, kOperatorCount>;

/// How a child is mutated from its parent.
struct MutationSettings {
  OperatorWeights weights{0.3, 0.3, 0.4, 0.0};  ///< add / remove / move / nudge (BACRE's)
  uint32_t mutations_per_child = 1;             ///< operators applied in a row per child
  double nudge_sigma = 3.0;                     ///< [m] standard deviation of a nudge step
  uint32_t max_tries = 200;                     ///< redraws before a mutation gives up
};

/// A standard normal draw (Box-Muller over two Uniform01 outputs).
double Gaussian(core::Random& random);

/// An obstacle of class `actor_class` with x, y, yaw and scale uniform in the class's ranges.
Obstacle SampleObstacle(const SearchSpace& space, uint32_t actor_class, core::Random& random);

/// SampleObstacle redrawn (up to 1000 times, no planning) until ClearOfStartAndGoal holds.
Obstacle SampleClearObstacle(const SearchSpace& space, uint32_t actor_class, core::Random& random);

/// Whether the obstacle keeps start_clearance from the start and goal_clearance from the goal.
bool ClearOfStartAndGoal(const SearchSpace& space, const Obstacle& obstacle);

/// A class that can take one more instance, drawn with weight max_count - current count (a
/// uniform free "slot"); nullopt when every class is full.
std::optional<uint32_t> SampleClassWithRoom(const SearchSpace& space,
                                            const std::vector<Obstacle>& obstacles,
                                            core::Random& random);

/// The largest number of obstacles a candidate may hold: the sum of the classes' max_count.
uint32_t MaxObstacles(const SearchSpace& space);

/// A random feasible candidate of `count` obstacles (classes drawn as free slots, positions
/// uniform and clear of the start and goal), redrawn whole when infeasible; nullopt after
/// `max_tries` infeasible draws or when `count` is outside [min_obstacles, MaxObstacles].
std::optional<std::vector<Obstacle>> SampleFeasible(const SearchSpace& space, size_t count,
                                                    core::Random& random, uint32_t max_tries);

/// A mutated child and the operators that made it.
struct Mutant {
  std::vector<Obstacle> obstacles;          ///< the child's obstacles (feasible)
  std::vector<MutationOperator> operators;  ///< in the order applied
  std::string origin;                       ///< operator names joined by '+', e.g. "add"
};

/// Applies settings.mutations_per_child operators to `parent`, each drawn by weight among those
/// applicable (add needs a class with room, remove more than max(1, min_obstacles) obstacles),
/// and redraws the whole child from the parent until it is feasible; nullopt after
/// settings.max_tries infeasible children or when no operator applies.
std::optional<Mutant> Mutate(const SearchSpace& space, const std::vector<Obstacle>& parent,
                             const MutationSettings& settings, core::Random& random);

}  // namespace asg::search
