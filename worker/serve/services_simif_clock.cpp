// ROS 2 simulation_interfaces services (seed 000) of the simulation's state and stepping:
// ResetSimulation, Get/SetSimulationState, StepSimulation and the SimulateSteps action.
#include "worker/serve/reply_json.h"
#include "worker/serve/requests.h"
#include "worker/serve/services.h"
#include "worker/serve/services_simif.h"
#include "worker/serve/session.h"
#include "worker/serve/simif_constants.h"

namespace asg::worker::serve {
namespace {

using json::Json;

Reply ResetSimulation(Session& session, const Call& call) {
  const int scope = ReadRequest<ResetRequest>(call.body()).scope;
  if (!session.live().loaded()) {
    return {{{"result", ResultJson(kResultIncorrectState, NotLoaded())}}};
  }
  if (session.clock().goal_running()) {
    return {{{"result", ResultJson(kResultIncorrectState, "a SimulateSteps goal is running")}}};
  }
  if (scope == kScopeDefault || scope == kScopeAll) {
    // As if closed and launched again: the scenario as LoadScenario leaves it, PAUSED at time 0
    // (a playing run stops playing).
    session.Reload();
    session.clock().StartPaused();
    return {{{"result", ResultJson(kResultOk)}}};
  }
  if ((scope & ~(kScopeTime | kScopeState | kScopeSpawned)) != 0) {
    return {{{"result", ResultJson(kResultFeatureUnsupported,
                                   "scope = " + std::to_string(scope) +
                                       ": only SCOPE_TIME (1), SCOPE_STATE (2), SCOPE_SPAWNED (4), "
                                       "their sums and SCOPE_ALL (255) are understood")}}};
  }
  scene::LiveRun& live = session.live();
  const Eigen::Vector3d from = live.vehicle_state().position;
  if (scope & kScopeSpawned) live.DeleteSpawned();
  if (scope & kScopeState) live.ResetState();
  if (scope & kScopeTime) {
    live.ResetTime();
    session.clock().RestartPace();  // as above: the pace restarts with the clock
    session.interventions().ClockRestarted();
  }
  results::Intervention reset = MakeIntervention(live, "ResetSimulation", "all", "reset");
  reset.scope = scope;
  if (scope & kScopeState) {
    reset.from = Xyz(from);
    reset.to = Xyz(live.vehicle_state().position);
  }
  session.interventions().Add(std::move(reset));
  return {{{"result", ResultJson(kResultOk)}}};
}

Reply GetSimulationState(Session& session, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  return {{{"state", {{"state", static_cast<int>(session.clock().state())}}},
           {"result", ResultJson(kResultOk)}}};
}

Reply SetSimulationState(Session& session, const Call& call) {
  const int target = ReadRequest<SetSimulationStateRequest>(call.body()).state.state;
  SimulationClock& clock = session.clock();
  const SimState current = clock.state();
  const auto answer = [](int code, const std::string& message = {}) {
    return Reply{{{"result", ResultJson(code, message)}}};
  };
  if (target > static_cast<int>(SimState::kQuitting)) {
    return answer(kResultFeatureUnsupported, "state.state = " + std::to_string(target) +
                                                 ": world loading states are not settable");
  }
  const auto wanted = static_cast<SimState>(target);
  const std::string transition = std::string(SimStateName(current)) + " -> " + SimStateName(wanted);
  if (current == SimState::kQuitting) {
    return answer(kIncorrectTransition, transition + ": the simulation is quitting");
  }
  if (wanted == current) return answer(kAlreadyInTargetState, transition);
  if (clock.goal_running()) {
    return answer(kResultIncorrectState, transition +
                                             ": a SimulateSteps goal is running; cancel it first "
                                             "(CancelSimulateSteps)");
  }
  switch (wanted) {
    case SimState::kPaused:
      if (current == SimState::kStopped) {
        return answer(kIncorrectTransition, transition + " is forbidden; play first");
      }
      break;
    case SimState::kPlaying:
      if (!session.live().loaded()) {
        return answer(kStateTransitionError, transition + ": " + NotLoaded());
      }
      if (session.live().ended()) session.Reload();
      break;
    case SimState::kStopped:
      session.Reload();
      break;
    case SimState::kQuitting:
      session.Quit();
      return answer(kResultOk);
  }
  clock.SetState(wanted);
  return answer(kResultOk);
}

Reply StepSimulation(Session& session, const Call& call) {
  const uint64_t steps = ReadRequest<StepsRequest>(call.body()).steps;
  SimulationClock& clock = session.clock();
  if (clock.goal_running()) {
    return {{{"result", ResultJson(kResultIncorrectState, "a SimulateSteps goal is running")}}};
  }
  if (clock.state() != SimState::kPaused) {
    return {{{"result",
              ResultJson(kResultOperationFailed, std::string("the simulation is not paused (") +
                                                     SimStateName(clock.state()) + ")")}}};
  }
  if (steps > SimulationClock::kInlineSteps) {
    session.StartLongStep(call, steps);
    Reply later;
    later.later = true;
    return later;
  }
  const uint64_t done = clock.StepNow(steps);
  const double time = session.live().time();
  if (done < steps) {
    return {{{"result",
              ResultJson(kResultOperationFailed, "the run ended after " + std::to_string(done) +
                                                     " of " + std::to_string(steps) + " steps")},
             {"simulation_time", time}}};
  }
  return {{{"result", ResultJson(kResultOk)}, {"simulation_time", time}}};
}

Reply SimulateSteps(Session& session, const Call& call) {
  const auto request = ReadRequest<SimulateStepsRequest>(call.body());
  const SimulationClock& clock = session.clock();
  if (clock.goal_running()) {
    return {{{"accepted", false},
             {"goal_id", 0},
             {"result", ResultJson(kResultIncorrectState, "a SimulateSteps goal is running")}}};
  }
  // Accepted in any state; one that does not step now is aborted right after.
  std::string failure;
  if (clock.state() != SimState::kPaused) {
    failure = std::string("the simulation is not paused (") + SimStateName(clock.state()) + ")";
  }
  const uint64_t id = session.StartGoal(call, request.steps, request.feedback_every_steps, failure);
  return {{{"accepted", true}, {"goal_id", id}}};
}

/// The farm's Result beside a CancelGoal return code.
Json CancelResultJson(CancelCode code, uint64_t id) {
  const std::string goal = "goal_id = " + std::to_string(id);
  switch (code) {
    case CancelCode::kNone:
      return ResultJson(kResultOk);
    case CancelCode::kRejected:  // given only to a request that cannot be read (BadInput)
      return ResultJson(kResultOperationFailed, goal + ": the request was rejected");
    case CancelCode::kUnknownGoalId:
      return ResultJson(kResultNotFound, goal + ": no goal was given this id");
    case CancelCode::kGoalTerminated:
      return ResultJson(kResultNotFound, goal + ": the goal has finished already");
  }
  return ResultJson(kResultOperationFailed, goal);
}

Reply CancelSimulateSteps(Session& session, const Call& call) {
  const auto id = static_cast<uint64_t>(ReadRequest<CancelRequest>(call.body()).goal_id);
  const CancelOutcome outcome = session.clock().CancelGoals(id);
  Json canceling = Json::array();
  for (const uint64_t goal : outcome.cancelled) canceling.push_back({{"goal_id", goal}});
  return {{{"return_code", static_cast<int>(outcome.code)},
           {"goals_canceling", std::move(canceling)},
           {"result", CancelResultJson(outcome.code, id)}}};
}

}  // namespace

void AddSimulationClockServices(std::map<std::string, Service>* services) {
  const char* family = "simulation_interfaces";
  (*services)["ResetSimulation"] = {family, "reset by scope: TIME 1, STATE 2, SPAWNED 4, ALL 255",
                                    SimifResultOnBadInput<ResetSimulation>};
  (*services)["GetSimulationState"] = {family, "STOPPED 0, PLAYING 1, PAUSED 2, QUITTING 3",
                                       SimifResultOnBadInput<GetSimulationState>};
  (*services)["SetSimulationState"] = {family, "play, pause, stop, quit",
                                       SimifResultOnBadInput<SetSimulationState>};
  (*services)["StepSimulation"] = {family, "advance {steps} physics steps while paused",
                                   SimifResultOnBadInput<StepSimulation>};
  (*services)["SimulateSteps"] = {family, "action: steps with feedback, cancellable",
                                  SimifResultOnBadInput<SimulateSteps>};
  (*services)["CancelSimulateSteps"] = {family, "cancel a SimulateSteps goal",
                                        SimifResultOnBadInput<CancelSimulateSteps>};
}

}  // namespace asg::worker::serve
