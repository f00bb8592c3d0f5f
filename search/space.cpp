// The feasibility rules of a candidate, checked cheapest first; the reference plan runs last.
#include "search/space.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "core/number_format.h"

namespace asg::search {
namespace {

// A number as people read it in a message: up to 3 significant digits, no trailing zeros.
std::string Number(double value) { return core::FormatNumber(value, 3); }

std::string Name(const SearchSpace& space, const std::vector<Obstacle>& obstacles, size_t i) {
  return "obstacle " + std::to_string(i) + " (" +
         space.classes[obstacles[i].actor_class].path_name + ")";
}

bool InRange(const Range& range, double value) { return value >= range.min && value <= range.max; }

// The verdict on a reference plan: empty when it exists, fits the timeout and keeps its distance.
std::string Verdict(const SearchSpace& space, bool found, double time, double clearance) {
  if (!found) return "the obstacles block every reference path from start to goal";
  if (time > space.sim_timeout) {
    return "the reference path takes " + Number(time) + " s (> sim_timeout " +
           Number(space.sim_timeout) + " s)";
  }
  if (clearance < space.path_clearance) {
    return "the reference path passes " + Number(clearance) +
           " m from an obstacle (< path_clearance " + Number(space.path_clearance) + " m)";
  }
  return "";
}

}  // namespace

std::string Infeasibility(const SearchSpace& space, const std::vector<Obstacle>& obstacles) {
  for (size_t i = 0; i < obstacles.size(); ++i) {
    if (obstacles[i].actor_class >= space.classes.size()) {
      return "obstacle " + std::to_string(i) + " has class " +
             std::to_string(obstacles[i].actor_class) + " but the space has " +
             std::to_string(space.classes.size()) + " classes";
    }
  }
  // Clearance around the start and the goal.
  for (size_t i = 0; i < obstacles.size(); ++i) {
    const Eigen::Vector2d position(obstacles[i].x, obstacles[i].y);
    const double to_start = (position - space.start).norm();
    if (to_start < space.start_clearance) {
      return Name(space, obstacles, i) + " is " + Number(to_start) + " m from the start (< " +
             Number(space.start_clearance) + " m)";
    }
    const double to_goal = (position - space.goal).norm();
    if (to_goal < space.goal_clearance) {
      return Name(space, obstacles, i) + " is " + Number(to_goal) + " m from the goal (< " +
             Number(space.goal_clearance) + " m)";
    }
  }
  // Counts.
  if (obstacles.size() < space.min_obstacles) {
    return "the candidate has " + std::to_string(obstacles.size()) +
           " obstacles (< min_obstacles " + std::to_string(space.min_obstacles) + ")";
  }
  std::vector<uint32_t> counts(space.classes.size(), 0);
  for (const Obstacle& obstacle : obstacles) ++counts[obstacle.actor_class];
  for (size_t c = 0; c < space.classes.size(); ++c) {
    if (counts[c] > space.classes[c].max_count) {
      return "the candidate has " + std::to_string(counts[c]) + " of class " +
             space.classes[c].path_name + " (> max_count " +
             std::to_string(space.classes[c].max_count) + ")";
    }
  }
  // Ranges of the class.
  for (size_t i = 0; i < obstacles.size(); ++i) {
    const ActorClassSpace& actor_class = space.classes[obstacles[i].actor_class];
    if (!InRange(actor_class.x, obstacles[i].x)) {
      return Name(space, obstacles, i) + " has x " + Number(obstacles[i].x) + " m outside [" +
             Number(actor_class.x.min) + ", " + Number(actor_class.x.max) + "] m";
    }
    if (!InRange(actor_class.y, obstacles[i].y)) {
      return Name(space, obstacles, i) + " has y " + Number(obstacles[i].y) + " m outside [" +
             Number(actor_class.y.min) + ", " + Number(actor_class.y.max) + "] m";
    }
  }
  // The reference agent's plan over the non-traversable actors: the straight segment when
  // nothing can bend it (see StraightReference), else the planner's.
  if (const auto straight = StraightReference(space, obstacles)) {
    return Verdict(space, true, straight->time, straight->clearance);
  }
  const regret::ReferencePlan plan =
      regret::PlanReference(ReferenceProblemOf(space, obstacles), space.reference);
  return Verdict(space, plan.found, plan.time, plan.clearance);
}

regret::ReferenceProblem ReferenceProblemOf(const SearchSpace& space,
                                            const std::vector<Obstacle>& obstacles) {
  regret::ReferenceProblem problem;
  problem.min = space.landscape_min;
  problem.max = space.landscape_max;
  problem.start = space.start;
  problem.start_yaw = space.start_yaw;
  problem.goal = space.goal;
  for (const Obstacle& obstacle : obstacles) {
    if (space.classes[obstacle.actor_class].obstacle) {
      problem.cost.obstacles.emplace_back(obstacle.x, obstacle.y);
    }
  }
  return problem;
}

std::optional<StraightPlan> StraightReference(const SearchSpace& space,
                                              const std::vector<Obstacle>& obstacles) {
  const Eigen::Vector2d along = space.goal - space.start;
  const double length = along.norm();
  if (length <= 0.0) return std::nullopt;
  // The first move must not pay the start-turn penalty.
  const double bearing = std::atan2(along.y(), along.x()) * 180.0 / std::numbers::pi;
  const double turn = std::abs(std::remainder(bearing - space.start_yaw, 360.0));
  if (turn > 0.5 * space.reference.start_turn_limit) return std::nullopt;
  // Every obstacle out of the cost model's reach (5 sigma), plus the lethal radius and two grid
  // cells, of every point of the segment: the segment costs exactly its length, the cheapest any
  // path can, and enters no closed cell, so the straightened plan is the segment itself.
  const regret::CostModel cost;
  const double reach =
      5.0 * cost.sigma + space.reference.lethal_radius + 2.0 * space.reference.resolution;
  double clearance = std::numeric_limits<double>::infinity();
  for (const Obstacle& obstacle : obstacles) {
    if (!space.classes[obstacle.actor_class].obstacle) continue;
    const Eigen::Vector2d p(obstacle.x, obstacle.y);
    const double t = std::clamp((p - space.start).dot(along) / (length * length), 0.0, 1.0);
    const double distance = (p - (space.start + t * along)).norm();
    if (distance <= reach) return std::nullopt;
    clearance = std::min(clearance, distance);
  }
  return StraightPlan{length / space.reference.speed, clearance};
}

}  // namespace asg::search
