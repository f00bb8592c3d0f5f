// The interventions of the interactive worker's run: every change a person makes to the run
// through a service (an entity's state set, a spawn, a deletion, a reset, an EgoControl_ID
// command), with its sim time and service, kept for the run's result (docs/interactive.md,
// "Interventions"). Stepping, pausing, the pace and queries are not interventions.
#pragma once

#include <string>
#include <vector>

#include "results/record.h"
#include "scene/live_run.h"

namespace asg::worker::serve {

/// The interventions of the current run, in the order made (which is sim-time order). Not
/// thread-safe: use on the session's thread.
class InterventionLog {
 public:
  /// Appends one.
  void Add(results::Intervention intervention);
  /// A fresh run began: none yet.
  void Clear() { entries_.clear(); }
  /// The run's clock went back to 0 (ResetSimulation SCOPE_TIME): the interventions so far
  /// happened before the new clock's start, so their sim_time_s become 0.
  void ClockRestarted();
  /// Every intervention so far.
  const std::vector<results::Intervention>& entries() const { return entries_; }
  /// [s] the sim times at which the vehicle was moved by hand (teleports, SCOPE_STATE resets).
  std::vector<double> Jumps() const;

 private:
  std::vector<results::Intervention> entries_;
};

/// An intervention of `kind` on `entity` by `service`, at `live`'s current sim time (in whole
/// nanoseconds: the number trajectory.csv's `t` would read).
results::Intervention MakeIntervention(const scene::LiveRun& live, std::string service,
                                       std::string entity, std::string kind);

/// [m] a position as result.json writes it.
std::array<double, 3> Xyz(const Eigen::Vector3d& position);

/// Records the state change `change` that `service` made to `entity`, which was at `before`
/// (a teleport and, with a twist, a velocity for the vehicle; entity_moved for a moved actor;
/// nothing for an actor given only a zero twist).
void RecordStateChange(const scene::LiveRun& live, const std::string& service,
                       const std::string& entity, const scene::EntityStateChange& change,
                       const scene::EntityKinematics& before, InterventionLog* log);

}  // namespace asg::worker::serve
