// Checks of a batch's scenes before anything runs, which would otherwise fail only on a worker:
// actor classes the catalog lacks, and a start, a goal or an actor outside the landscape (its
// nominal square plus the border, as the worker's grid has it: terrain::PlanLandscapeGrid).
// A "generate" section is checked as a whole: its actor classes, and its actor, start and goal
// ranges against the landscape of the batch defaults.
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
  std::set<std::string> names;
  std::string catalog;
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

/// Throws BatchError "<origin>: generate.actors[0].x: [0, 600] reaches outside the landscape
/// [0, 60]" (or an unknown class, or a start / goal range outside) for `spec` over `landscape`.
void CheckGenerateSpec(const GenerateSpec& spec, const protocol::LandscapeDescription& landscape,
                       const ActorClasses* classes, const std::string& origin);

/// Throws BatchError "<origin>: search.space.classes[1].path_name: \"cactus\" is not an actor
/// class of ..." for a searched class missing from `classes`.
void CheckSearchClasses(const std::vector<std::string>& path_names, const ActorClasses& classes,
                        const std::string& origin);

}  // namespace asg::client
