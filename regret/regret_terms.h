// The terms of a run's regret (docs/regret.md): what regret::ComputeRegret computes and what an
// AnalyzeScenario's RegretReport (protocol/extensions.h) carries, one struct for both. A plain
// value with no dependencies.
#pragma once

namespace asg::regret {

/// The regret of a run and every term of it: C and T are the run's path cost and time (extended
/// to the goal on success), C_opt and T_opt the reference agent's, D the start-goal distance.
struct RegretTerms {
  double regret = 0.0;              ///< sum of the four terms below
  double cost_term = 0.0;           ///< |C - C_opt| / C_opt
  double time_term = 0.0;           ///< |T - T_opt| / T_opt
  double cost_position_term = 0.0;  ///< failure only: distance to the equal-cost point / D
  double time_position_term = 0.0;  ///< failure only: distance to the equal-time point / D
  double cost = 0.0;      ///< C: cost of the driven path (extended to the goal on success)
  double time = 0.0;      ///< [s] T: sim time (extended to the goal on success)
  double cost_opt = 0.0;  ///< C_opt: cost of the reference path
  double time_opt = 0.0;  ///< [s] T_opt: reference length / nominal speed
  bool operator==(const RegretTerms&) const = default;
};

}  // namespace asg::regret
