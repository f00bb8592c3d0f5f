// RoadRunner Scenario Simulation Engine services (seed 002): simulation control, status events,
// runtime actors, communication and diagnostic logs. Replies are {success, ...} and, when
// success is false, {description}.
#include "worker/serve/fields.h"
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
  if (session.state() == SimState::kQuitting) return "the simulation is quitting";
  if (session.goal_running()) return "a SimulateSteps goal is running";
  return {};
}

Reply RegisterClient(Session& session, const Call& call) {
  Fields request(call.body(), "");
  const std::string name = request.String("name");
  request.Done();
  session.NameClient(call.client_id, name);
  return Ok({{"client_id", call.client_id}});
}

Reply StartSimulation(Session& session, const Call& call) {
  Fields(call.body(), "").Done();
  if (const std::string blocked = ControlBlocked(session); !blocked.empty()) {
    return Failed(blocked);
  }
  if (session.state() == SimState::kPlaying) return Ok();  // does nothing when running
  if (session.live().ended()) session.Reload();
  session.SetState(SimState::kPlaying);
  return Ok();
}

Reply StopSimulation(Session& session, const Call& call) {
  Fields(call.body(), "").Done();
  if (const std::string blocked = ControlBlocked(session); !blocked.empty()) {
    return Failed(blocked);
  }
  if (session.state() == SimState::kStopped) return Ok();  // does nothing when not running
  session.Reload();
  session.SetState(SimState::kStopped);
  return Ok();
}

Reply RestartSimulation(Session& session, const Call& call) {
  Fields(call.body(), "").Done();
  if (const std::string blocked = ControlBlocked(session); !blocked.empty()) {
    return Failed(blocked);
  }
  session.Reload();
  session.SetState(SimState::kPlaying);
  return Ok();
}

Reply ToggleSimulationPaused(Session& session, const Call& call) {
  Fields(call.body(), "").Done();
  if (const std::string blocked = ControlBlocked(session); !blocked.empty()) {
    return Failed(blocked);
  }
  if (session.state() == SimState::kStopped) return Failed("the simulation is stopped");
  session.SetState(session.state() == SimState::kPlaying ? SimState::kPaused : SimState::kPlaying);
  return Ok({{"status", SimulationStatusName(session.state())}});
}

Reply GetSimulationStatus(Session& session, const Call& call) {
  Fields(call.body(), "").Done();
  scene::LiveRun& live = session.live();
  return Ok({{"status", SimulationStatusName(session.state())},
             {"state", static_cast<int>(session.state())},
             {"loaded", live.loaded()},
             {"ended", live.loaded() && live.ended()},
             {"manual_control", live.loaded() && live.manual_control()},
             {"simulation_pace", session.pace()}});
}

Reply GetSimulationTime(Session& session, const Call& call) {
  Fields(call.body(), "").Done();
  scene::LiveRun& live = session.live();
  if (!live.loaded()) return Failed(NotLoaded());
  return Ok({{"simulation_time", live.time()},
             {"steps", live.steps()},
             {"step_size", live.timing().dt},
             {"control_period", live.timing().period}});
}

Reply SetSimulationPace(Session& session, const Call& call) {
  Fields request(call.body(), "");
  const double pace = request.Number("simulation_pace", 1.0);
  request.Done();
  if (pace < 0.0) {
    throw std::invalid_argument("simulation_pace = " + std::to_string(pace) +
                                ": must be >= 0 (0 = as fast as possible)");
  }
  session.SetPace(pace);
  return Ok({{"simulation_pace", pace}});
}

Reply SubscribeEvents(Session& session, const Call& call) {
  Fields(call.body(), "").Done();
  session.Subscribe(call);
  return Ok({{"status", SimulationStatusName(session.state())}});
}

Json RuntimeActor(Session& session, const std::string& name) {
  const scene::EntityKinematics k = *session.live().Kinematics(name);
  return {{"actor_id", name},
          {"pose", PoseJson(k.position, k.orientation)},
          {"velocity", Vector3Json(k.linear_velocity)},
          {"angular_velocity", Vector3Json(k.angular_velocity)}};
}

