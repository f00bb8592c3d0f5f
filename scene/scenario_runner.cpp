// The run loop: settle, then tick the driver, step the physics and check the termination rules.
#include "scene/scenario_runner.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "protocol/check.h"
#include "scene/physics_world.h"
#include "scene/termination.h"
#include "scene/vehicle.h"
#include "scene/vehicle_settle.h"

namespace asg::scene {
namespace {

using protocol::TerminationReason;

// Physics steps per control tick; throws SceneError unless the rates are positive and the
// control rate divides the physics rate.
int StepsPerTick(const protocol::SimulationSettings& simulation) {
  const double physics = simulation.physics_rate;
  const double control = simulation.control_rate;
  std::ostringstream message;
  message << "simulation.physics_rate = " << physics << ", simulation.control_rate = " << control;
  if (!std::isfinite(physics) || !std::isfinite(control) || physics <= 0.0 || control <= 0.0) {
    throw SceneError(message.str() + ": both must be finite and > 0");
  }
  const double ratio = physics / control;
  const double steps = std::round(ratio);
  if (steps < 1.0 || std::abs(ratio - steps) > 1e-9 * ratio) {
    throw SceneError(message.str() + ": the control rate must divide the physics rate");
  }
  return static_cast<int>(steps);
}

protocol::OdometryWithoutCovariance Odometry(const VehicleState& state, double time) {
  protocol::OdometryWithoutCovariance odometry;
  odometry.header.stamp = protocol::Time::FromSeconds(time);
  odometry.header.frame_id = "world";
  odometry.child_frame_id = kVehicleFrame;
  odometry.pose.position = {state.position.x(), state.position.y(), state.position.z()};
  odometry.pose.orientation = {state.orientation.x(), state.orientation.y(), state.orientation.z(),
                               state.orientation.w()};
  odometry.twist.linear = {state.linear_velocity.x(), state.linear_velocity.y(),
                           state.linear_velocity.z()};
  odometry.twist.angular = {state.angular_velocity.x(), state.angular_velocity.y(),
                            state.angular_velocity.z()};
  return odometry;
}

}  // namespace

ScenarioRunner::ScenarioRunner(const ActorCatalog& catalog) : catalog_(catalog) {}

ScenarioRunner::~ScenarioRunner() = default;

const World& ScenarioRunner::Build(const protocol::RunScenarioRequest& request) {
  world_.reset();
  StepsPerTick(request.simulation);
  ValidateVehicleParams(request.vehicle);
  std::shared_ptr<const terrain::Landscape> cached;
  if (terrain_ != nullptr) cached = terrain_->shared_landscape();
  World world = BuildWorld(request, catalog_, cached);
  if (terrain_ == nullptr || world.landscape.get() != &terrain_->landscape()) {
    terrain_ = std::make_unique<TerrainCollision>(world.landscape);
  }
  request_ = request;
  world_ = std::move(world);
  return *world_;
}

const World& ScenarioRunner::world() const {
  ASG_CHECK(world_.has_value());
  return *world_;
}

DriverTask ScenarioRunner::Task() const {
  const World& built = world();
  DriverTask task;
  task.start = {built.start.x(), built.start.y(), built.start.z()};
  task.start_yaw = built.start_yaw;
  task.goal = {built.goal.x(), built.goal.y(), built.goal.z()};
  task.goal_radius = built.goal_radius;
  task.landscape_min = built.landscape->min_xy();
  task.landscape_max = built.landscape->max_xy();
  task.control_period = 1.0 / request_.simulation.control_rate;
  task.vehicle = request_.vehicle;
  return task;
}

RunResult ScenarioRunner::Run(Driver* driver) {
  const World& built = world();
  const int steps_per_tick = StepsPerTick(request_.simulation);
  const double dt = 1.0 / request_.simulation.physics_rate;
  const double period = 1.0 / request_.simulation.control_rate;

  PhysicsWorld physics(built, *terrain_);
  std::unique_ptr<Vehicle> vehicle = Vehicle::Create(request_.vehicle, &physics);
  const double settle_time = SettleVehicle(built, dt, SettleSettings{}, &physics, vehicle.get());

  std::unique_ptr<Driver> own_driver;
  if (driver == nullptr) {
    own_driver = MakeDriver(request_.driver, Task());
    driver = own_driver.get();
  }

  RunResult result;
  protocol::AnalyzeScenarioRequest& analysis = result.analysis;
  analysis.scenario_number = static_cast<uint16_t>(request_.scenario_number);
  protocol::RunCounters& counters = analysis.counters;
  counters.settle_time = settle_time;
  std::vector<protocol::OdometryWithoutCovariance>& trajectory = analysis.vehicle_trajectory;
  const double expected_time =
      request_.sim_timeout_period >= 0.0 ? request_.sim_timeout_period : 60.0;
  trajectory.reserve(static_cast<size_t>(std::min(expected_time, kMaxRunTime) / period) + 2);

  TerminationRules rules(TerminationSettingsFor(request_, built), period);
  const long max_ticks = static_cast<long>(std::llround(kMaxRunTime / period));
  std::vector<int> touching, previously_touching, wheel_touching;
  bool touched_in_period = false;
  Eigen::Vector2d previous_xy = vehicle->State().position.head<2>();
  for (long tick = 0;; ++tick) {
    const double time = tick * period;
    const VehicleState state = vehicle->State();
    trajectory.push_back(Odometry(state, time));
    counters.max_abs_roll = std::max(counters.max_abs_roll, std::abs(state.roll));
    counters.max_abs_pitch = std::max(counters.max_abs_pitch, std::abs(state.pitch));
    counters.distance_travelled += (state.position.head<2>() - previous_xy).norm();
    previous_xy = state.position.head<2>();

    TickObservation observation;
    observation.time = time;
    observation.touched_actor = touched_in_period;
    observation.roll = state.roll;
    observation.pitch = state.pitch;
    observation.position = state.position;
    observation.forward_speed = state.forward_speed;
    observation.commanded_speed = vehicle->target_speed();
    std::optional<TerminationReason> reason = rules.Update(observation);
    if (!reason && tick >= max_ticks) reason = TerminationReason::REASON_SIM_TIMEOUT;
    if (reason) {
      result.reason = *reason;
      break;
    }

    DriverInput input;
    input.time = time;
    input.odometry = &trajectory.back();
    input.roll = state.roll;
    input.pitch = state.pitch;
    input.yaw = state.yaw;
    input.forward_speed = state.forward_speed;
    input.rays = &physics;
    vehicle->SetCommand(driver->Tick(input));
    ++counters.control_messages;

    touched_in_period = false;
    for (int step = 0; step < steps_per_tick; ++step) {
      vehicle->ApplyControl(dt);
      physics.Step(dt);
      ++counters.physics_steps;
      // Contacts: chassis manifolds plus the actors the wheel rays rest on.
      physics.TouchedActors(vehicle->chassis(), &touching);
      const std::vector<int>& wheel_hits = vehicle->wheel_actor_hits();
      if (!wheel_hits.empty()) {
        touching.insert(touching.end(), wheel_hits.begin(), wheel_hits.end());
        std::sort(touching.begin(), touching.end());
        touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
      }
      for (int actor : touching) {
        if (!std::binary_search(previously_touching.begin(), previously_touching.end(), actor)) {
          ++counters.collisions_touched;
        }
      }
      if (!touching.empty()) touched_in_period = true;
      std::swap(touching, previously_touching);
    }
  }
  analysis.termination_reason = static_cast<uint8_t>(result.reason);
  analysis.vehicle_sim_time =
      trajectory.back().header.stamp.Seconds() - trajectory.front().header.stamp.Seconds();
  return result;
}

protocol::AnalyzeScenarioRequest CaptureOnlyResult(const protocol::RunScenarioRequest& request) {
  protocol::AnalyzeScenarioRequest analysis;
  analysis.scenario_number = static_cast<uint16_t>(request.scenario_number);
  analysis.termination_reason = static_cast<uint8_t>(TerminationReason::REASON_SUCCESS);
  analysis.vehicle_sim_time = 0.0;
  return analysis;
}

}  // namespace asg::scene
