// RoadRunner Scenario Simulation Engine services (seed 002): simulation control, status events,
// runtime actors, communication and diagnostic logs. Replies are {success, ...} and, when
// success is false, {description}.
#include "core/number_format.h"
#include "worker/serve/reply_json.h"
#include "worker/serve/requests.h"
#include "worker/serve/services.h"
#include "worker/serve/session.h"

namespace asg::worker::serve {
namespace {

using json::Json;

Reply Ok(Json body = Json::object()) {
  body["success"] = true;
  return {body};
}

Reply Failed(const std::string& description) {
  return {{{"success", false}, {"description", description}}};
}

/// The reason a control call cannot change the state now, or empty.
std::string ControlBlocked(Session& session) {
  if (!session.live().loaded()) return NotLoaded();
  if (session.clock().state() == SimState::kQuitting) return "the simulation is quitting";
  if (session.clock().goal_running()) return "a SimulateSteps goal is running";
  return {};
}

Reply RegisterClient(Session& session, const Call& call) {
  const std::string name = ReadRequest<RegisterClientRequest>(call.body()).name;
  session.logs().Diagnostic(call.client_id, "info",
                            "client " + std::to_string(call.client_id) + " is " + name);
  return Ok({{"client_id", call.client_id}});
}

Reply StartSimulation(Session& session, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  if (const std::string blocked = ControlBlocked(session); !blocked.empty()) {
    return Failed(blocked);
  }
  if (session.clock().state() == SimState::kPlaying) return Ok();  // does nothing when running
  if (session.live().ended()) session.Reload();
  session.clock().SetState(SimState::kPlaying);
  return Ok();
}

Reply StopSimulation(Session& session, const Call& call) {
  const std::optional<StopCauseValue> cause = ReadRequest<StopRequest>(call.body()).cause;
  if (cause) {
    const bool failed = !cause->simulation_failed.is_null();
    session.logs().Diagnostic(call.client_id, failed ? "warning" : "info",
                              std::string("stop cause: ") + (failed ? "failed" : "complete") +
                                  (cause->summary.empty() ? "" : ": " + cause->summary));
  }
  if (const std::string blocked = ControlBlocked(session); !blocked.empty()) {
    return Failed(blocked);
  }
  if (session.clock().state() == SimState::kStopped) return Ok();  // does nothing when not running
  session.Reload();
  session.clock().SetState(SimState::kStopped);
  return Ok();
}

Reply RestartSimulation(Session& session, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  if (const std::string blocked = ControlBlocked(session); !blocked.empty()) {
    return Failed(blocked);
  }
  session.Reload();
  session.clock().SetState(SimState::kPlaying);
  return Ok();
}

/// The status fields of a reply: the farm's name and RoadRunner's SimulationStatus value.
Json StatusFields(SimState state) {
  return {{"status", SimulationStatusName(state)}, {"simulation_status", RoadRunnerStatus(state)}};
}

Reply ToggleSimulationPaused(Session& session, const Call& call) {
  const std::optional<bool> pause = ReadRequest<PauseRequest>(call.body()).pause_simulation;
  if (const std::string blocked = ControlBlocked(session); !blocked.empty()) {
    return Failed(blocked);
  }
  const SimState state = session.clock().state();
  if (state == SimState::kStopped) return Failed("the simulation is stopped");
  // pause_simulation asks for a state (already in it: nothing changes); absent, it toggles.
  const bool paused = pause ? *pause : state == SimState::kPlaying;
  session.clock().SetState(paused ? SimState::kPaused : SimState::kPlaying);
  return Ok(StatusFields(session.clock().state()));
}

Reply GetSimulationStatus(Session& session, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  scene::LiveRun& live = session.live();
  Json reply = StatusFields(session.clock().state());
  reply.update(Json{{"state", static_cast<int>(session.clock().state())},
                    {"loaded", live.loaded()},
                    {"ended", live.loaded() && live.ended()},
                    {"manual_control", live.loaded() && live.manual_control()},
                    {"simulation_pace", session.clock().pace()}});
  return Ok(std::move(reply));
}

Reply GetSimulationTime(Session& session, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  scene::LiveRun& live = session.live();
  if (!live.loaded()) return Failed(NotLoaded());
  return Ok({{"simulation_time", live.time()},
             {"steps", live.steps()},
             {"step_size", live.timing().dt},
             {"control_period", live.timing().period}});
}

Reply SetSimulationPace(Session& session, const Call& call) {
  const PaceRequest request = ReadRequest<PaceRequest>(call.body());
  const double pace = request.simulation_pace;
  if (pace < 0.0) {
    throw std::invalid_argument("simulation_pace = " + core::FormatNumber(pace) +
                                ": must be >= 0 (0 = as fast as possible)");
  }
  if (request.is_pacer_on == true && pace == 0.0) {
    throw std::invalid_argument("simulation_pace = 0: must be > 0 when is_pacer_on is true");
  }
  // RoadRunner's pacer off runs as fast as possible: the farm's pace 0.
  const double applied = request.is_pacer_on == false ? 0.0 : pace;
  session.clock().SetPace(applied);
  return Ok({{"simulation_pace", applied}, {"is_pacer_on", applied > 0.0}});
}

Reply SubscribeEvents(Session& session, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  session.hub().Subscribe(call);
  return Ok(StatusFields(session.clock().state()));
}

Json RuntimeActor(Session& session, const std::string& name) {
  const scene::EntityKinematics k = *session.live().Kinematics(name);
  return {{"actor_id", name},
          {"pose", PoseJson(k.position, k.orientation)},
          {"velocity", Vector3Json(k.linear_velocity)},
          {"angular_velocity", Vector3Json(k.angular_velocity)}};
}

Reply GetRuntimeActors(Session& session, const Call& call) {
  const std::vector<std::string> ids = ReadRequest<RuntimeActorsQuery>(call.body()).actor_ids;
  if (!session.live().loaded()) return Failed(NotLoaded());
  Json actors = Json::array();
  if (ids.empty()) {
    for (const std::string& name : session.live().EntityNames()) {
      actors.push_back(RuntimeActor(session, name));
    }
  } else {
    for (size_t i = 0; i < ids.size(); ++i) {
      const std::string& name = ids[i];
      if (!session.live().Info(name))
        return Failed("actor_ids[" + std::to_string(i) + "] = \"" + name + "\": no such actor");
      actors.push_back(RuntimeActor(session, name));
    }
  }
  return Ok({{"actors", std::move(actors)}, {"simulation_time", session.live().time()}});
}

Reply SetRuntimeActors(Session& session, const Call& call) {
  // Every item is decoded before any is applied.
  const auto request = ReadRequest<SetRuntimeActorsRequest>(call.body());
  if (!session.live().loaded()) return Failed(NotLoaded());
  std::vector<std::pair<std::string, scene::EntityStateChange>> changes;
  for (size_t i = 0; i < request.actors.size(); ++i) {
    const ActorChangeValue& actor = request.actors[i];
    scene::EntityStateChange change;
    if (actor.pose) {
      change.position = actor.pose->position.ToEigen();
      change.orientation = actor.pose->Orientation("actors[" + std::to_string(i) + "].pose");
      change.snap_to_ground = actor.pose->snap_to_ground;
    }
    if (actor.velocity) change.linear_velocity = actor.velocity->ToEigen();
    if (actor.angular_velocity) change.angular_velocity = actor.angular_velocity->ToEigen();
    changes.emplace_back(actor.actor_id, change);
  }
  for (size_t i = 0; i < changes.size(); ++i) {
    const scene::EntityOutcome outcome =
        SetStateRecorded(session, "SetRuntimeActors", changes[i].first, changes[i].second);
    if (outcome.status != scene::EntityStatus::kOk) {
      return Failed("actors[" + std::to_string(i) + "]: " + outcome.message +
                    (i > 0 ? " (the items before it were applied)" : ""));
    }
  }
  return Ok({{"applied", changes.size()}});
}

Reply EnableCommunicationLogging(Session& session, const Call& call) {
  const bool enable = ReadRequest<EnableLoggingRequest>(call.body()).enable;
  session.logs().EnableCommunication(enable);
  return Ok({{"enabled", enable}});
}

Reply QueryCommunicationLog(Session& session, const Call& call) {
  const auto request = ReadRequest<CommunicationQueryRequest>(call.body());
  const LogQuery query{request.client_id, request.type, request.level};
  return Ok({{"entries", session.logs().QueryCommunication(query)}});
}

Reply AddDiagnosticMessage(Session& session, const Call& call) {
  const auto request = ReadRequest<DiagnosticRequest>(call.body());
  session.logs().Diagnostic(call.client_id, request.level, request.message);
  return Ok();
}

Reply QueryDiagnosticMessageLog(Session& session, const Call& call) {
  const auto request = ReadRequest<DiagnosticQueryRequest>(call.body());
  const LogQuery query{request.client_id, std::nullopt, request.level};
  return Ok({{"entries", session.logs().QueryDiagnostics(query)}});
}

}  // namespace

void AddRoadRunnerServices(std::map<std::string, Service>* services) {
  const char* family = "roadrunner_sse";
  (*services)["RegisterClient"] = {family, "name this connection's client", RegisterClient};
  (*services)["StartSimulation"] = {family, "play (a fresh run after an end)", StartSimulation};
  (*services)["StopSimulation"] = {family, "stop: the scenario reloaded at its start",
                                   StopSimulation};
  (*services)["RestartSimulation"] = {family, "reload and play", RestartSimulation};
  (*services)["ToggleSimulationPaused"] = {family, "pause or resume", ToggleSimulationPaused};
  (*services)["GetSimulationStatus"] = {family, "status, pace, manual control",
                                        GetSimulationStatus};
  (*services)["GetSimulationTime"] = {family, "simulated time and steps", GetSimulationTime};
  (*services)["SetSimulationPace"] = {family, "simulated s per wall s; 0 = as fast as possible",
                                      SetSimulationPace};
  (*services)["SubscribeEvents"] = {family, "receive Event frames on status changes",
                                    SubscribeEvents};
  (*services)["GetRuntimeActors"] = {family, "poses and velocities of actors", GetRuntimeActors};
  (*services)["SetRuntimeActors"] = {family, "move actors, teleport the vehicle", SetRuntimeActors};
  (*services)["EnableCommunicationLogging"] = {family, "turn the communication log on or off",
                                               EnableCommunicationLogging};
  (*services)["QueryCommunicationLog"] = {family, "requests and replies, filtered",
                                          QueryCommunicationLog};
  (*services)["AddDiagnosticMessage"] = {family, "log info / warning / error",
                                         AddDiagnosticMessage};
  (*services)["QueryDiagnosticMessageLog"] = {family, "diagnostic messages, filtered",
                                              QueryDiagnosticMessageLog};
}

}  // namespace asg::worker::serve
