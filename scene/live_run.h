// A scenario held open for interactive use: loaded from a RunScenarioRequest, advanced one
// physics step at a time (scene/run_stepper.h, so that stepping it to its end without
// interventions gives the farm's result bit for bit), with its entities listed, inspected,
// moved, spawned and deleted between steps.
//
// Entities: the vehicle ("vehicle"), the scenario's actors ("<alias>_<ssa index>_<instance>",
// alias the class's first short name) and actors spawned at run time (named by the caller).
// Moving, spawning or deleting an actor changes this run's own copy of the world; the physics'
// actor bodies and the drivers' ray tracing scene are rebuilt from it. Poses and velocities are
// in the north-west-up world frame.
//
// Not thread-safe: one thread owns a LiveRun (the interactive worker's simulation thread).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "scene/actor_catalog.h"
#include "scene/driver.h"
#include "scene/run_stepper.h"
#include "scene/scenario_runner.h"
#include "scene/world.h"

namespace asg::scene {

/// simulation_interfaces EntityCategory values used for entities.
enum class EntityCategory : uint8_t {
  kObject = 0,         ///< CATEGORY_OBJECT
  kRobot = 1,          ///< CATEGORY_ROBOT: the vehicle
  kHuman = 2,          ///< CATEGORY_HUMAN
  kDynamicObject = 4,  ///< CATEGORY_DYNAMIC_OBJECT
  kStaticObject = 5,   ///< CATEGORY_STATIC_OBJECT: actors
};

/// What an entity is.
struct EntityInfo {
  std::string name;
  EntityCategory category = EntityCategory::kStaticObject;
  std::string description;        ///< the class's path_name and scale, or the vehicle's size
  std::vector<std::string> tags;  ///< short names, "scenario"/"spawned", "obstacle"/"traversable"
  Eigen::AlignedBox3d bounds;     ///< [m] world axis-aligned box enclosing it
  /// [m] box enclosing it in its own frame (the pose Kinematics gives): an actor's footprint and
  /// height from its base, the vehicle's chassis box about its centre of mass.
  Eigen::AlignedBox3d local_bounds;
  bool spawned = false;  ///< spawned at run time (SpawnEntity), not from the scenario
};

/// Where an entity is and how it moves, in the world frame.
struct EntityKinematics {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();               ///< [m]
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  ///< entity -> world
  Eigen::Vector3d linear_velocity = Eigen::Vector3d::Zero();        ///< [m/s]
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();       ///< [rad/s]
  Eigen::Vector3d linear_acceleration = Eigen::Vector3d::Zero();    ///< [m/s^2] over the last step
  Eigen::Vector3d angular_acceleration = Eigen::Vector3d::Zero();   ///< [rad/s^2] same
};

/// Why an entity operation did not happen (kOk when it did).
enum class EntityStatus : uint8_t {
  kOk,
  kNotFound,            ///< no entity of that name, or no spawnable of that URI
  kNameNotUnique,       ///< the name is taken and renaming was not allowed
  kNameInvalid,         ///< empty (without renaming) or characters outside [A-Za-z0-9_.-]
  kUnsupportedFormat,   ///< a URI outside the asg:// scheme
  kNoResource,          ///< neither a URI nor a resource string
  kNamespaceInvalid,    ///< characters outside [A-Za-z0-9_/]
  kInvalidPose,         ///< non-finite, a zero quaternion, or off the landscape grid
  kOperationFailed,     ///< not possible for this entity (e.g. giving a static actor a velocity)
  kFeatureUnsupported,  ///< e.g. spawning from a resource string
};

/// The outcome of an entity operation.
struct EntityOutcome {
  EntityStatus status = EntityStatus::kOk;
  std::string message;  ///< why, naming the entity, the field and the value; empty when kOk
  std::string name;     ///< the entity's name (SpawnEntity: the name given, maybe renamed)
};

/// A class that can be spawned.
struct SpawnableClass {
  std::string uri;             ///< asg://actor/<short name> or asg://vehicle
  std::string description;     ///< path_name, shape, size
  Eigen::AlignedBox3d bounds;  ///< [m] in the entity's frame, at scale 1
};

/// A new actor to spawn.
struct SpawnRequest {
  std::string name;
  bool allow_renaming = false;
  std::string uri;
  std::string resource_string;
  std::string entity_namespace;
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  ///< [m]; z is replaced by the ground's
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  ///< only its yaw is used
};

/// A state to set; absent parts are left as they are.
struct EntityStateChange {
  std::optional<Eigen::Vector3d> position;          ///< [m]
  std::optional<Eigen::Quaterniond> orientation;    ///< with position
  std::optional<Eigen::Vector3d> linear_velocity;   ///< [m/s]
  std::optional<Eigen::Vector3d> angular_velocity;  ///< [rad/s]
  /// The vehicle's position z is replaced by the height at which it rests on the ground (the
  /// ground's height plus that of its settled start pose above the ground); an actor always
  /// stands on the ground.
  bool snap_to_ground = false;
};

/// One scenario, open for stepping and editing.
class LiveRun {
 public:
  /// Called at each control tick with what the driver sees, before it is asked.
  using TickObserver = std::function<void(const DriverInput& input)>;

  /// `catalog` must outlive the run.
  explicit LiveRun(const ActorCatalog& catalog);
  ~LiveRun();
  LiveRun(const LiveRun&) = delete;
  LiveRun& operator=(const LiveRun&) = delete;

