// The open scenario: loading, stepping, resets and manual control. Entity operations are in
// live_run_entities.cpp.
#include "scene/live_run.h"

#include "core/check.h"
#include "scene/embree_ray_caster.h"
#include "scene/live_run_internal.h"
#include "scene/physics_world.h"
#include "scene/vehicle.h"

namespace asg::scene {
namespace {

/// Holds one control.
class HeldControlDriver : public Driver {
 public:
  explicit HeldControlDriver(const protocol::PhysXControl& control) : control_(control) {}
  DriverVerdict Tick(const DriverInput&) override { return control_; }

 private:
  protocol::PhysXControl control_;
};

/// Shows each tick to the run's observer, then asks the active driver.
class ForwardingDriver : public Driver {
 public:
  ForwardingDriver(const LiveRun::TickObserver* observer, std::function<Driver&()> active)
      : observer_(observer), active_(std::move(active)) {}
  DriverVerdict Tick(const DriverInput& input) override {
    if (*observer_) (*observer_)(input);
    return active_().Tick(input);
  }

 private:
  const LiveRun::TickObserver* observer_;
  std::function<Driver&()> active_;
};

}  // namespace

LiveRun::LiveRun(const ActorCatalog& catalog) : catalog_(catalog) {}

LiveRun::~LiveRun() { TearDown(); }

void LiveRun::TearDown() {
  // The state's physics and the caster read *world_ and the runner's terrain; they go first.
  observed_.reset();
  stepper_.reset();
  state_.reset();
  rays_.reset();
}

void LiveRun::Load(const protocol::RunScenarioRequest& request) {
  // Everything that can fail happens on new objects first, so a failure keeps the current
  // scenario as it is.
  const RunTiming timing = TimingOf(request);
  auto runner = std::make_unique<ScenarioRunner>(catalog_);
  runner->Build(request);
  MakeDriver(request.driver, runner->Task());  // throws std::invalid_argument on a bad spec
  {
    const World trial = runner->world();
    const EmbreeRayCaster rays(trial);
    StartRun(trial, runner->terrain(), request, timing, &rays);  // throws when it cannot settle
  }
  TearDown();
  runner_ = std::move(runner);
  request_ = request;
  timing_ = timing;
  Reload();
}

void LiveRun::Reload() {
  ASG_CHECK(runner_ != nullptr);
  TearDown();
  world_ = std::make_unique<World>(runner_->world());
  entries_.clear();
  for (const ActorInstance& actor : world_->actors) {
    entries_.push_back(ScenarioActorEntry(actor));
  }
  manual_driver_.reset();
  StartFreshRun();
}

void LiveRun::StartFreshRun() {
  rays_ = std::make_unique<EmbreeRayCaster>(*world_);
  state_ = StartRun(*world_, runner_->terrain(), request_, timing_, rays_.get());
  stepper_ = std::make_unique<RunStepper>(timing_, state_.get());
  driver_ = MakeDriver(request_.driver, runner_->Task());
  observed_ = std::make_unique<ForwardingDriver>(&observer_,
                                                 [this]() -> Driver& { return ActiveDriver(); });
  outcome_.reset();
  const VehicleState settled = state_->vehicle->State();
  settled_position_ = settled.position;
  settled_orientation_ = settled.orientation;
  rest_height_ = settled.position.z() -
                 world_->landscape->HeightAt(settled.position.x(), settled.position.y());
  linear_acceleration_ = Eigen::Vector3d::Zero();
  angular_acceleration_ = Eigen::Vector3d::Zero();
}

Driver& LiveRun::ActiveDriver() { return manual_driver_ != nullptr ? *manual_driver_ : *driver_; }

void LiveRun::ResetTime() {
  ASG_CHECK(loaded());
  RunState& state = *state_;
  state.tick = 0;
  state.analysis = protocol::AnalyzeScenarioRequest{};
  state.analysis.scenario_number = request_.scenario_number;
  state.rules = TerminationRules(TerminationSettingsFor(request_, *world_), timing_.period);
  state.previous_xy = state.vehicle->State().position.head<2>();
  state.touched_in_period = false;
  state.touching.clear();
  state.previously_touching.clear();
  stepper_ = std::make_unique<RunStepper>(timing_, state_.get());
  driver_ = MakeDriver(request_.driver, runner_->Task());
  outcome_.reset();
}

void LiveRun::LeaveOutJump(const Eigen::Vector3d& from, const Eigen::Vector3d& to) {
  // The distance is summed at tick boundaries from previous_xy: the part driven since the last
  // one is counted now, and the next one counts from where the vehicle lands.
  state_->analysis.counters.distance_travelled += (from.head<2>() - state_->previous_xy).norm();
  state_->previous_xy = to.head<2>();
}

void LiveRun::ResetState() {
  ASG_CHECK(loaded());
  LeaveOutJump(state_->vehicle->State().position, settled_position_);
  state_->vehicle->Teleport(settled_position_, settled_orientation_, Eigen::Vector3d::Zero(),
                            Eigen::Vector3d::Zero());
  for (size_t i = 0; i < world_->actors.size(); ++i) {
    const ActorEntry& entry = entries_[i];
    PlaceOnGround(*world_->landscape, entry.initial_x, entry.initial_y, entry.initial_yaw,
                  &world_->actors[i]);
  }
  ActorsChanged();
  linear_acceleration_ = Eigen::Vector3d::Zero();
  angular_acceleration_ = Eigen::Vector3d::Zero();
}

void LiveRun::DeleteSpawned() {
  ASG_CHECK(loaded());
  for (size_t i = world_->actors.size(); i-- > 0;) {
    if (!entries_[i].spawned) continue;
    world_->actors.erase(world_->actors.begin() + static_cast<long>(i));
    entries_.erase(entries_.begin() + static_cast<long>(i));
  }
  ActorsChanged();
}

void LiveRun::ActorsChanged() {
  // Bodies and contacts are keyed by the actor's index in the world: rebuilt, and forgotten.
  state_->physics.RebuildActors();
  state_->touching.clear();
  state_->previously_touching.clear();
  rays_ = std::make_unique<EmbreeRayCaster>(*world_);
  state_->rays = rays_.get();
}

bool LiveRun::Step() {
  ASG_CHECK(loaded() && !ended());
  const VehicleState before = state_->vehicle->State();
  std::optional<RunOutcome> outcome = stepper_->Step(*observed_);
  if (outcome) {
    outcome_ = std::move(outcome);
    return true;
  }
  const VehicleState after = state_->vehicle->State();
  const Eigen::Vector3d linear_before = before.orientation * before.linear_velocity;
  const Eigen::Vector3d angular_before = before.orientation * before.angular_velocity;
  const Eigen::Vector3d linear_after = after.orientation * after.linear_velocity;
  const Eigen::Vector3d angular_after = after.orientation * after.angular_velocity;
  linear_acceleration_ = (linear_after - linear_before) / timing_.dt;
  angular_acceleration_ = (angular_after - angular_before) / timing_.dt;
  return false;
}

void LiveRun::SetManualControl(const protocol::PhysXControl& control) {
  ASG_CHECK(loaded());
  manual_driver_ = std::make_unique<HeldControlDriver>(control);
  state_->vehicle->SetCommand(control);
}

VehicleState LiveRun::vehicle_state() const {
  ASG_CHECK(loaded());
  return state_->vehicle->State();
}

World LiveRun::CurrentWorld() const {
  World world = *world_;
  const VehicleState vehicle = vehicle_state();
  world.start = vehicle.position;
  world.start.z() = world.landscape->HeightAt(vehicle.position.x(), vehicle.position.y());
  world.start_yaw = vehicle.yaw;
  return world;
}

}  // namespace asg::scene
