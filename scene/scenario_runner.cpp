// The run loop: settle, then the physics steps of scene/run_stepper.h until a termination rule
// fires or the driver aborts.
#include "scene/scenario_runner.h"

#include "core/check.h"
#include "scene/embree_ray_caster.h"
#include "scene/physics_world.h"
#include "scene/run_stepper.h"

namespace asg::scene {

ScenarioRunner::ScenarioRunner(const ActorCatalog& catalog) : catalog_(catalog) {}

ScenarioRunner::~ScenarioRunner() = default;

const World& ScenarioRunner::Build(const protocol::RunScenarioRequest& request) {
  rays_.reset();
  world_.reset();
  TimingOf(request);
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

const TerrainCollision& ScenarioRunner::terrain() const {
  ASG_CHECK(terrain_ != nullptr);
  return *terrain_;
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
  const RunTiming timing = TimingOf(request_);
  const std::unique_ptr<RunState> state = StartRun(built, *terrain_, request_, timing, rays_.get());
  RunStepper stepper(timing, state.get());
  for (;;) {
    if (std::optional<RunOutcome> outcome = stepper.Step(driver)) return std::move(*outcome);
  }
}

protocol::AnalyzeScenarioRequest CaptureOnlyResult(const protocol::RunScenarioRequest& request) {
  protocol::AnalyzeScenarioRequest analysis;
  analysis.scenario_number = request.scenario_number;
  analysis.scene_capture_only = true;
  analysis.termination_reason = protocol::TerminationReason::REASON_SUCCESS;
  analysis.vehicle_sim_time = 0.0;
  return analysis;
}

}  // namespace asg::scene
