// Regret of a run against the reference plan.
#include "regret/run_regret.h"

#include <cmath>

namespace asg::regret {

RegretTerms ComputeRegret(const RunPath& run, const ReferencePlan& plan, const CostModel& model,
                          const Eigen::Vector2d& start, const Eigen::Vector2d& goal, double speed) {
  RegretTerms terms;
  terms.cost_opt = plan.cost;
  terms.time_opt = plan.time;
  const Eigen::Vector2d final_point = run.path.empty() ? start : run.path.back();
  terms.cost = model.PathCost(run.path);
  terms.time = run.sim_time;
  if (run.success) {
    // The vehicle stopped inside the goal radius; the reference agent drove to the goal itself.
    terms.cost += model.SegmentCost(final_point, goal);
    terms.time += (goal - final_point).norm() / speed;
  }
  terms.cost_term = std::abs(terms.cost - terms.cost_opt) / terms.cost_opt;
  terms.time_term = std::abs(terms.time - terms.time_opt) / terms.time_opt;
  if (!run.success) {
    const double distance = (goal - start).norm();
    if (distance > 0.0) {
      const Eigen::Vector2d at_cost = PointAt(plan.path, terms.cost, &model);
      const Eigen::Vector2d at_time = PointAt(plan.path, terms.time * speed, nullptr);
      terms.cost_position_term = (final_point - at_cost).norm() / distance;
      terms.time_position_term = (final_point - at_time).norm() / distance;
    }
  }
  terms.regret =
      terms.cost_term + terms.time_term + terms.cost_position_term + terms.time_position_term;
  return terms;
}

}  // namespace asg::regret
