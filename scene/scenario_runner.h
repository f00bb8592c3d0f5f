// The scenario runner: builds the world of a RunScenarioRequest, settles the vehicle at its
// start and runs it under a driver until a termination rule fires, producing the
// AnalyzeScenarioRequest a worker sends back.
//
// Timing: physics steps of 1/physics_rate s; one control tick every physics_rate/control_rate
// steps. At tick k (time k/control_rate since the first control input) the runner records an
// odometry sample, checks the termination rules (scene/termination.h) and, unless the run ends
// there, asks the driver for a command that is held until the next tick. The trajectory therefore
// holds one sample per tick from time 0 up to and including the final state, and
// vehicle_sim_time is the final tick's time. Runs are deterministic: the same request gives a
// bit-identical result on a fresh or a reused runner.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "protocol/messages.h"
#include "scene/actor_catalog.h"
#include "scene/driver.h"
#include "scene/world.h"

namespace asg::scene {

class EmbreeRayCaster;
class TerrainCollision;

/// The result of a run that ended by a termination rule.
struct RunResult {
  /// What the worker sends: worker_id 0 (the worker fills it), scenario_number, reason,
  /// trajectory (frame "world", child frame "vehicle", pose in world metres, twist in the body
  /// frame, stamps since the first control input), vehicle_sim_time and counters.
  protocol::AnalyzeScenarioRequest analysis;

  /// The termination reason (analysis.termination_reason).
  protocol::TerminationReason reason() const { return analysis.termination_reason; }
};

/// A run its driver stopped (DriverAbort) before any termination rule fired: there is no result
/// and the scenario must run again.
struct RunAborted {
  std::string reason;  ///< the driver's reason
  double time = 0.0;   ///< [s] the tick at which the driver stopped, since the first control input
};

/// How a run under a caller's driver ended: a result, or aborted by the driver.
using RunOutcome = std::variant<RunResult, RunAborted>;

/// Child frame name of the vehicle in trajectories.
inline constexpr const char* kVehicleFrame = "vehicle";
/// [s] a run whose every timeout is disabled still stops here, with REASON_SIM_TIMEOUT.
inline constexpr double kMaxRunTime = 3600.0;

/// Runs scenarios one after another, keeping the last landscape and its Bullet heightfield
/// cached for the next request with the same LandscapeDescription. Drivers' line-of-sight rays
/// are traced with Embree (scene/embree_ray_caster.h) in a scene of the built world made at the
/// first ray and kept for every run of that world. One runner per worker thread;
/// not thread-safe. The catalog must outlive the runner.
class ScenarioRunner {
 public:
  explicit ScenarioRunner(const ActorCatalog& catalog);
  ~ScenarioRunner();
  ScenarioRunner(const ScenarioRunner&) = delete;
  ScenarioRunner& operator=(const ScenarioRunner&) = delete;

  /// Builds (and keeps) the world of `request`, replacing the previous one. Throws SceneError
  /// for a request that names unknown actors, places them off the landscape, has bad vehicle
  /// parameters or simulation rates (see BuildWorld, ValidateVehicleParams), and
  /// std::invalid_argument for a bad LandscapeDescription.
  const World& Build(const protocol::RunScenarioRequest& request);

  /// Runs the built scenario once under the request's built-in driver, MakeDriver(request.driver,
  /// Task()), which never aborts. Requires a prior Build (checked). Throws SceneError when the
  /// vehicle cannot settle at its start, std::invalid_argument for a bad driver spec.
  RunResult Run();

  /// Runs the built scenario once under `driver`, which stays owned by the caller; the outcome is
  /// RunAborted when the driver answers a tick with DriverAbort. Requires a prior Build
  /// (checked). Throws SceneError when the vehicle cannot settle at its start.
  RunOutcome Run(Driver& driver);

  /// The task a driver of the built scenario gets. Requires a prior Build.
  DriverTask Task() const;
  /// The built world. Requires a prior Build.
  const World& world() const;
  /// The built world's terrain collision. Requires a prior Build.
  const TerrainCollision& terrain() const;

 private:
  const ActorCatalog& catalog_;
  protocol::RunScenarioRequest request_;
  std::optional<World> world_;
  std::unique_ptr<TerrainCollision> terrain_;
  std::unique_ptr<EmbreeRayCaster> rays_;  // line of sight in *world_
};

/// The AnalyzeScenarioRequest of a scene_capture_only request: SUCCESS, vehicle_sim_time 0, an
/// empty trajectory, zero counters, scene_capture_only set, scenario_number from the request.
protocol::AnalyzeScenarioRequest CaptureOnlyResult(const protocol::RunScenarioRequest& request);

}  // namespace asg::scene
