// Regret of a run against the reference plan.
#include "regret/run_regret.h"

#include <cmath>

#include "core/check.h"

namespace asg::regret {
namespace {

// Whether a run's regret measures only its part up to the failure moment.
bool CutsAtFailure(const RunPath& run, FailureTime failure_time) {
  return !run.success && !run.path.empty() && failure_time == FailureTime::kFailureMoment;
}

// A failed run up to its failure moment: its path cut there and its time that sample's time.
RunPath CutAtFailure(const RunPath& run) {
  ASG_CHECK(run.times.size() == run.path.size());
  const size_t moment = FailureSample(run.path, kStopRadius);
  RunPath part;
  part.path.assign(run.path.begin(), run.path.begin() + static_cast<std::ptrdiff_t>(moment) + 1);
  part.times.assign(run.times.begin(), run.times.begin() + static_cast<std::ptrdiff_t>(moment) + 1);
  part.sim_time = run.times[moment];
  part.success = false;
  return part;
}

}  // namespace

size_t FailureSample(const Polyline& path, double radius) {
  ASG_CHECK(!path.empty());
  size_t moment = path.size() - 1;
  while (moment > 0 && (path[moment - 1] - path.back()).norm() <= radius) --moment;
  return moment;
}

RegretTerms ComputeRegret(const RunPath& whole_run, const ReferencePlan& plan,
                          const CostModel& model, const Eigen::Vector2d& start,
                          const Eigen::Vector2d& goal, double speed, FailureTime failure_time) {
  const bool cut_at_failure = CutsAtFailure(whole_run, failure_time);
  const RunPath cut = cut_at_failure ? CutAtFailure(whole_run) : RunPath{};
  const RunPath& run = cut_at_failure ? cut : whole_run;
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
