// The interactive worker's simulation clock: the simulation_interfaces state machine (STOPPED,
// PLAYING, PAUSED, QUITTING) over one scene::LiveRun, its wall-time pace while playing, and the
// stepping work that runs between requests: a StepSimulation longer than kInlineSteps and a
// SimulateSteps goal. It holds no socket: what it has to tell (a state change, goal feedback, a
// finished long step, the run's end) goes to a ClockListener, and time comes from a function, so
// that it runs under test without a network and without waiting.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scene/live_run.h"

namespace asg::worker::serve {

/// simulation_interfaces SimulationState values.
enum class SimState : uint8_t { kStopped = 0, kPlaying = 1, kPaused = 2, kQuitting = 3 };

/// The state's simulation_interfaces name, e.g. "STATE_PAUSED".
const char* SimStateName(SimState state);
/// The state's RoadRunner SSE status name, e.g. "SIMULATION_STATUS_PAUSED"; QUITTING is
/// "SIMULATION_STATUS_QUITTING", a name RoadRunner's SimulationStatus does not have.
const char* SimulationStatusName(SimState state);
/// The state's value of RoadRunner's SimulationStatus enum (UNSPECIFIED, STOPPED, RUNNING,
/// PAUSED): QUITTING, which it lacks, is "SIMULATION_STATUS_STOPPED".
const char* RoadRunnerStatus(SimState state);

/// action_msgs GoalStatus values a finished SimulateSteps goal ends with.
enum class GoalStatus : uint8_t { kSucceeded = 4, kCanceled = 5, kAborted = 6 };

/// The status's action_msgs name, e.g. "STATUS_SUCCEEDED".
const char* GoalStatusName(GoalStatus status);

/// action_msgs CancelGoal response return codes.
enum class CancelCode : uint8_t {
  kNone = 0,            ///< ERROR_NONE: the goals asked for are cancelled (maybe none)
  kRejected = 1,        ///< ERROR_REJECTED: the request cannot be read (never the clock's)
  kUnknownGoalId = 2,   ///< ERROR_UNKNOWN_GOAL_ID: no goal was ever given this id
  kGoalTerminated = 3,  ///< ERROR_GOAL_TERMINATED: the goal has finished already
};

/// What a cancel request did.
struct CancelOutcome {
  CancelCode code = CancelCode::kNone;
  std::vector<uint64_t> cancelled;  ///< ids of the goals cancelled (at most one runs at a time)
};

/// A SimulateSteps goal in progress.
struct SimulateStepsGoal {
  uint64_t id = 0;              ///< goal_id, from 1
  uint64_t steps = 0;           ///< steps asked for
  uint64_t done = 0;            ///< steps done so far
  uint64_t feedback_every = 1;  ///< feedback after every this many steps (and after the last)
  int client_id = 0;            ///< the client that sent the goal (feedback and result go there)
};

/// What the clock tells; called on the clock's thread, from within its calls.
class ClockListener {
 public:
  virtual ~ClockListener() = default;
  /// The state changed to `state` at simulated `time` [s] (0 when nothing is loaded).
  virtual void StateChanged(SimState state, double time) = 0;
  /// The loaded run ended at the step just taken (before the state becomes STOPPED).
  virtual void RunEnded() = 0;
  /// A goal made progress (every feedback_every steps and at its last step).
  virtual void GoalFeedback(const SimulateStepsGoal& goal) = 0;
  /// A goal is over with `status`: kSucceeded (every step done, `message` empty), kCanceled or
  /// kAborted (the run ended, or it failed on its caller's word), `message` saying why.
  virtual void GoalFinished(const SimulateStepsGoal& goal, GoalStatus status,
                            const std::string& message) = 0;
  /// The long StepSimulation is over, `done` of `total` steps done (fewer when the run ended).
  virtual void LongStepFinished(uint64_t done, uint64_t total) = 0;
};

/// The state, the pace and the stepping work of one LiveRun. Not thread-safe: one thread owns it.
class SimulationClock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  /// The wall clock the pace follows; steady_clock::now outside tests.
  using Now = std::function<TimePoint()>;

