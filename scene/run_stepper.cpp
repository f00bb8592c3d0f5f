// The run loop cut into physics steps; see run_stepper.h.
#include "scene/run_stepper.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scene/physics_world.h"
#include "scene/termination.h"
#include "scene/vehicle_settle.h"

namespace asg::scene {
namespace {

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

}  // namespace

RunTiming TimingOf(const protocol::RunScenarioRequest& request) {
  RunTiming timing;
  timing.steps_per_tick = StepsPerTick(request.simulation);
  timing.dt = 1.0 / request.simulation.physics_rate;
  timing.period = 1.0 / request.simulation.control_rate;
  timing.max_ticks = static_cast<long>(std::llround(kMaxRunTime / timing.period));
  return timing;
}

std::unique_ptr<RunState> StartRun(const World& world, const TerrainCollision& terrain,
                                   const protocol::RunScenarioRequest& request,
                                   const RunTiming& timing, const RayCaster* rays) {
  auto state = std::make_unique<RunState>(world, terrain, request.vehicle,
                                          TerminationSettingsFor(request, world), timing);
  state->rays = rays;
  state->analysis.counters.settle_time =
      SettleVehicle(world, timing.dt, SettleSettings{}, &state->physics, state->vehicle.get());
  state->analysis.scenario_number = request.scenario_number;
  const double expected_time =
      request.sim_timeout_period >= 0.0 ? request.sim_timeout_period : 60.0;
  state->analysis.vehicle_trajectory.reserve(
      static_cast<size_t>(std::min(expected_time, kMaxRunTime) / timing.period) + 2);
  state->previous_xy = state->vehicle->State().position.head<2>();
  return state;
}

std::optional<RunOutcome> RunStepper::Step(Driver& driver) {
  if (sub_step_ == 0) {
    RecordOdometry(timing_, state_);
    UpdateCounters(state_);
    if (const std::optional<protocol::TerminationReason> reason =
            CheckTermination(timing_, state_)) {
      protocol::AnalyzeScenarioRequest& analysis = state_->analysis;
      analysis.termination_reason = *reason;
      const auto& trajectory = analysis.vehicle_trajectory;
      analysis.vehicle_sim_time =
          trajectory.back().header.stamp.Seconds() - trajectory.front().header.stamp.Seconds();
      return RunResult{std::move(analysis)};
    }
    const DriverVerdict verdict = AskDriver(timing_, driver, state_);
    if (const auto* abort = std::get_if<DriverAbort>(&verdict)) {
      return RunAborted{abort->reason, TickTime(timing_, *state_)};
    }
    state_->touched_in_period = false;
  }
  StepPhysicsOnce(timing_, state_);
  if (++sub_step_ == timing_.steps_per_tick) {
    sub_step_ = 0;
    ++state_->tick;
  }
  return std::nullopt;
}

}  // namespace asg::scene
