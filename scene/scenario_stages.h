// The stages of one control tick of a run, in the order ScenarioRunner::Run calls them:
//   RecordOdometry -> UpdateCounters -> CheckTermination -> AskDriver -> StepPhysicsOnce x N
// (scene/run_stepper.h; each physics step records the first contact with RecordFirstContact and
// de-duplicates contacts with CountNewContacts). Each stage reads the run's constant RunTiming
// and changes only the run's one RunState, like MuJoCo's forward pipeline over mjModel / mjData.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "protocol/messages.h"
#include "scene/driver.h"
#include "scene/physics_world.h"
#include "scene/termination.h"
#include "scene/vehicle.h"

namespace asg::scene {

/// The fixed clock of a run.
struct RunTiming {
  int steps_per_tick = 5;  ///< physics steps per control tick
  double dt = 0.01;        ///< [s] physics step
  double period = 0.05;    ///< [s] control period
  long max_ticks = 72000;  ///< the tick at which a run stops with REASON_SIM_TIMEOUT at the latest
};

/// Everything one run changes: the physics, the vehicle, the termination timers and the result
/// being written. Owned by one run on one thread; neither copied nor moved (the vehicle points
/// into the physics).
struct RunState {
  /// Creates the physics of `world` over `terrain`, a vehicle of `params` in it (not yet placed)
  /// and the termination timers of `rules` at `timing`'s control period; `world` and `terrain`
  /// must outlive the state.
  RunState(const World& world, const TerrainCollision& terrain,
           const protocol::VehicleParams& params, const TerminationSettings& rules,
           const RunTiming& timing);
  RunState(const RunState&) = delete;
  RunState& operator=(const RunState&) = delete;

  PhysicsWorld physics;  ///< the world being stepped
  /// The driver's line-of-sight queries, owned by the caller; `physics` (Bullet) when null.
  const RayCaster* rays = nullptr;
  std::unique_ptr<Vehicle> vehicle;           ///< the vehicle in `physics`
  TerminationRules rules;                     ///< the termination timers and checks
  protocol::AnalyzeScenarioRequest analysis;  ///< trajectory and counters written so far

  long tick = 0;                   ///< the current control tick, from 0
  VehicleState vehicle_state;      ///< the vehicle at the current tick (RecordOdometry)
  Eigen::Vector2d previous_xy;     ///< [m] chassis xy at the previous tick (distance travelled)
  bool touched_in_period = false;  ///< a non-traversable actor was touched since the last tick
  std::vector<int> touching;       ///< actors touched after the latest physics step
  std::vector<int> previously_touching;  ///< actors touched after the step before it
};

/// [s] time of the current tick since the first control input.
double TickTime(const RunTiming& timing, const RunState& state);

/// Reads the vehicle state of the current tick into state->vehicle_state and appends its
/// odometry sample to the trajectory.
void RecordOdometry(const RunTiming& timing, RunState* state);

/// Folds the current tick's attitude and xy movement into the counters.
void UpdateCounters(RunState* state);

/// The reason the run ends at the current tick, if any: the termination rules, then the tick
/// limit (REASON_SIM_TIMEOUT).
std::optional<protocol::TerminationReason> CheckTermination(const RunTiming& timing,
                                                            RunState* state);

/// Asks `driver` for its verdict on the current tick; on a control, commands the vehicle with it
/// and counts one control message.
DriverVerdict AskDriver(const RunTiming& timing, Driver& driver, RunState* state);

/// Counts the actors in state->touching that were not touched after the previous physics step,
/// then makes the current contacts the previous ones.
void CountNewContacts(RunState* state);

/// When the run has no first contact yet and state->touching holds an actor of the request,
/// records the first of them (request order) as analysis.counters.first_contact: the time at the
/// end of the current physics step and the vehicle's x, y then. Actors not of the request
/// (request_index -1) are passed over.
void RecordFirstContact(const RunTiming& timing, RunState* state);

/// One physics step of dt with the vehicle's held control: the vehicle's actuators, the physics
/// step, the contacts (chassis manifolds plus actors the wheel rays rest on, without repeats),
/// RecordFirstContact and CountNewContacts. A control period is steps_per_tick of them, after
/// touched_in_period is cleared (scene/run_stepper.h).
void StepPhysicsOnce(const RunTiming& timing, RunState* state);

}  // namespace asg::scene
