// The regret of one run: how much worse the vehicle did than the reference agent
// (reference_plan.h), in cost and in time, after the research method (docs/regret.md):
//
//   C = CostModel::PathCost of the driven x-y path, T = the run's sim time;
//   on success both are extended by the straight line from the final position to the goal,
//   driven at the nominal speed;
//   regret = |C - C_opt| / C_opt + |T - T_opt| / T_opt
//          + (on failure) |final - P_C| / D + |final - P_T| / D
// where P_C (P_T) is the point of the reference path at which the reference agent has spent
// cost C (time T), and D is the start-goal distance. The released research code summed the two
// position terms into one variable that the time term overwrote; both are kept here.
//
// A failure is measured up to its failure moment by default (failure_time.h): the run is cut at
// the first sample from which the vehicle stays within kStopRadius of its final position, and C,
// T and "final" are those of the cut run, so that the timeout that happened to end the run does
// not change its regret. FailureTime::kEndOfRun measures the whole run, as the research code did.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "regret/cost_model.h"
#include "regret/failure_time.h"
#include "regret/reference_plan.h"
#include "regret/regret_terms.h"

namespace asg::regret {

/// What a run did, as the regret measure reads it.
struct RunPath {
  Polyline path;  ///< [m] the vehicle's x, y at every trajectory sample, in order
  /// [s] each sample's time since the first sample (its stamp minus the first one's), one per
  /// point of `path`; needed only to measure a failure up to its failure moment.
  std::vector<double> times;
  double sim_time = 0.0;  ///< [s] vehicle_sim_time
  bool success = false;   ///< termination reason REASON_SUCCESS
};

/// The index of a failed run's failure moment in its samples `path`: the first sample from which
/// every later sample lies within `radius` [m] of the last one. `path` must not be empty.
size_t FailureSample(const Polyline& path, double radius);

/// The regret of `run` against `plan` (which must be found, with cost and time > 0), costs
/// measured with `model`; `goal` and `start` are the scenario's, `speed` [m/s] the nominal speed
/// of the success extension; a failed run is measured up to `failure_time`. A run without samples
/// is measured from the start point. With kFailureMoment a failed run with samples must have one
/// time per sample.
RegretTerms ComputeRegret(const RunPath& run, const ReferencePlan& plan, const CostModel& model,
                          const Eigen::Vector2d& start, const Eigen::Vector2d& goal, double speed,
                          FailureTime failure_time);

}  // namespace asg::regret