  /// Largest StepSimulation answered without polling the network in between.
  static constexpr uint64_t kInlineSteps = 1000;
  /// Most steps one StepSimulation or SimulateSteps may ask for.
  static constexpr uint64_t kMaxSteps = 100'000'000;

  /// What one Advance did.
  struct Work {
    enum class Kind {
      kIdle,     ///< nothing runs: wait for the network
      kStepped,  ///< did a part of the running work: poll the network, then advance again
      kWaiting,  ///< playing, the next step is due at `due`: wait for the network until then
    };
    Kind kind = Kind::kIdle;
    TimePoint due{};  ///< kWaiting: when the next paced step is due
  };

  /// `live` and `listener` must outlive the clock.
  SimulationClock(scene::LiveRun& live, ClockListener& listener,
                  Now now = std::chrono::steady_clock::now);

  SimState state() const { return state_; }
  /// Sets the state; a change restarts the pace and is told to the listener.
  void SetState(SimState state);
  /// A scenario was just loaded: PAUSED, told to the listener even when it was PAUSED before.
  void StartPaused();
  /// Reloads the run (LiveRun::Reload) without changing the state; the pace restarts.
  void Reload();

  /// [1] wall-time pace: simulated seconds per wall second; 0 = as fast as possible.
  double pace() const { return pace_; }
  /// Sets the pace; it restarts from the current step.
  void SetPace(double pace);
  /// Restarts the pace from the current step (after the run's clock was reset).
  void RestartPace() { pace_origin_.reset(); }

  /// Advances `steps` physics steps now, stopping when the run ends; returns the steps done.
  uint64_t StepNow(uint64_t steps);
  /// Starts a StepSimulation of `steps` steps worked through by Advance.
  void StartLongStep(uint64_t steps);
  /// True while a long StepSimulation is being worked through.
  bool long_step_running() const { return long_step_.has_value(); }
  /// Starts a SimulateSteps goal of `steps` steps for `client_id`, with feedback after every
  /// `feedback_every` (>= 1) steps and after the last; returns its id, or 0 when a goal is
  /// running already.
  uint64_t StartGoal(int client_id, uint64_t steps, uint64_t feedback_every = 1);
  /// True while a SimulateSteps goal is running.
  bool goal_running() const { return goal_.has_value(); }
  /// Ends the running goal with this id (any running goal when `goal_id` is 0) as cancelled;
  /// the outcome says which were cancelled, or why none was.
  CancelOutcome CancelGoals(uint64_t goal_id);
  /// Ends the running goal with this id as aborted with `message`; false when there is none.
  bool FailGoal(uint64_t goal_id, const std::string& message);
  /// QUITTING: the state changes and a running goal is dropped without a result.
  void Quit();

  /// Does the next piece of work: a step of the long StepSimulation, else of the goal (while
  /// PAUSED), else of the played run when its paced step is due.
  Work Advance();

 private:
  /// Steps once; tells the run's end. False when the run ended (or nothing runs).
  bool StepOnce();
  /// A step of the long StepSimulation.
  void AdvanceLongStep();
  /// A step of the goal.
  void AdvanceGoal();
  /// A paced step of the played run.
  Work AdvancePlaying();
  void FinishGoal(GoalStatus status, const std::string& message);

  /// The long StepSimulation being worked through.
  struct LongStep {
    uint64_t total = 0;
    uint64_t remaining = 0;
  };

  scene::LiveRun& live_;
  ClockListener& listener_;
  Now now_;
  SimState state_ = SimState::kStopped;
  double pace_ = 1.0;
  std::optional<TimePoint> pace_origin_;  // when the paced stretch began; unset: at the next step
  long pace_origin_steps_ = 0;            // the run's steps then
  std::optional<SimulateStepsGoal> goal_;
  uint64_t next_goal_id_ = 1;
  std::optional<LongStep> long_step_;
};

}  // namespace asg::worker::serve
