// The run loop: settle, then per control tick the stages of scene/scenario_stages.h until a
// termination rule fires or the driver aborts.
#include "scene/scenario_runner.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "protocol/check.h"
#include "scene/embree_ray_caster.h"
#include "scene/physics_world.h"
#include "scene/scenario_stages.h"
#include "scene/termination.h"
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

}  // namespace

ScenarioRunner::ScenarioRunner(const ActorCatalog& catalog) : catalog_(catalog) {}

ScenarioRunner::~ScenarioRunner() = default;

const World& ScenarioRunner::Build(const protocol::RunScenarioRequest& request) {
  rays_.reset();
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
  rays_ = std::make_unique<EmbreeRayCaster>(*world_);
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

RunResult ScenarioRunner::Run() {
  const std::unique_ptr<Driver> driver = MakeDriver(request_.driver, Task());
  RunOutcome outcome = Run(*driver);
  // The built-in drivers never abort.
  ASG_CHECK(std::holds_alternative<RunResult>(outcome));
  return std::get<RunResult>(std::move(outcome));
}

RunOutcome ScenarioRunner::Run(Driver& driver) {
  const World& built = world();
  RunTiming timing;
  timing.steps_per_tick = StepsPerTick(request_.simulation);
  timing.dt = 1.0 / request_.simulation.physics_rate;
  timing.period = 1.0 / request_.simulation.control_rate;
  timing.max_ticks = static_cast<long>(std::llround(kMaxRunTime / timing.period));

  RunState state(built, *terrain_, request_.vehicle, TerminationSettingsFor(request_, built),
                 timing);
  state.rays = rays_.get();
  state.analysis.counters.settle_time =
      SettleVehicle(built, timing.dt, SettleSettings{}, &state.physics, state.vehicle.get());
  state.analysis.scenario_number = static_cast<uint16_t>(request_.scenario_number);
  const double expected_time =
      request_.sim_timeout_period >= 0.0 ? request_.sim_timeout_period : 60.0;
  state.analysis.vehicle_trajectory.reserve(
      static_cast<size_t>(std::min(expected_time, kMaxRunTime) / timing.period) + 2);
  state.previous_xy = state.vehicle->State().position.head<2>();

  // One control tick per pass, stage by stage (scene/scenario_stages.h).
  for (;; ++state.tick) {
    RecordOdometry(timing, &state);
    UpdateCounters(&state);
    if (const std::optional<TerminationReason> reason = CheckTermination(timing, &state)) {
      state.analysis.termination_reason = static_cast<uint8_t>(*reason);
      break;
    }
    const DriverVerdict verdict = AskDriver(timing, driver, &state);
    if (const auto* abort = std::get_if<DriverAbort>(&verdict)) {
      return RunAborted{abort->reason, TickTime(timing, state)};
    }
    StepPhysics(timing, &state);
  }
  const auto& trajectory = state.analysis.vehicle_trajectory;
  state.analysis.vehicle_sim_time =
      trajectory.back().header.stamp.Seconds() - trajectory.front().header.stamp.Seconds();
  return RunResult{std::move(state.analysis)};
}

protocol::AnalyzeScenarioRequest CaptureOnlyResult(const protocol::RunScenarioRequest& request) {
  protocol::AnalyzeScenarioRequest analysis;
  analysis.scenario_number = static_cast<uint16_t>(request.scenario_number);
  analysis.termination_reason = static_cast<uint8_t>(TerminationReason::REASON_SUCCESS);
  analysis.vehicle_sim_time = 0.0;
  return analysis;
}

}  // namespace asg::scene
