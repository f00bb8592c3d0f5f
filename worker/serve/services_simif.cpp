// ROS 2 simulation_interfaces services (seed 000) over the interactive worker's session.
#include <regex>

#include "worker/serve/reply_json.h"
#include "worker/serve/requests.h"
#include "worker/serve/services.h"
#include "worker/serve/session.h"
#include "worker/serve/simif_constants.h"

namespace asg::worker::serve {
namespace {

using json::Json;

/// The entity filters of GetEntities and GetEntitiesStates.
struct Filters {
  std::optional<std::regex> name;
  std::vector<int> categories;
  std::vector<std::string> tags;
  bool all_tags = false;
  int bounds_type = kBoundsEmpty;  // or kBoundsBox, kBoundsSphere
  Eigen::AlignedBox3d box;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double radius = 0.0;
};

/// The filters of `value`; an unsupported bounds type gives *unsupported.
Filters CompileFilters(const FiltersValue& value, std::string* unsupported) {
  Filters filters;
  if (!value.filter.empty()) {
    try {
      filters.name.emplace(value.filter, std::regex::extended | std::regex::nosubs);
    } catch (const std::regex_error& error) {
      throw std::invalid_argument("filters.filter = \"" + value.filter +
                                  "\": not a POSIX extended regular expression (" + error.what() +
                                  ")");
    }
  }
  for (const CategoryValue& category : value.categories) {
    filters.categories.push_back(category.category);
  }
  filters.tags = value.tags.tags;
  filters.all_tags = value.tags.filter_mode == kFilterModeAll;
  filters.bounds_type = value.bounds.type;
  const std::vector<Vector3Value>& corners = value.bounds.points;
  if (filters.bounds_type == kBoundsConvexHull) {
    *unsupported =
        "filters.bounds.type = 2 (TYPE_CONVEX_HULL) is not supported; use TYPE_BOX "
        "or TYPE_SPHERE";
  } else if (filters.bounds_type != kBoundsEmpty && corners.size() != 2) {
    throw std::invalid_argument("filters.bounds.points: " + std::to_string(corners.size()) +
                                " points; TYPE_BOX and TYPE_SPHERE take 2");
  } else if (filters.bounds_type == kBoundsBox) {
    const Eigen::Vector3d a = corners[0].ToEigen();
    const Eigen::Vector3d b = corners[1].ToEigen();
    filters.box = Eigen::AlignedBox3d(a.cwiseMin(b), a.cwiseMax(b));
  } else if (filters.bounds_type == kBoundsSphere) {
    filters.centre = corners[0].ToEigen();
    filters.radius = corners[1].x;
    if (filters.radius < 0.0) {
      throw std::invalid_argument("filters.bounds.points[1].x = " + std::to_string(filters.radius) +
                                  ": a radius must be >= 0");
    }
  }
  return filters;
}

bool Matches(const Filters& filters, const scene::EntityInfo& info) {
  if (filters.name && !std::regex_search(info.name, *filters.name)) return false;
  if (!filters.categories.empty() &&
      std::find(filters.categories.begin(), filters.categories.end(),
                static_cast<int>(info.category)) == filters.categories.end()) {
    return false;
  }
  if (!filters.tags.empty()) {
    size_t found = 0;
    for (const std::string& tag : filters.tags) {
      if (std::find(info.tags.begin(), info.tags.end(), tag) != info.tags.end()) ++found;
    }
    if (filters.all_tags ? found != filters.tags.size() : found == 0) return false;
  }
  if (filters.bounds_type == kBoundsBox && !filters.box.intersects(info.bounds)) return false;
  if (filters.bounds_type == kBoundsSphere &&
      info.bounds.squaredExteriorDistance(filters.centre) > filters.radius * filters.radius) {
    return false;
  }
  return true;
}

/// The names matching the request's filters, or a result to answer with.
std::optional<Json> MatchingNames(Session& session, const Call& call,
                                  std::vector<std::string>* names) {
  const auto request = ReadRequest<FilteredRequest>(call.body());
  std::string unsupported;
  const Filters filters = CompileFilters(request.filters, &unsupported);
  if (!unsupported.empty()) return ResultJson(kResultFeatureUnsupported, unsupported);
  if (!session.live().loaded()) return ResultJson(kResultIncorrectState, NotLoaded());
  const bool unfiltered = !filters.name && filters.categories.empty() && filters.tags.empty() &&
                          filters.bounds_type == kBoundsEmpty;
  for (std::string& name : session.live().EntityNames()) {
    if (unfiltered || Matches(filters, *session.live().Info(name)))
      names->push_back(std::move(name));
  }
  return std::nullopt;
}

Reply GetSimulatorFeatures(Session&, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  Json features = Json::array();
  for (const NamedConstant& feature : kAdvertisedFeatures) features.push_back(feature.value);
  return {{{"features",
            {{"features", features},
             {"spawn_formats", {"asg"}},
             {"custom_info",
              "ASG Farm interactive worker. Spawnable URIs: asg://actor/<class short name or "
              "path_name> (GetSpawnables), asg://vehicle. One step is one physics step. "
              "docs/interactive.md"}}}}};
}

Reply GetSpawnables(Session& session, const Call& call) {
  const auto request = ReadRequest<SpawnablesRequest>(call.body());
  Json spawnables = Json::array();
  scene::LiveRun& live = session.live();
  for (const scene::SpawnableClass& spawnable : live.Spawnables()) {
    spawnables.push_back({{"entity_resource", {{"uri", spawnable.uri}, {"resource_string", ""}}},
                          {"description", spawnable.description},
                          {"spawn_bounds", BoxBoundsJson(spawnable.bounds)}});
  }
  const std::string message =
      request.sources.empty() ? ""
                              : "sources are not searched: the actor catalog is the only source";
  return {{{"result", ResultJson(kResultOk, message)}, {"spawnables", spawnables}}};
}

/// The resource of a spawn request: entity_resource, or 1.0's top-level uri and
/// resource_string (not both forms at once).
scene::SpawnRequest SpawnOf(const SpawnRequestBody& request, const std::string& path) {
  const bool old_form = !request.uri.empty() || !request.resource_string.empty();
  const ResourceValue& resource = request.entity_resource;
  if (old_form && (!resource.uri.empty() || !resource.resource_string.empty())) {
    throw std::invalid_argument(path + "uri = \"" + request.uri +
                                "\": give entity_resource or the top-level uri and "
                                "resource_string, not both");
  }
  scene::SpawnRequest spawn;
  spawn.name = request.name;
  spawn.allow_renaming = request.allow_renaming;
  spawn.uri = old_form ? request.uri : resource.uri;
  spawn.resource_string = old_form ? request.resource_string : resource.resource_string;
  spawn.entity_namespace = request.entity_namespace;
  spawn.position = request.initial_pose.pose.position.ToEigen();
  spawn.orientation = request.initial_pose.pose.Orientation(path + "initial_pose.pose");
  return spawn;
}

/// Spawns one entity for `service` (the scenario is loaded): a SpawnResult, {result,
/// entity_name}.
Json SpawnOne(Session& session, const std::string& service, const SpawnRequestBody& request,
              const scene::SpawnRequest& spawn) {
  const std::string& frame = request.initial_pose.header.frame_id;  // the stamp is ignored
  if (!frame.empty() && frame != "world") {
    return {{"result", ResultJson(kSpawnInvalidPose, "initial_pose.header.frame_id = \"" + frame +
                                                         "\": only \"world\" is known")},
            {"entity_name", ""}};
  }
  const scene::EntityOutcome outcome = session.live().Spawn(spawn);
  if (outcome.status == scene::EntityStatus::kOk) {
    results::Intervention spawned =
        MakeIntervention(session.live(), service, outcome.name, "entity_spawned");
    spawned.uri = spawn.uri;
    spawned.to = Xyz(session.live().Kinematics(outcome.name)->position);
    session.interventions().Add(std::move(spawned));
  }
  return {{"result", ResultJson(SpawnCode(outcome.status), outcome.message)},
          {"entity_name", outcome.status == scene::EntityStatus::kOk ? outcome.name : ""}};
}

Reply SpawnEntity(Session& session, const Call& call) {
  const auto request = ReadRequest<SpawnRequestBody>(call.body());
  const scene::SpawnRequest spawn = SpawnOf(request, "");
  if (!session.live().loaded()) {
    return {{{"result", ResultJson(kResultIncorrectState, NotLoaded())}}};
  }
  return SpawnOne(session, "SpawnEntity", request, spawn);
}

Reply SpawnEntities(Session& session, const Call& call) {
  const auto request = ReadRequest<SpawnEntitiesRequest>(call.body());
  std::vector<scene::SpawnRequest> spawns;
  for (size_t i = 0; i < request.spawn_requests.size(); ++i) {
    const std::string path = "spawn_requests[" + std::to_string(i) + "].";
    spawns.push_back(SpawnOf(request.spawn_requests[i], path));
  }
  if (!session.live().loaded()) {
    return {
        {{"result", ResultJson(kResultIncorrectState, NotLoaded())}, {"results", Json::array()}}};
  }
  Json results = Json::array();
  size_t failed = 0;
  for (size_t i = 0; i < spawns.size(); ++i) {
    results.push_back(SpawnOne(session, "SpawnEntities", request.spawn_requests[i], spawns[i]));
    if (results.back()["result"]["result"] != kResultOk) ++failed;
  }
  const Json result =
      failed == 0 ? ResultJson(kResultOk)
                  : ResultJson(kEntitiesSpawnFailed, std::to_string(failed) + " of " +
                                                         std::to_string(spawns.size()) +
                                                         " spawn requests failed (see results)");
  return {{{"result", result}, {"results", std::move(results)}}};
}

Reply DeleteEntity(Session& session, const Call& call) {
  const std::string name = ReadRequest<EntityRequest>(call.body()).entity;
  if (!session.live().loaded()) {
    return {{{"result", ResultJson(kResultIncorrectState, NotLoaded())}}};
  }
  const std::optional<scene::EntityKinematics> before = session.live().Kinematics(name);
  const scene::EntityOutcome outcome = session.live().Delete(name);
  if (outcome.status == scene::EntityStatus::kOk) {
    results::Intervention deleted =
        MakeIntervention(session.live(), "DeleteEntity", name, "entity_deleted");
    deleted.from = Xyz(before->position);
    session.interventions().Add(std::move(deleted));
  }
  return {{{"result", ResultJson(EntityCode(outcome.status), outcome.message)}}};
}

Reply GetEntities(Session& session, const Call& call) {
  std::vector<std::string> names;
  if (auto result = MatchingNames(session, call, &names)) {
    return {{{"result", *result}, {"entities", Json::array()}}};
  }
  return {{{"result", ResultJson(kResultOk)}, {"entities", names}}};
}

Reply GetEntitiesStates(Session& session, const Call& call) {
  std::vector<std::string> names;
  if (auto result = MatchingNames(session, call, &names)) {
    return {{{"result", *result}, {"entities", Json::array()}, {"states", Json::array()}}};
  }
  Json states = Json::array();
  const double time = session.live().time();
  for (const std::string& name : names) {
    states.push_back(EntityStateJson(*session.live().Kinematics(name), time));
  }
  return {{{"result", ResultJson(kResultOk)}, {"entities", names}, {"states", std::move(states)}}};
}

/// The entity named by the request's "entity", or a result to answer with.
std::optional<Json> NamedEntity(Session& session, const Call& call, std::string* name) {
  *name = ReadRequest<EntityRequest>(call.body()).entity;
  if (!session.live().loaded()) return ResultJson(kResultIncorrectState, NotLoaded());
  if (!session.live().Info(*name)) {
    return ResultJson(kResultNotFound, "entity = \"" + *name + "\": no such entity");
  }
  return std::nullopt;
}

Reply GetEntityState(Session& session, const Call& call) {
  std::string name;
  const std::optional<Json> failure = NamedEntity(session, call, &name);
  if (failure) return {{{"result", *failure}}};
  return {{{"result", ResultJson(kResultOk)},
           {"state", EntityStateJson(*session.live().Kinematics(name), session.live().time())}}};
}

Reply GetEntityInfo(Session& session, const Call& call) {
  std::string name;
  const std::optional<Json> failure = NamedEntity(session, call, &name);
  if (failure) return {{{"result", *failure}}};
  const scene::EntityInfo info = *session.live().Info(name);
  return {{{"result", ResultJson(kResultOk)},
           {"info",
            {{"category", {{"category", static_cast<int>(info.category)}}},
             {"description", info.description},
             {"tags", info.tags}}}}};
}

Reply GetEntityBounds(Session& session, const Call& call) {
  std::string name;
  const std::optional<Json> failure = NamedEntity(session, call, &name);
  if (failure) return {{{"result", *failure}}};
  // Relative to the entity's own frame (its pose in GetEntityState), as Bounds.msg defines.
  return {{{"result", ResultJson(kResultOk)},
           {"bounds", BoxBoundsJson(session.live().Info(name)->local_bounds)}}};
}

/// Why SetEntityState `request` sets nothing on `info`'s entity, or empty: none of the set_*
/// flags (a simulation_interfaces 1.0 request), or a non-zero acceleration for a static entity
/// (the twist is refused by scene::LiveRun::SetState).
std::string StateRefusal(const SetEntityStateRequest& request, const scene::EntityInfo& info) {
  if (!request.set_pose && !request.set_twist && !request.set_acceleration) {
    return "nothing was set: set_pose, set_twist and set_acceleration are all false (they "
           "choose what is set)";
  }
  const TwistValue& acceleration = request.state.acceleration;
  const bool accelerated =
      !acceleration.linear.ToEigen().isZero(0.0) || !acceleration.angular.ToEigen().isZero(0.0);
  if (request.set_acceleration && accelerated &&
      info.category == scene::EntityCategory::kStaticObject) {
    return "entity = \"" + info.name +
           "\": a static actor takes no acceleration (state.acceleration is not zero)";
  }
  return {};
}

Reply SetEntityState(Session& session, const Call& call) {
  // The stamp is ignored, and the vehicle's acceleration follows from the physics: it is not
  // settable.
  const auto request = ReadRequest<SetEntityStateRequest>(call.body());
  const std::string& frame = request.state.header.frame_id;
  if (!session.live().loaded()) {
    return {{{"result", ResultJson(kResultIncorrectState, NotLoaded())}}};
  }
  if (!frame.empty() && frame != "world") {
    return {{{"result", ResultJson(kResultOperationFailed, "state.header.frame_id = \"" + frame +
                                                               "\": only \"world\" is known")}}};
  }
  const std::optional<scene::EntityInfo> info = session.live().Info(request.entity);
  if (!info) {
    return {{{"result",
              ResultJson(kResultNotFound, "entity = \"" + request.entity + "\": no such entity")}}};
  }
  if (const std::string refusal = StateRefusal(request, *info); !refusal.empty()) {
    return {{{"result", ResultJson(kResultOperationFailed, refusal)}}};
  }
  scene::EntityStateChange change;
  if (request.set_pose) {
    change.position = request.state.pose.position.ToEigen();
    change.orientation = request.state.pose.Orientation("state.pose");
    change.snap_to_ground = request.state.pose.snap_to_ground;
  }
  if (request.set_twist) {
    change.linear_velocity = request.state.twist.linear.ToEigen();
    change.angular_velocity = request.state.twist.angular.ToEigen();
  }
  const scene::EntityOutcome outcome =
      SetStateRecorded(session, "SetEntityState", request.entity, change);
  const int code = outcome.status == scene::EntityStatus::kInvalidPose ? kSetStateInvalidPose
                                                                       : EntityCode(outcome.status);
  return {{{"result", ResultJson(code, outcome.message)}}};
}

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

/// The reply to a request `service` cannot use (an unknown field, a value of the wrong type or
/// out of range): the service's response with RESULT_OPERATION_FAILED and the reason.
Reply BadInput(const std::string& service, const std::string& reason) {
  Json body = {{"result", ResultJson(kResultOperationFailed, reason)}};
  if (service == "SimulateSteps") {
    body["accepted"] = false;
    body["goal_id"] = 0;
  } else if (service == "CancelSimulateSteps") {
    body["return_code"] = static_cast<int>(CancelCode::kRejected);
    body["goals_canceling"] = Json::array();
  }
  return body;
}

/// `Handler`, answering a request it cannot decode with its own Result rather than an Error.
template <Reply (*Handler)(Session&, const Call&)>
Reply ResultOnBadInput(Session& session, const Call& call) {
  try {
    return Handler(session, call);
  } catch (const std::invalid_argument& error) {
    return BadInput(call.message->type, error.what());
  } catch (const json::DecodeError& error) {
    return BadInput(call.message->type, error.what());
  }
}

}  // namespace

scene::EntityOutcome SetStateRecorded(Session& session, const std::string& service,
                                      const std::string& entity,
                                      const scene::EntityStateChange& change) {
  scene::LiveRun& live = session.live();
  const std::optional<scene::EntityKinematics> before = live.Kinematics(entity);
  scene::EntityOutcome outcome = live.SetState(entity, change);
  if (outcome.status == scene::EntityStatus::kOk) {
    RecordStateChange(live, service, entity, change, *before, &session.interventions());
  }
  return outcome;
}

int EntityCode(scene::EntityStatus status) {
  switch (status) {
    case scene::EntityStatus::kOk:
      return kResultOk;
    case scene::EntityStatus::kNotFound:
      return kResultNotFound;
    case scene::EntityStatus::kFeatureUnsupported:
      return kResultFeatureUnsupported;
    default:
      return kResultOperationFailed;
  }
}

int SpawnCode(scene::EntityStatus status) {
  switch (status) {
    case scene::EntityStatus::kNameNotUnique:
      return kSpawnNameNotUnique;
    case scene::EntityStatus::kNameInvalid:
      return kSpawnNameInvalid;
    case scene::EntityStatus::kUnsupportedFormat:
      return kSpawnUnsupportedFormat;
    case scene::EntityStatus::kNoResource:
      return kSpawnNoResource;
    case scene::EntityStatus::kNamespaceInvalid:
      return kSpawnNamespaceInvalid;
    case scene::EntityStatus::kInvalidPose:
      return kSpawnInvalidPose;
    default:
      return EntityCode(status);
  }
}

std::string NotLoaded() { return "no scenario is loaded (LoadScenario)"; }

void AddSimulationInterfacesServices(std::map<std::string, Service>* services) {
  const char* family = "simulation_interfaces";
  (*services)["GetSimulatorFeatures"] = {family, "features that work, spawn formats",
                                         GetSimulatorFeatures};
  (*services)["GetSpawnables"] = {family, "the actor classes and the vehicle",
                                  ResultOnBadInput<GetSpawnables>};
  (*services)["SpawnEntity"] = {family, "spawn an actor class at a pose",
                                ResultOnBadInput<SpawnEntity>};
  (*services)["SpawnEntities"] = {family, "spawn several actor classes at poses",
                                  ResultOnBadInput<SpawnEntities>};
  (*services)["DeleteEntity"] = {family, "delete an actor", ResultOnBadInput<DeleteEntity>};
  (*services)["GetEntities"] = {family, "entity names matching filters",
                                ResultOnBadInput<GetEntities>};
  (*services)["GetEntityInfo"] = {family, "an entity's category, description, tags",
                                  ResultOnBadInput<GetEntityInfo>};
  (*services)["GetEntityBounds"] = {family, "an entity's box in its own frame",
                                    ResultOnBadInput<GetEntityBounds>};
  (*services)["GetEntityState"] = {family, "pose, twist, acceleration of one entity",
                                   ResultOnBadInput<GetEntityState>};
  (*services)["GetEntitiesStates"] = {family, "states of the entities matching filters",
                                      ResultOnBadInput<GetEntitiesStates>};
  (*services)["SetEntityState"] = {family, "teleport the vehicle, move an actor",
                                   ResultOnBadInput<SetEntityState>};
  (*services)["ResetSimulation"] = {family, "reset by scope: TIME 1, STATE 2, SPAWNED 4, ALL 255",
                                    ResultOnBadInput<ResetSimulation>};
  (*services)["GetSimulationState"] = {family, "STOPPED 0, PLAYING 1, PAUSED 2, QUITTING 3",
                                       ResultOnBadInput<GetSimulationState>};
  (*services)["SetSimulationState"] = {family, "play, pause, stop, quit",
                                       ResultOnBadInput<SetSimulationState>};
  (*services)["StepSimulation"] = {family, "advance {steps} physics steps while paused",
                                   ResultOnBadInput<StepSimulation>};
  (*services)["SimulateSteps"] = {family, "action: steps with feedback, cancellable",
                                  ResultOnBadInput<SimulateSteps>};
  (*services)["CancelSimulateSteps"] = {family, "cancel a SimulateSteps goal",
                                        ResultOnBadInput<CancelSimulateSteps>};
}

}  // namespace asg::worker::serve
