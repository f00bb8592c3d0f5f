// Checks of a batch's scenes before anything runs, which would otherwise fail only on a worker:
// actor classes the catalog lacks, a start, a goal or an actor outside the landscape (its
// nominal square plus the border, as the worker's grid has it: terrain::PlanLandscapeGrid), and
// captures that would render no image. Runs that can run but hardly mean anything (a start or
// goal on the landscape's edge, a goal within the goal radius of the start) are warnings.
// A "generate" section is checked as a whole: its actor classes, its actor, start and goal
// ranges against the landscape of the batch defaults, and a start it scatters actors around.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "client/batch/batch_json.h"
#include "client/batch/generate.h"
#include "protocol/messages.h"

namespace asg::client {

/// The actor class names scenes may use (each class's path_name and aliases) and the catalog
/// file they come from.
struct ActorClasses {
  std::set<std::string> names;    ///< every accepted name: path_names and aliases
  std::set<std::string> aliases;  ///< the short names among them, e.g. "tree"
  std::string catalog;            ///< the catalog file, for messages
};

/// Reads the class names of a catalog file (catalog/actor_catalog.h, strictly). Throws
/// BatchError naming the file and the problem when it cannot be read or is not a valid catalog.
ActorClasses ReadActorClasses(const std::filesystem::path& catalog);

/// What cannot run in a scene: the JSON path of the value (relative to the request) and why.
struct SceneProblem {
  std::string path;  ///< e.g. "scene_description.ssa_array[0].x[2]"
  std::string problem;
};

/// The first problem of `request`'s scene, or nullopt; `classes` may be null (no class check).
std::optional<SceneProblem> CheckScene(const protocol::RunScenarioRequest& request,
                                       const ActorClasses* classes);

/// What may run but hardly means anything in `request`'s scene, in request order: a start or goal
/// on the landscape's edge (the vehicle leaves the landscape at once or to reach the goal), a
/// goal within goal_radius of the start (the run succeeds at once). Empty when none or when the
/// landscape cannot be built (CheckScene reports that).
std::vector<SceneProblem> SceneWarnings(const protocol::RunScenarioRequest& request);

/// Throws BatchError "<origin>: generate.actors[0].x: [0, 600] reaches outside the landscape
/// [0, 60]" (or an unknown class, or a start / goal range outside) for `spec` over `landscape`.
void CheckGenerateSpec(const GenerateSpec& spec, const protocol::LandscapeDescription& landscape,
                       const ActorClasses* classes, const std::string& origin);

/// Throws BatchError "<origin>: generate.start: never set ..." when `spec` places actors (and
/// keeps them start_clearance away from the start) while neither "generate.start" nor
/// `defaults` (the batch's "defaults") sets the start, which then is the landscape's corner.
void CheckGeneratedStart(const GenerateSpec& spec, const Json& defaults, const std::string& origin);

/// Throws BatchError "<origin>: search.space.classes[1].path_name: \"cactus\" is not an actor
/// class of ..." for a searched class missing from `classes`.
void CheckSearchClasses(const std::vector<std::string>& path_names, const ActorClasses& classes,
                        const std::string& origin);

}  // namespace asg::client
