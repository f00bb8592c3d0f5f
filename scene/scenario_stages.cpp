// The stages of a control tick: odometry, counters, termination, driver, physics and contacts.
#include "scene/scenario_stages.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "scene/scenario_runner.h"

namespace asg::scene {
namespace {

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

RunState::RunState(const World& world, const TerrainCollision& terrain,
                   const protocol::VehicleParams& params, const TerminationSettings& rules,
                   const RunTiming& timing)
    : physics(world, terrain),
      vehicle(Vehicle::Create(params, &physics)),
      rules(rules, timing.period),
      previous_xy(Eigen::Vector2d::Zero()) {}

double TickTime(const RunTiming& timing, const RunState& state) {
  return state.tick * timing.period;
}

void RecordOdometry(const RunTiming& timing, RunState* state) {
  state->vehicle_state = state->vehicle->State();
  state->analysis.vehicle_trajectory.push_back(
      Odometry(state->vehicle_state, TickTime(timing, *state)));
}

void UpdateCounters(RunState* state) {
  const VehicleState& vehicle = state->vehicle_state;
  protocol::RunCounters& counters = state->analysis.counters;
  counters.max_abs_roll = std::max(counters.max_abs_roll, std::abs(vehicle.roll));
  counters.max_abs_pitch = std::max(counters.max_abs_pitch, std::abs(vehicle.pitch));
  counters.distance_travelled += (vehicle.position.head<2>() - state->previous_xy).norm();
  state->previous_xy = vehicle.position.head<2>();
}

std::optional<protocol::TerminationReason> CheckTermination(const RunTiming& timing,
                                                            RunState* state) {
  const VehicleState& vehicle = state->vehicle_state;
  TickObservation observation;
  observation.time = TickTime(timing, *state);
  observation.touched_actor = state->touched_in_period;
  observation.roll = vehicle.roll;
  observation.pitch = vehicle.pitch;
  observation.position = vehicle.position;
  observation.forward_speed = vehicle.forward_speed;
  observation.commanded_speed = state->vehicle->target_speed();
  std::optional<protocol::TerminationReason> reason = state->rules.Update(observation);
  if (!reason && state->tick >= timing.max_ticks) {
    reason = protocol::TerminationReason::REASON_SIM_TIMEOUT;
  }
  return reason;
}

DriverVerdict AskDriver(const RunTiming& timing, Driver& driver, RunState* state) {
  const VehicleState& vehicle = state->vehicle_state;
  DriverInput input;
  input.time = TickTime(timing, *state);
  input.odometry = &state->analysis.vehicle_trajectory.back();
  input.roll = vehicle.roll;
  input.pitch = vehicle.pitch;
  input.yaw = vehicle.yaw;
  input.forward_speed = vehicle.forward_speed;
  input.rays = state->rays != nullptr ? state->rays : &state->physics;
  DriverVerdict verdict = driver.Tick(input);
  if (const auto* control = std::get_if<protocol::PhysXControl>(&verdict)) {
    state->vehicle->SetCommand(*control);
    ++state->analysis.counters.control_messages;
  }
  return verdict;
}

void CountNewContacts(RunState* state) {
  const std::vector<int>& before = state->previously_touching;
  for (int actor : state->touching) {
    if (!std::binary_search(before.begin(), before.end(), actor)) {
      ++state->analysis.counters.collisions_touched;
    }
  }
  if (!state->touching.empty()) state->touched_in_period = true;
  std::swap(state->touching, state->previously_touching);
}

void RecordFirstContact(const RunTiming& timing, RunState* state) {
  protocol::RunCounters& counters = state->analysis.counters;
  if (counters.first_contact) return;
  // Actors are in request order, so the lowest index touched is the first in the request.
  const std::vector<ActorInstance>& actors = state->physics.world().actors;
  for (const int actor : state->touching) {
    const int request_index = actors[static_cast<size_t>(actor)].request_index;
    if (request_index < 0) continue;
    const long steps_into_tick =
        static_cast<long>(counters.physics_steps) - state->tick * timing.steps_per_tick;
    ASG_CHECK(steps_into_tick >= 1 && steps_into_tick <= timing.steps_per_tick);
    const Eigen::Vector3d position = state->vehicle->State().position;
    counters.first_contact = protocol::FirstContact{
        TickTime(timing, *state) + static_cast<double>(steps_into_tick) * timing.dt, position.x(),
        position.y(), static_cast<uint32_t>(request_index)};
    return;
  }
}

void StepPhysicsOnce(const RunTiming& timing, RunState* state) {
  state->vehicle->ApplyControl(timing.dt);
  state->physics.Step(timing.dt);
  ++state->analysis.counters.physics_steps;
  // Contacts: chassis manifolds plus the actors the wheel rays rest on, sorted, no repeats.
  std::vector<int>& touching = state->touching;
  state->physics.TouchedActors(state->vehicle->chassis(), &touching);
  const std::vector<int>& wheel_hits = state->vehicle->wheel_actor_hits();
  if (!wheel_hits.empty()) {
    touching.insert(touching.end(), wheel_hits.begin(), wheel_hits.end());
    std::sort(touching.begin(), touching.end());
    touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
  }
  if (!touching.empty()) RecordFirstContact(timing, state);
  CountNewContacts(state);
}

}  // namespace asg::scene