Reply GetRuntimeActors(Session& session, const Call& call) {
  Fields request(call.body(), "");
  const Json& ids = request.Array("actor_ids");
  request.Done();
  if (!session.live().loaded()) return Failed(NotLoaded());
  Json actors = Json::array();
  if (ids.empty()) {
    for (const std::string& name : session.live().EntityNames()) {
      actors.push_back(RuntimeActor(session, name));
    }
  } else {
    for (size_t i = 0; i < ids.size(); ++i) {
      if (!ids[i].is_string()) {
        throw std::invalid_argument("actor_ids[" + std::to_string(i) + "] = " + ids[i].dump() +
                                    ": must be a string");
      }
      const std::string name = ids[i].get<std::string>();
      if (!session.live().Info(name))
        return Failed("actor_ids[" + std::to_string(i) + "] = \"" + name + "\": no such actor");
      actors.push_back(RuntimeActor(session, name));
    }
  }
  return Ok({{"actors", std::move(actors)}, {"simulation_time", session.live().time()}});
}

Reply SetRuntimeActors(Session& session, const Call& call) {
  Fields request(call.body(), "");
  const Json& actors = request.Array("actors");
  request.Done();
  if (!session.live().loaded()) return Failed(NotLoaded());
  // Every item is decoded before any is applied.
  std::vector<std::pair<std::string, scene::EntityStateChange>> changes;
  for (size_t i = 0; i < actors.size(); ++i) {
    Fields actor(actors[i], "actors[" + std::to_string(i) + "]");
    scene::EntityStateChange change;
    const std::string name = actor.String("actor_id");
    if (actor.Has("pose")) {
      Fields pose = actor.Object("pose");
      change.position = ReadVector3(pose.Object("position"));
      change.orientation = ReadQuaternion(pose.Object("orientation"));
      pose.Done();
    }
    if (actor.Has("velocity")) change.linear_velocity = ReadVector3(actor.Object("velocity"));
    if (actor.Has("angular_velocity")) {
      change.angular_velocity = ReadVector3(actor.Object("angular_velocity"));
    }
    actor.Done();
    changes.emplace_back(name, change);
  }
  for (size_t i = 0; i < changes.size(); ++i) {
    const scene::EntityOutcome outcome =
        session.live().SetState(changes[i].first, changes[i].second);
    if (outcome.status != scene::EntityStatus::kOk) {
      return Failed("actors[" + std::to_string(i) + "]: " + outcome.message +
                    (i > 0 ? " (the items before it were applied)" : ""));
    }
  }
  return Ok({{"applied", changes.size()}});
}

LogQuery ReadQuery(Fields* request, bool with_type) {
  LogQuery query;
  if (request->Has("client_id")) {
    query.client_id = static_cast<int>(request->Integer("client_id", 0, 0, INT32_MAX));
  }
  if (with_type && request->Has("type")) query.type = request->String("type");
  if (request->Has("level")) {
    query.level = request->String("level");
    if (*query.level != "info" && *query.level != "warning" && *query.level != "error") {
      throw std::invalid_argument("level = \"" + *query.level +
                                  "\": must be info, warning or error");
    }
  }
  return query;
}

Reply EnableCommunicationLogging(Session& session, const Call& call) {
  Fields request(call.body(), "");
  const bool enable = request.Bool("enable", true);
  request.Done();
  session.logs().EnableCommunication(enable);
  return Ok({{"enabled", enable}});
}

Reply QueryCommunicationLog(Session& session, const Call& call) {
  Fields request(call.body(), "");
  const LogQuery query = ReadQuery(&request, true);
  request.Done();
  return Ok({{"entries", session.logs().QueryCommunication(query)}});
}

Reply AddDiagnosticMessage(Session& session, const Call& call) {
  Fields request(call.body(), "");
  const std::string level = request.String("level", "info");
  const std::string message = request.String("message");
  request.Done();
  if (level != "info" && level != "warning" && level != "error") {
    throw std::invalid_argument("level = \"" + level + "\": must be info, warning or error");
  }
  session.logs().Diagnostic(call.client_id, level, message);
  return Ok();
}

Reply QueryDiagnosticMessageLog(Session& session, const Call& call) {
  Fields request(call.body(), "");
  const LogQuery query = ReadQuery(&request, false);
  request.Done();
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
