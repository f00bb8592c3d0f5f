// Scene checks against the catalog's classes, the landscape's extent and the capture settings.
#include "client/batch/scene_checks.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include "catalog/actor_catalog.h"
#include "core/number_format.h"
#include "json/field_values.h"
#include "terrain/landscape.h"

namespace asg::client {

namespace {

using core::FormatNumber;

std::string Extent(const terrain::LandscapeGrid& grid) {
  std::string text(1, '[');  // appended: GCC 12 warns falsely on "[" + a temporary string
  return text.append(FormatNumber(grid.min_xy())).append(", ").append(FormatNumber(grid.max_xy())) +
         "]";
}

bool Inside(const terrain::LandscapeGrid& grid, double value) {
  return std::isfinite(value) && value >= grid.min_xy() && value <= grid.max_xy();
}

// "\"trees\" is not an actor class of actors.json; did you mean \"tree\"?", else the catalog's
// short names (its aliases) or, without any, its count of names and the first.
std::string UnknownClass(const std::string& name, const ActorClasses& classes) {
  const std::string start = "\"" + name + "\" is not an actor class of " + classes.catalog;
  const std::vector<std::string_view> names(classes.names.begin(), classes.names.end());
  const std::string_view guess = json::ClosestName(name, names);
  if (!guess.empty()) return start + "; did you mean \"" + std::string(guess) + "\"?";
  if (classes.aliases.empty()) {
    return start + " (" + std::to_string(classes.names.size()) + " names, e.g. \"" +
           *classes.names.begin() + "\")";
  }
  std::string aliases;
  for (const std::string& alias : classes.aliases) {
    aliases += (aliases.empty() ? "\"" : ", \"") + alias + "\"";
  }
  return start + " (its short names: " + aliases + ")";
}

// Whether `settings` enables any view (a flag that renders an image of its own).
bool AnyViewEnabled(const protocol::SceneCaptureSettings& settings) {
  const bool views[] = {
      settings.ortho_aerial,       settings.perspective_aerial, settings.front_aerial,
      settings.left_front_aerial,  settings.left_aerial,        settings.left_rear_aerial,
      settings.rear_aerial,        settings.right_rear_aerial,  settings.right_aerial,
      settings.right_front_aerial, settings.vehicle_start_pov,  settings.vehicle_start_rear_aerial};
  return std::any_of(std::begin(views), std::end(views), [](bool view) { return view; });
}

// The first capture setting of `request` that renders no image, or nullopt: captures asked for
// with every view off, or an aerial view asked for without any aerial_padding (one image per
// padding).
std::optional<SceneProblem> CheckCapture(const protocol::RunScenarioRequest& request) {
  const protocol::SceneCaptureSettings& settings = request.scene_capture_settings;
  if (!request.take_scene_capture) return std::nullopt;
  if (!AnyViewEnabled(settings)) {
    return SceneProblem{"take_scene_capture",
                        "true, but scene_capture_settings enables no view, so no image is "
                        "rendered: set one of ortho_aerial (with aerial_padding), "
                        "perspective_aerial, front_aerial, ..., vehicle_start_pov, "
                        "vehicle_start_rear_aerial to true, or take_scene_capture to false"};
  }
  if (!settings.aerial_padding.empty()) return std::nullopt;
  const std::pair<const char*, bool> aerials[] = {
      {"ortho_aerial", settings.ortho_aerial}, {"perspective_aerial", settings.perspective_aerial}};
  for (const auto& [name, wanted] : aerials) {
    if (!wanted) continue;
    return SceneProblem{"scene_capture_settings.aerial_padding",
                        std::string("empty, so ") + name +
                            " renders no image (one per padding): give at least one padding [m], "
                            "e.g. [5]"};
  }
  return std::nullopt;
}

// Whether `value` lies on the grid's edge or outside it (within 1 mm of the edge counts as on).
bool OnOrOutsideEdge(const terrain::LandscapeGrid& grid, double value) {
  constexpr double kOnEdge = 1e-3;  // [m]
  return !(value > grid.min_xy() + kOnEdge && value < grid.max_xy() - kOnEdge);
}

}  // namespace

ActorClasses ReadActorClasses(const std::filesystem::path& catalog) {
  ActorClasses classes;
  classes.catalog = catalog.string();
  try {
    const catalog::ActorCatalog read = catalog::ActorCatalog::FromFile(catalog.string());
    for (std::string& name : read.Names()) classes.names.insert(std::move(name));
    for (const catalog::ActorClass& actor : read.classes()) {
      classes.aliases.insert(actor.aliases.begin(), actor.aliases.end());
    }
  } catch (const catalog::CatalogError& error) {
    throw BatchError(error.what());
  }
  return classes;
}

std::optional<SceneProblem> CheckScene(const protocol::RunScenarioRequest& request,
                                       const ActorClasses* classes) {
  terrain::LandscapeGrid grid;
  try {
    grid = terrain::PlanLandscapeGrid(request.scene_description.landscape);
  } catch (const std::invalid_argument& error) {
    return SceneProblem{"scene_description", error.what()};
  }
  const auto outside = [&](double value) {
    return FormatNumber(value) + " is outside the landscape " + Extent(grid);
  };
  const std::pair<const char*, const protocol::Point*> points[] = {
      {"vehicle_start_location", &request.vehicle_start_location},
      {"vehicle_goal_location", &request.vehicle_goal_location}};
  for (const auto& [name, point] : points) {
    if (!Inside(grid, point->x)) return SceneProblem{std::string(name) + ".x", outside(point->x)};
    if (!Inside(grid, point->y)) return SceneProblem{std::string(name) + ".y", outside(point->y)};
  }
  if (std::optional<SceneProblem> capture = CheckCapture(request)) return capture;
  const auto& layouts = request.scene_description.ssa_array;
  for (size_t k = 0; k < layouts.size(); ++k) {
    const std::string path = "scene_description.ssa_array[" + std::to_string(k) + "]";
    if (classes != nullptr && !classes->names.contains(layouts[k].path_name)) {
      return SceneProblem{path + ".path_name", UnknownClass(layouts[k].path_name, *classes)};
    }
    for (size_t j = 0; j < layouts[k].x.size(); ++j) {
      if (!Inside(grid, layouts[k].x[j])) {
        return SceneProblem{path + ".x[" + std::to_string(j) + "]", outside(layouts[k].x[j])};
      }
    }
    for (size_t j = 0; j < layouts[k].y.size(); ++j) {
      if (!Inside(grid, layouts[k].y[j])) {
        return SceneProblem{path + ".y[" + std::to_string(j) + "]", outside(layouts[k].y[j])};
      }
    }
  }
  return std::nullopt;
}

std::vector<SceneProblem> SceneWarnings(const protocol::RunScenarioRequest& request) {
  std::vector<SceneProblem> warnings;
  terrain::LandscapeGrid grid;
  try {
    grid = terrain::PlanLandscapeGrid(request.scene_description.landscape);
  } catch (const std::invalid_argument&) {
    return warnings;
  }
  const std::pair<const char*, const protocol::Point*> points[] = {
      {"vehicle_start_location", &request.vehicle_start_location},
      {"vehicle_goal_location", &request.vehicle_goal_location}};
  for (const auto& [name, point] : points) {
    const bool start = point == &request.vehicle_start_location;
    for (const auto& [axis, value] : {std::pair{".x", point->x}, std::pair{".y", point->y}}) {
      if (!OnOrOutsideEdge(grid, value)) continue;
      warnings.push_back(
          {std::string(name) + axis,
           FormatNumber(value) + " lies on the edge of the landscape " + Extent(grid) +
               (start ? ": the run is likely to end out of bounds at once"
                      : ": the vehicle may leave the landscape on its way to the goal")});
      break;
    }
  }
  const double dx = request.vehicle_goal_location.x - request.vehicle_start_location.x;
  const double dy = request.vehicle_goal_location.y - request.vehicle_start_location.y;
  const double distance = std::hypot(dx, dy);
  if (distance <= request.goal_radius) {
    warnings.push_back(
        {"vehicle_goal_location", FormatNumber(std::round(distance * 100.0) / 100.0) +
                                      " m from the start, within goal_radius " +
                                      FormatNumber(request.goal_radius) +
                                      " m: the run succeeds before the vehicle moves"});
  }
  return warnings;
}

void CheckGeneratedStart(const GenerateSpec& spec, const Json& defaults,
                         const std::string& origin) {
  const bool places_actors =
      std::any_of(spec.actors.begin(), spec.actors.end(),
                  [](const GeneratedActorSpec& a) { return a.count_max > 0; });
  if (!places_actors || spec.start_x || spec.start_y) return;
  if (defaults.is_object() && defaults.contains("vehicle_start_location")) return;
  throw BatchError(origin +
                   ": generate.start: not given, nor defaults.vehicle_start_location: every "
                   "scenario would start at (0, 0), the landscape's corner, with the actors kept "
                   "start_clearance from it; give generate.start or "
                   "defaults.vehicle_start_location");
}

void CheckGenerateSpec(const GenerateSpec& spec, const protocol::LandscapeDescription& landscape,
                       const ActorClasses* classes, const std::string& origin) {
  terrain::LandscapeGrid grid;
  try {
    grid = terrain::PlanLandscapeGrid(landscape);
  } catch (const std::invalid_argument&) {
    return;  // every scenario is invalid for its landscape, with that error
  }
  const auto check = [&](const std::string& path, const SampledRange& range) {
    if (Inside(grid, range.min) && Inside(grid, range.max)) return;
    throw BatchError(origin + ": " + path + ": [" + FormatNumber(range.min) + ", " +
                     FormatNumber(range.max) + "] reaches outside the landscape " + Extent(grid));
  };
  for (size_t i = 0; i < spec.actors.size(); ++i) {
    const std::string path = "generate.actors[" + std::to_string(i) + "]";
    if (classes != nullptr && !classes->names.contains(spec.actors[i].path_name)) {
      throw BatchError(origin + ": " + path +
                       ".path_name: " + UnknownClass(spec.actors[i].path_name, *classes));
    }
    check(path + ".x", spec.actors[i].x);
    check(path + ".y", spec.actors[i].y);
  }
  const std::pair<const char*, const std::optional<SampledRange>*> ranges[] = {
      {"generate.start.x", &spec.start_x},
      {"generate.start.y", &spec.start_y},
      {"generate.goal.x", &spec.goal_x},
      {"generate.goal.y", &spec.goal_y}};
  for (const auto& [path, range] : ranges) {
    if (range->has_value()) check(path, **range);
  }
}

void CheckSearchClasses(const std::vector<std::string>& path_names, const ActorClasses& classes,
                        const std::string& origin) {
  for (size_t i = 0; i < path_names.size(); ++i) {
    if (!classes.names.contains(path_names[i])) {
      throw BatchError(origin + ": search.space.classes[" + std::to_string(i) +
                       "].path_name: " + UnknownClass(path_names[i], classes));
    }
  }
}

}  // namespace asg::client
