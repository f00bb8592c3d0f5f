// Scene checks against the catalog's classes and the landscape's extent.
#include "client/batch/scene_checks.h"

#include <cmath>
#include <stdexcept>

#include "catalog/actor_catalog.h"
#include "core/number_format.h"
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

std::string UnknownClass(const std::string& name, const ActorClasses& classes) {
  return "\"" + name + "\" is not an actor class of " + classes.catalog + " (" +
         std::to_string(classes.names.size()) + " names, e.g. \"" + *classes.names.begin() + "\")";
}

}  // namespace

ActorClasses ReadActorClasses(const std::filesystem::path& catalog) {
  ActorClasses classes;
  classes.catalog = catalog.string();
  try {
    for (std::string& name : catalog::ActorCatalog::FromFile(catalog.string()).Names()) {
      classes.names.insert(std::move(name));
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
