// The world as the regret measure sees it.
#include "worker/regret_problem.h"

#include <cmath>

namespace asg::worker {

regret::ReferenceProblem ReferenceProblemOf(const scene::World& world) {
  regret::ReferenceProblem problem;
  problem.min = world.landscape->min_xy();
  problem.max = world.landscape->max_xy();
  problem.start = world.start.head<2>();
  problem.start_yaw = world.start_yaw;
  problem.goal = world.goal.head<2>();
  for (const scene::ActorInstance& actor : world.actors) {
    if (!actor.traversable) problem.cost.obstacles.push_back(actor.position.head<2>());
  }
  return problem;
}

regret::ReferenceProblem RunReferenceProblem(const scene::World& world,
                                             const protocol::RunScenarioRequest& request) {
  regret::ReferenceProblem problem = ReferenceProblemOf(world);
  problem.start = {request.vehicle_start_location.x, request.vehicle_start_location.y};
  problem.start_yaw = request.vehicle_start_yaw;
  return problem;
}

regret::FailureTime FailureTimeOf(const protocol::RunScenarioRequest& request) {
  return request.regret ? request.regret->failure_time : protocol::RegretSpec{}.failure_time;
}

protocol::RegretReport RegretOf(const protocol::AnalyzeScenarioRequest& run,
                                const regret::ReferenceProblem& problem,
                                const regret::ReferencePlan& plan,
                                const regret::ReferenceSettings& settings,
                                regret::FailureTime failure_time) {
  protocol::RegretReport report;
  if (!plan.found || plan.cost <= 0.0 || plan.time <= 0.0) return report;
  regret::RunPath path;
  path.path.reserve(run.vehicle_trajectory.size());
  path.times.reserve(run.vehicle_trajectory.size());
  for (const protocol::OdometryWithoutCovariance& sample : run.vehicle_trajectory) {
    path.path.emplace_back(sample.pose.position.x, sample.pose.position.y);
    // The same difference of stamps as vehicle_sim_time, so the last sample's time equals it.
    path.times.push_back(sample.header.stamp.Seconds() -
                         run.vehicle_trajectory.front().header.stamp.Seconds());
  }
  path.sim_time = run.vehicle_sim_time;
  path.success = run.termination_reason == protocol::TerminationReason::REASON_SUCCESS;
  static_cast<regret::RegretTerms&>(report) = regret::ComputeRegret(
      path, plan, problem.cost, problem.start, problem.goal, settings.speed, failure_time);
  report.computed = true;
  report.reference_length = plan.length;
  report.reference_clearance = std::isfinite(plan.clearance) ? plan.clearance : -1.0;
  for (const Eigen::Vector2d& point : plan.path) {
    report.reference_path.push_back({point.x(), point.y(), 0.0});
  }
  return report;
}

}  // namespace asg::worker