  /// Builds `request`'s world and starts a fresh run (vehicle settled, time 0, the request's
  /// built-in driver). Throws SceneError or std::invalid_argument as ScenarioRunner::Build, Run
  /// and MakeDriver do; the scenario loaded before stays loaded, untouched, then.
  void Load(const protocol::RunScenarioRequest& request);
  /// True once a scenario was loaded.
  bool loaded() const { return state_ != nullptr; }
  /// The loaded request. Requires loaded().
  const protocol::RunScenarioRequest& request() const { return request_; }

  /// Loads the same request again: the world as the scenario describes it (spawned actors gone,
  /// moved and deleted ones back), a fresh run, the scenario's driver.
  void Reload();
  /// Restarts the clock where the entities are: time 0, an empty trajectory, counters and
  /// termination timers restarted, the scenario's driver anew (manual control is kept).
  void ResetTime();
  /// Puts the vehicle back at its settled start pose at rest (the jump left out of the
  /// distance travelled), and every actor (spawned ones included) back where it was placed; the
  /// clock runs on.
  void ResetState();
  /// Deletes every spawned actor.
  void DeleteSpawned();

  /// Advances one physics step; requires loaded() and !ended(). Returns true when the run ended
  /// at this step (a termination rule fired, or the driver aborted); the step then did no
  /// physics.
  bool Step();
  /// True once the run ended; outcome() holds how.
  bool ended() const { return outcome_.has_value(); }
  /// The run's outcome once ended(): RunResult (its analysis complete) or RunAborted.
  const std::optional<RunOutcome>& outcome() const { return outcome_; }
  /// [s] simulated time since the first control input.
  double time() const { return stepper_->Time(); }
  /// Physics steps done in this run.
  long steps() const { return stepper_->StepsDone(); }
  /// The run's clock. Requires loaded().
  const RunTiming& timing() const { return timing_; }

  /// From now on the vehicle holds `control` (applied at once), and the scenario's driver is no
  /// longer asked; Reload gives the scenario's driver back.
  void SetManualControl(const protocol::PhysXControl& control);
  /// True while the vehicle is under SetManualControl.
  bool manual_control() const { return manual_driver_ != nullptr; }
  /// Sets the function called at every control tick (empty: none).
  void SetTickObserver(TickObserver observer) { observer_ = std::move(observer); }

  /// The run's world as it is now (moved, spawned, deleted actors), with start and start_yaw
  /// set to the vehicle's current position and heading (for captures).
  World CurrentWorld() const;
  /// The run's world as it is now (its start as the scenario's).
  const World& world() const { return *world_; }
  /// The vehicle's current state.
  VehicleState vehicle_state() const;

  /// Every entity's name: the vehicle, the actors in order, the spawned ones in spawn order.
  std::vector<std::string> EntityNames() const;
  /// The entity's description, or nothing for an unknown name.
  std::optional<EntityInfo> Info(const std::string& name) const;
  /// The entity's kinematics, or nothing for an unknown name.
  std::optional<EntityKinematics> Kinematics(const std::string& name) const;
  /// Sets the entity's state. The vehicle is teleported (pose) and given velocities (twist);
  /// an actor is moved on the ground (x, y and the yaw of the orientation; z follows the ground)
  /// and refuses non-zero velocities (kOperationFailed). A teleport's jump is not driven: the
  /// run's distance_travelled leaves it out.
  EntityOutcome SetState(const std::string& name, const EntityStateChange& change);
  /// Spawns an actor of a catalog class (asg://actor/<name>) at scale 1 on the ground.
  EntityOutcome Spawn(const SpawnRequest& request);
  /// Deletes an actor (the vehicle cannot be deleted: kOperationFailed).
  EntityOutcome Delete(const std::string& name);
  /// Every class that can be spawned: the catalog's, then the vehicle.
  std::vector<SpawnableClass> Spawnables() const;

  /// Name and placement of one actor (scene/live_run_internal.h).
  struct ActorEntry;

 private:
  /// Builds the run over world_ (settle, driver) from scratch.
  void StartFreshRun();
  /// Destroys the run's state (before the world or the runner it reads).
  void TearDown();
  /// Rebuilds the actor bodies and the ray tracing scene after world_.actors changed.
  void ActorsChanged();
  /// Counts the vehicle's driven distance up to `from` [m] and none of its jump to `to` [m].
  void LeaveOutJump(const Eigen::Vector3d& from, const Eigen::Vector3d& to);
  int ActorIndex(const std::string& name) const;
  Driver& ActiveDriver();

  const ActorCatalog& catalog_;
  std::unique_ptr<ScenarioRunner> runner_;  // built request_'s world; owns its terrain
  protocol::RunScenarioRequest request_;
  std::unique_ptr<World> world_;     // this run's copy, edited by the entity operations
  std::vector<ActorEntry> entries_;  // one per world_.actors entry
  RunTiming timing_;
  std::unique_ptr<RayCaster> rays_;  // over world_
  std::unique_ptr<RunState> state_;
  std::unique_ptr<RunStepper> stepper_;
  std::unique_ptr<Driver> driver_;  // the scenario's
  std::unique_ptr<Driver> manual_driver_;
  std::unique_ptr<Driver> observed_;  // wraps the active driver for the observer
  TickObserver observer_;
  std::optional<RunOutcome> outcome_;
  Eigen::Vector3d settled_position_ = Eigen::Vector3d::Zero();
  Eigen::Quaterniond settled_orientation_ = Eigen::Quaterniond::Identity();
  double rest_height_ = 0.0;  // [m] the settled vehicle's height above the ground under it
  Eigen::Vector3d linear_acceleration_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_acceleration_ = Eigen::Vector3d::Zero();
};

}  // namespace asg::scene
