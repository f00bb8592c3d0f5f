// ROS 2 simulation_interfaces services (seed 000) over the interactive worker's session: features,
// spawning and entities here; the simulation's state and stepping in services_simif_clock.cpp.
#include "worker/serve/services_simif.h"

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

}  // namespace

/// The reply to a request `service` cannot use (an unknown field, a value of the wrong type or
/// out of range): the service's response with RESULT_OPERATION_FAILED and the reason.
Reply SimifBadInput(const std::string& service, const std::string& reason) {
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
                                  SimifResultOnBadInput<GetSpawnables>};
  (*services)["SpawnEntity"] = {family, "spawn an actor class at a pose",
                                SimifResultOnBadInput<SpawnEntity>};
  (*services)["SpawnEntities"] = {family, "spawn several actor classes at poses",
                                  SimifResultOnBadInput<SpawnEntities>};
  (*services)["DeleteEntity"] = {family, "delete an actor", SimifResultOnBadInput<DeleteEntity>};
  (*services)["GetEntities"] = {family, "entity names matching filters",
                                SimifResultOnBadInput<GetEntities>};
  (*services)["GetEntityInfo"] = {family, "an entity's category, description, tags",
                                  SimifResultOnBadInput<GetEntityInfo>};
  (*services)["GetEntityBounds"] = {family, "an entity's box in its own frame",
                                    SimifResultOnBadInput<GetEntityBounds>};
  (*services)["GetEntityState"] = {family, "pose, twist, acceleration of one entity",
                                   SimifResultOnBadInput<GetEntityState>};
  (*services)["GetEntitiesStates"] = {family, "states of the entities matching filters",
                                      SimifResultOnBadInput<GetEntitiesStates>};
  (*services)["SetEntityState"] = {family, "teleport the vehicle, move an actor",
                                   SimifResultOnBadInput<SetEntityState>};
  AddSimulationClockServices(services);
}

}  // namespace asg::worker::serve
