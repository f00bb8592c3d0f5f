// The constants of simulation_interfaces, action_msgs and RoadRunner SSE that the interactive
// worker gives and reads, named once: the services use these names, and InteractiveConstants()
// lists them, by the message or service that defines them, for asg-worker
// --print-service-schemas (docs/conformance.md's tables are held to that list).
#pragma once

#include <string_view>

#include "json/json.h"

namespace asg::worker::serve {

/// One named value of an upstream message or service.
struct NamedConstant {
  std::string_view name;  ///< upstream's name, e.g. "SPAWNING"
  int value;              ///< its value
};

// simulation_interfaces Result.msg codes.
inline constexpr int kResultFeatureUnsupported = 0;  ///< RESULT_FEATURE_UNSUPPORTED
inline constexpr int kResultOk = 1;                  ///< RESULT_OK
inline constexpr int kResultNotFound = 2;            ///< RESULT_NOT_FOUND
inline constexpr int kResultIncorrectState = 3;      ///< RESULT_INCORRECT_STATE
inline constexpr int kResultOperationFailed = 4;     ///< RESULT_OPERATION_FAILED

// SetSimulationState.srv's own result codes.
inline constexpr int kAlreadyInTargetState = 101;  ///< ALREADY_IN_TARGET_STATE
inline constexpr int kStateTransitionError = 102;  ///< STATE_TRANSITION_ERROR
inline constexpr int kIncorrectTransition = 103;   ///< INCORRECT_TRANSITION

// SpawnEntity.srv's (and SpawnResult.msg's) own result codes that the worker gives.
inline constexpr int kSpawnNameNotUnique = 101;      ///< NAME_NOT_UNIQUE
inline constexpr int kSpawnNameInvalid = 102;        ///< NAME_INVALID
inline constexpr int kSpawnUnsupportedFormat = 103;  ///< UNSUPPORTED_FORMAT
inline constexpr int kSpawnNoResource = 104;         ///< NO_RESOURCE
inline constexpr int kSpawnNamespaceInvalid = 105;   ///< NAMESPACE_INVALID
inline constexpr int kSpawnInvalidPose = 109;        ///< INVALID_POSE

/// SpawnEntities.srv's ENTITIES_SPAWN_FAILED: at least one of the entities was not spawned.
inline constexpr int kEntitiesSpawnFailed = 150;
/// SetEntityState.srv's INVALID_POSE.
inline constexpr int kSetStateInvalidPose = 101;

// Bounds.msg types.
inline constexpr int kBoundsEmpty = 0;       ///< TYPE_EMPTY: no bounds (no filter)
inline constexpr int kBoundsBox = 1;         ///< TYPE_BOX: two opposite corners
inline constexpr int kBoundsConvexHull = 2;  ///< TYPE_CONVEX_HULL: read and refused
inline constexpr int kBoundsSphere = 3;      ///< TYPE_SPHERE: the centre, then (radius, 0, 0)

// TagsFilter.msg modes.
inline constexpr int kFilterModeAny = 0;  ///< FILTER_MODE_ANY: at least one of the tags
inline constexpr int kFilterModeAll = 1;  ///< FILTER_MODE_ALL: every tag

// ResetSimulation.srv scopes: a sum of TIME, STATE and SPAWNED, or DEFAULT or ALL.
inline constexpr int kScopeDefault = 0;  ///< SCOPE_DEFAULT: as SCOPE_ALL
inline constexpr int kScopeTime = 1;     ///< SCOPE_TIME
inline constexpr int kScopeState = 2;    ///< SCOPE_STATE
inline constexpr int kScopeSpawned = 4;  ///< SCOPE_SPAWNED
inline constexpr int kScopeAll = 255;    ///< SCOPE_ALL

/// SimulationState.msg's largest value read (STATE_LOADING_WORLD): the world states 4
/// (STATE_NO_WORLD) and 5 name states the worker never has, and are refused
/// (RESULT_FEATURE_UNSUPPORTED) when asked; the states it has are SimState's.
inline constexpr int kLastWorldState = 5;

/// SimulatorFeatures.msg's features the worker advertises (GetSimulatorFeatures), in order.
inline constexpr NamedConstant kAdvertisedFeatures[] = {
    {"SPAWNING", 0},
    {"DELETING", 1},
    {"ENTITY_TAGS", 4},
    {"ENTITY_BOUNDS", 5},
    {"ENTITY_BOUNDS_BOX", 6},
    {"ENTITY_CATEGORIES", 8},
    {"ENTITY_STATE_GETTING", 10},
    {"ENTITY_STATE_SETTING", 11},
    {"ENTITY_INFO_GETTING", 12},
    {"SPAWNABLES", 14},
    {"SIMULATION_RESET", 20},
    {"SIMULATION_RESET_TIME", 21},
    {"SIMULATION_RESET_STATE", 22},
    {"SIMULATION_RESET_SPAWNED", 23},
    {"SIMULATION_STATE_GETTING", 24},
    {"SIMULATION_STATE_SETTING", 25},
    {"SIMULATION_STATE_PAUSE", 26},
    {"STEP_SIMULATION_SINGLE", 31},
    {"STEP_SIMULATION_MULTIPLE", 32},
    {"STEP_SIMULATION_ACTION", 33},
    {"SPAWNING_ENTITIES", 50},
};

// RoadRunner SSE's SimulationStatus names (the enum travels by name), and the farm's own name
// for QUITTING, which SimulationStatus lacks.
inline constexpr const char* kStatusStopped = "SIMULATION_STATUS_STOPPED";    ///< STOPPED
inline constexpr const char* kStatusRunning = "SIMULATION_STATUS_RUNNING";    ///< PLAYING
inline constexpr const char* kStatusPaused = "SIMULATION_STATUS_PAUSED";      ///< PAUSED
inline constexpr const char* kStatusQuitting = "SIMULATION_STATUS_QUITTING";  ///< the farm's

/// Every constant above and the values of SimState, GoalStatus, CancelCode
/// (simulation_clock.h) and scene::EntityCategory, by family and by the docs/conformance.md
/// heading of the message or service that defines them: {FAMILY: {"Name (msg|srv)": {NAME:
/// value}}}, a value being an integer, or for an enum that travels by name (SSE's
/// SimulationStatus) the name itself. Listed: the values the worker gives, and those it reads
/// as what upstream means by them (TYPE_CONVEX_HULL, known and answered unsupported); not the
/// world states kLastWorldState names, the features it does not advertise, or the spawn codes
/// it never gives.
json::Json InteractiveConstants();

}  // namespace asg::worker::serve
