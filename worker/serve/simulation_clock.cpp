// The simulation clock: states, pace, long steps and goals.
#include "worker/serve/simulation_clock.h"

#include <algorithm>

#include "worker/serve/simif_constants.h"

namespace asg::worker::serve {

const char* SimStateName(SimState state) {
  switch (state) {
    case SimState::kStopped:
      return "STATE_STOPPED";
    case SimState::kPlaying:
      return "STATE_PLAYING";
    case SimState::kPaused:
      return "STATE_PAUSED";
    case SimState::kQuitting:
      return "STATE_QUITTING";
  }
  return "STATE_STOPPED";
}

const char* SimulationStatusName(SimState state) {
  switch (state) {
    case SimState::kStopped:
      return kStatusStopped;
    case SimState::kPlaying:
      return kStatusRunning;
    case SimState::kPaused:
      return kStatusPaused;
    case SimState::kQuitting:
      return kStatusQuitting;
  }
  return kStatusStopped;
}

const char* RoadRunnerStatus(SimState state) {
  if (state == SimState::kQuitting) return kStatusStopped;  // no steps run again
  return SimulationStatusName(state);
}

const char* GoalStatusName(GoalStatus status) {
  switch (status) {
    case GoalStatus::kSucceeded:
      return "STATUS_SUCCEEDED";
    case GoalStatus::kCanceled:
      return "STATUS_CANCELED";
    case GoalStatus::kAborted:
      return "STATUS_ABORTED";
  }
  return "STATUS_UNKNOWN";
}

SimulationClock::SimulationClock(scene::LiveRun& live, ClockListener& listener, Now now)
    : live_(live), listener_(listener), now_(std::move(now)) {}

void SimulationClock::SetState(SimState state) {
  if (state == state_) return;
  state_ = state;
  pace_origin_.reset();
  listener_.StateChanged(state, live_.loaded() ? live_.time() : 0.0);
}

void SimulationClock::StartPaused() {
  state_ = SimState::kStopped;  // so that the PAUSED below is told
  SetState(SimState::kPaused);
}

void SimulationClock::Reload() {
  live_.Reload();
  pace_origin_.reset();
}

void SimulationClock::SetPace(double pace) {
  pace_ = pace;
  pace_origin_.reset();
}

bool SimulationClock::StepOnce() {
  if (!live_.loaded() || live_.ended()) return false;
  if (live_.Step()) {
    listener_.RunEnded();
    SetState(SimState::kStopped);
    return false;
  }
  return true;
}

uint64_t SimulationClock::StepNow(uint64_t steps) {
  uint64_t done = 0;
  while (done < steps && StepOnce()) ++done;
  return done;
}

void SimulationClock::StartLongStep(uint64_t steps) { long_step_ = LongStep{steps, steps}; }

uint64_t SimulationClock::StartGoal(int client_id, uint64_t steps, uint64_t feedback_every) {
  if (goal_) return 0;
  SimulateStepsGoal goal;
  goal.id = next_goal_id_++;
  goal.steps = steps;
  goal.feedback_every = std::max<uint64_t>(1, feedback_every);
  goal.client_id = client_id;
  goal_ = goal;
  return goal.id;
}

CancelOutcome SimulationClock::CancelGoals(uint64_t goal_id) {
  CancelOutcome outcome;
  if (goal_ && (goal_id == 0 || goal_->id == goal_id)) {
    outcome.cancelled.push_back(goal_->id);
    FinishGoal(GoalStatus::kCanceled, "cancelled after " + std::to_string(goal_->done) + " of " +
                                          std::to_string(goal_->steps) + " steps");
  } else if (goal_id >= next_goal_id_) {
    outcome.code = CancelCode::kUnknownGoalId;
  } else if (goal_id != 0) {
    outcome.code = CancelCode::kGoalTerminated;  // ids below next_goal_id_ were all given
  }
  return outcome;
}

bool SimulationClock::FailGoal(uint64_t goal_id, const std::string& message) {
  if (!goal_ || goal_->id != goal_id) return false;
  FinishGoal(GoalStatus::kAborted, message);
  return true;
}

void SimulationClock::Quit() {
  SetState(SimState::kQuitting);
  goal_.reset();
}

void SimulationClock::FinishGoal(GoalStatus status, const std::string& message) {
  const SimulateStepsGoal goal = *goal_;
  goal_.reset();
  listener_.GoalFinished(goal, status, message);
}

SimulationClock::Work SimulationClock::Advance() {
  if (long_step_) {
    AdvanceLongStep();
    return {Work::Kind::kStepped};
  }
  if (goal_) {
    // A goal steps only while PAUSED; one accepted in another state is failed by its caller.
    if (state_ != SimState::kPaused) return {Work::Kind::kIdle};
    AdvanceGoal();
    return {Work::Kind::kStepped};
  }
  if (state_ == SimState::kPlaying) return AdvancePlaying();
  return {Work::Kind::kIdle};
}

void SimulationClock::AdvanceLongStep() {
  if (long_step_->remaining == 0 || !StepOnce()) {
    const LongStep step = *long_step_;
    long_step_.reset();
    listener_.LongStepFinished(step.total - step.remaining, step.total);
  } else {
    --long_step_->remaining;
  }
}

void SimulationClock::AdvanceGoal() {
  if (!StepOnce()) {
    FinishGoal(GoalStatus::kAborted,
               "the run ended after " + std::to_string(goal_->done) + " steps");
    return;
  }
  SimulateStepsGoal& goal = *goal_;
  ++goal.done;
  if (goal.done % goal.feedback_every == 0 || goal.done == goal.steps) {
    listener_.GoalFeedback(goal);
  }
  if (goal.done == goal.steps) FinishGoal(GoalStatus::kSucceeded, "");
}

SimulationClock::Work SimulationClock::AdvancePlaying() {
  if (!live_.loaded() || live_.ended()) {
    SetState(SimState::kStopped);
    return {Work::Kind::kIdle};
  }
  if (pace_ > 0.0) {
    const TimePoint now = now_();
    // A reload or a reset of the run's clock starts the pace over.
    if (!pace_origin_ || live_.steps() < pace_origin_steps_) {
      pace_origin_ = now;
      pace_origin_steps_ = live_.steps();
    }
    // Step n of the stretch is due when the wall time since its start reaches n * dt / pace.
    const double simulated = (live_.steps() - pace_origin_steps_) * live_.timing().dt;
    const TimePoint due = *pace_origin_ + std::chrono::duration_cast<TimePoint::duration>(
                                              std::chrono::duration<double>(simulated / pace_));
    if (due > now) return {Work::Kind::kWaiting, due};
  }
  StepOnce();
  return {Work::Kind::kStepped};
}

}  // namespace asg::worker::serve
