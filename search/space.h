// The search space of scenario generation: which obstacles a candidate scenario may hold and
// where, and when a candidate is feasible (the research method's rules: no obstacle near the
// start or the goal, and a reference path that fits the timeout and keeps its distance from
// every obstacle; docs/regret.md has the reference agent).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regret/reference_plan.h"

namespace asg::search {

/// One actor of a candidate scenario.
struct Obstacle {
  uint32_t actor_class = 0;  ///< index into SearchSpace::classes
  double x = 0.0;            ///< [m] north
  double y = 0.0;            ///< [m] west
  double yaw = 0.0;          ///< [deg] CCW from +x
  double scale = 1.0;        ///< uniform scale
  bool operator==(const Obstacle&) const = default;
};

/// A [min, max] range of a sampled quantity (min == max: fixed).
struct Range {
  double min = 0.0;
  double max = 0.0;
};

/// One actor class a candidate may hold.
struct ActorClassSpace {
  std::string path_name;   ///< the catalog class (or alias), e.g. "tree"
  uint32_t max_count = 6;  ///< at most this many instances of the class in a candidate
  Range x{0.0, 60.0};      ///< [m]
  Range y{0.0, 60.0};      ///< [m]
  Range yaw{0.0, 0.0};     ///< [deg]
  Range scale{1.0, 1.0};   ///< uniform scale
  bool obstacle = true;    ///< non-traversable: counts for feasibility and regret
};

/// The space and the feasibility rules.
struct SearchSpace {
  std::vector<ActorClassSpace> classes;  ///< in order
  uint32_t min_obstacles = 1;            ///< fewest actors in a candidate
  double landscape_min = 0.0;            ///< [m] bounds of the reference agent's grid
  double landscape_max = 60.0;           ///< [m]
  Eigen::Vector2d start{10.0, 10.0};     ///< [m]
  double start_yaw = 45.0;               ///< [deg]
  Eigen::Vector2d goal{50.0, 50.0};      ///< [m]
  double sim_timeout = 17.0;             ///< [s] the reference path must fit in it
  double start_clearance = 10.0;         ///< [m] no obstacle closer to the start
  double goal_clearance = 10.0;          ///< [m] no obstacle closer to the goal
  double path_clearance = 4.0;           ///< [m] the reference path keeps this far from obstacles
  regret::ReferenceSettings reference;   ///< the reference agent's parameters
};

/// The reference agent's problem of a candidate: the space's bounds, start (with its yaw) and
/// goal, and the candidate's non-traversable actors (classes with `obstacle`).
regret::ReferenceProblem ReferenceProblemOf(const SearchSpace& space,
                                            const std::vector<Obstacle>& obstacles);

/// The reference plan of a candidate whose plan is the straight segment from start to goal.
struct StraightPlan {
  double time = 0.0;       ///< [s] segment length / reference speed
  double clearance = 0.0;  ///< [m] smallest distance of the segment to an obstacle
};

/// The reference plan without planning, when it is known to be the straight segment: the goal
/// lies within half the start-turn limit of the start heading and every obstacle is farther from
/// the segment than the cost model's reach (5 sigma) plus the lethal radius and two cells, so
/// the segment costs exactly its length and the planner's straightened path is the segment.
/// nullopt otherwise. Infeasibility uses it to skip the planner; the verdict is the same.
std::optional<StraightPlan> StraightReference(const SearchSpace& space,
                                              const std::vector<Obstacle>& obstacles);

/// Why a candidate is infeasible, or empty when it is feasible.
std::string Infeasibility(const SearchSpace& space, const std::vector<Obstacle>& obstacles);
/// Infeasibility(...).empty().
inline bool Feasible(const SearchSpace& space, const std::vector<Obstacle>& obstacles) {
  return Infeasibility(space, obstacles).empty();
}

}  // namespace asg::search
