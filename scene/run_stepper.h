// A run advanced one physics step at a time: the same stages, in the same order, as
// ScenarioRunner::Run (which is a RunStepper stepped to the end), so that a run stepped by hand
// (the interactive worker) and a run stepped through gives bit-identical results.
//
// At a tick boundary (the first physics step of a control tick) Step first runs
//   RecordOdometry -> UpdateCounters -> CheckTermination -> AskDriver
// and then the physics step; the run ends at the boundary where a termination rule fires (no
// physics step then) or where the driver aborts.
#pragma once

#include <memory>
#include <optional>

#include "protocol/messages.h"
#include "scene/driver.h"
#include "scene/scenario_runner.h"
#include "scene/scenario_stages.h"

namespace asg::scene {

/// The clock of a run of `request`: physics step, control period, steps per tick and the tick
/// limit. Throws SceneError naming both rates unless they are finite, positive and the control
/// rate divides the physics rate.
RunTiming TimingOf(const protocol::RunScenarioRequest& request);

/// A fresh run of `world` (built from `request`) over `terrain`: the physics, the vehicle settled
/// at its start, the termination timers, scenario_number filled, `rays` as the drivers' line of
/// sight. Throws SceneError when the vehicle cannot settle. `world`, `terrain` and `rays` must
/// outlive the state.
std::unique_ptr<RunState> StartRun(const World& world, const TerrainCollision& terrain,
                                   const protocol::RunScenarioRequest& request,
                                   const RunTiming& timing, const RayCaster* rays);

/// Steps one run. Not thread-safe; the state must outlive the stepper.
class RunStepper {
 public:
  RunStepper(const RunTiming& timing, RunState* state) : timing_(timing), state_(state) {}

  /// Advances the run by one physics step under `driver`, asked at tick boundaries. Returns the
  /// outcome when the run ends at this step (RunResult with the analysis moved out of the state,
  /// vehicle_sim_time and termination_reason filled; or RunAborted), else nothing. Must not be
  /// called again once it returned an outcome.
  std::optional<RunOutcome> Step(Driver& driver);

  /// True when the next Step starts a control tick (the driver is asked there).
  bool AtTickBoundary() const { return sub_step_ == 0; }
  /// Physics steps done in the current tick, 0 .. steps_per_tick - 1.
  int sub_step() const { return sub_step_; }
  /// [s] simulated time since the first control input, physics steps included.
  double Time() const { return state_->tick * timing_.period + sub_step_ * timing_.dt; }
  /// Physics steps done since the run started.
  long StepsDone() const { return state_->tick * timing_.steps_per_tick + sub_step_; }
  const RunTiming& timing() const { return timing_; }

 private:
  RunTiming timing_;
  RunState* state_;
  int sub_step_ = 0;
};

}  // namespace asg::scene
