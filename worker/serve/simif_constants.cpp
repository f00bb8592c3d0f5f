// The interactive services' upstream constants, listed by the message or service that defines
// them.
#include "worker/serve/simif_constants.h"

#include <initializer_list>
#include <string>

#include "scene/live_run.h"
#include "worker/serve/simulation_clock.h"

namespace asg::worker::serve {
namespace {

using json::Json;

/// {NAME: value} of `constants`.
Json Listed(std::initializer_list<NamedConstant> constants) {
  Json listed = Json::object();
  for (const NamedConstant& constant : constants)
    listed[std::string(constant.name)] = constant.value;
  return listed;
}

/// SimulationState.msg: every SimState by the name the worker writes (state_name).
Json SimulationStates() {
  Json listed = Json::object();
  for (const SimState state :
       {SimState::kStopped, SimState::kPlaying, SimState::kPaused, SimState::kQuitting}) {
    listed[SimStateName(state)] = static_cast<int>(state);
  }
  return listed;
}

/// GoalStatus.msg: the statuses a goal ends with, by the name the worker writes (status_name).
Json GoalStatuses() {
  Json listed = Json::object();
  for (const GoalStatus status :
       {GoalStatus::kSucceeded, GoalStatus::kCanceled, GoalStatus::kAborted}) {
    listed[GoalStatusName(status)] = static_cast<int>(status);
  }
  return listed;
}

/// SSE's SimulationStatus: every name the worker writes, the name being the value.
Json SimulationStatuses() {
  Json listed = Json::object();
  for (const SimState state :
       {SimState::kStopped, SimState::kPlaying, SimState::kPaused, SimState::kQuitting}) {
    listed[SimulationStatusName(state)] = SimulationStatusName(state);
  }
  return listed;
}

/// The spawn codes SpawnEntity.srv and SpawnResult.msg share.
Json SpawnCodes() {
  return Listed({{"NAME_NOT_UNIQUE", kSpawnNameNotUnique},
                 {"NAME_INVALID", kSpawnNameInvalid},
                 {"UNSUPPORTED_FORMAT", kSpawnUnsupportedFormat},
                 {"NO_RESOURCE", kSpawnNoResource},
                 {"NAMESPACE_INVALID", kSpawnNamespaceInvalid},
                 {"INVALID_POSE", kSpawnInvalidPose}});
}

/// simulation_interfaces' messages' constants.
Json SimulationInterfacesMessages() {
  using scene::EntityCategory;
  Json features = Json::object();
  for (const NamedConstant& feature : kAdvertisedFeatures) {
    features[std::string(feature.name)] = feature.value;
  }
  return {
      {"Bounds (msg)", Listed({{"TYPE_EMPTY", kBoundsEmpty},
                               {"TYPE_BOX", kBoundsBox},
                               {"TYPE_CONVEX_HULL", kBoundsConvexHull},
                               {"TYPE_SPHERE", kBoundsSphere}})},
      {"EntityCategory (msg)",
       Listed({{"CATEGORY_OBJECT", static_cast<int>(EntityCategory::kObject)},
               {"CATEGORY_ROBOT", static_cast<int>(EntityCategory::kRobot)},
               {"CATEGORY_HUMAN", static_cast<int>(EntityCategory::kHuman)},
               {"CATEGORY_DYNAMIC_OBJECT", static_cast<int>(EntityCategory::kDynamicObject)},
               {"CATEGORY_STATIC_OBJECT", static_cast<int>(EntityCategory::kStaticObject)}})},
      {"Result (msg)", Listed({{"RESULT_FEATURE_UNSUPPORTED", kResultFeatureUnsupported},
                               {"RESULT_OK", kResultOk},
                               {"RESULT_NOT_FOUND", kResultNotFound},
                               {"RESULT_INCORRECT_STATE", kResultIncorrectState},
                               {"RESULT_OPERATION_FAILED", kResultOperationFailed}})},
      {"SimulationState (msg)", SimulationStates()},
      {"SimulatorFeatures (msg)", std::move(features)},
      {"SpawnResult (msg)", SpawnCodes()},
      {"TagsFilter (msg)",
       Listed({{"FILTER_MODE_ANY", kFilterModeAny}, {"FILTER_MODE_ALL", kFilterModeAll}})},
      {"GoalStatus (msg)", GoalStatuses()},
  };
}

/// simulation_interfaces' services' constants (and CancelGoal's, served as CancelSimulateSteps).
Json SimulationInterfacesServices() {
  return {
      {"ResetSimulation (srv)", Listed({{"SCOPE_DEFAULT", kScopeDefault},
                                        {"SCOPE_TIME", kScopeTime},
                                        {"SCOPE_STATE", kScopeState},
                                        {"SCOPE_SPAWNED", kScopeSpawned},
                                        {"SCOPE_ALL", kScopeAll}})},
      {"SetEntityState (srv)", Listed({{"INVALID_POSE", kSetStateInvalidPose}})},
      {"SetSimulationState (srv)", Listed({{"ALREADY_IN_TARGET_STATE", kAlreadyInTargetState},
                                           {"STATE_TRANSITION_ERROR", kStateTransitionError},
                                           {"INCORRECT_TRANSITION", kIncorrectTransition}})},
      {"SpawnEntities (srv)", Listed({{"ENTITIES_SPAWN_FAILED", kEntitiesSpawnFailed}})},
      {"SpawnEntity (srv)", SpawnCodes()},
      {"CancelSimulateSteps (srv)",
       Listed({{"ERROR_NONE", static_cast<int>(CancelCode::kNone)},
               {"ERROR_REJECTED", static_cast<int>(CancelCode::kRejected)},
               {"ERROR_UNKNOWN_GOAL_ID", static_cast<int>(CancelCode::kUnknownGoalId)},
               {"ERROR_GOAL_TERMINATED", static_cast<int>(CancelCode::kGoalTerminated)}})},
  };
}

}  // namespace

Json InteractiveConstants() {
  Json simif = SimulationInterfacesMessages();
  simif.update(SimulationInterfacesServices());
  return {{"simulation_interfaces", std::move(simif)},
          {"roadrunner_sse", {{"SimulationStatus (msg)", SimulationStatuses()}}}};
}

}  // namespace asg::worker::serve
