// Assembly of a World from a request: validation, ground placement and orientation of actors.
#include "scene/world.h"

#include <cmath>
#include <numbers>
#include <utility>

#include "core/check.h"
#include "core/number_format.h"
#include "scene/run_variation.h"

namespace asg::scene {
namespace {

std::string Number(double value) { return core::FormatNumber(value); }

std::string Range(const terrain::Landscape& landscape) {
  return "[" + Number(landscape.min_xy()) + ", " + Number(landscape.max_xy()) + "]";
}

// "ssa_array[1] \"/Game/Foo\"" (+ " instance 3" when instance >= 0).
std::string ActorLabel(int ssa_index, const std::string& path_name, int instance) {
  std::string label = "ssa_array[" + std::to_string(ssa_index) + "] \"" + path_name + "\"";
  if (instance >= 0) label += " instance " + std::to_string(instance);
  return label;
}

void CheckArrayLength(size_t size, int expected, const char* field, int ssa_index,
                      const std::string& path_name) {
  if (size != static_cast<size_t>(expected)) {
    throw SceneError(ActorLabel(ssa_index, path_name, -1) + ": " + field + " has " +
                     std::to_string(size) + " values but num_instances is " +
                     std::to_string(expected));
  }
}

void CheckCoordinate(double value, const char* name, const terrain::Landscape& landscape,
                     const std::string& label) {
  if (!std::isfinite(value) || value < landscape.min_xy() || value > landscape.max_xy()) {
    throw SceneError(label + ": " + name + " = " + Number(value) + " is outside the landscape " +
                     Range(landscape));
  }
}

void CheckFinite(const protocol::Point& point, const char* field) {
  if (!std::isfinite(point.x) || !std::isfinite(point.y)) {
    throw SceneError(std::string(field) + " = (" + Number(point.x) + ", " + Number(point.y) +
                     ") is not finite");
  }
}

std::shared_ptr<const terrain::Landscape> LandscapeFor(
    const protocol::LandscapeDescription& description,
    std::shared_ptr<const terrain::Landscape> cached) {
  if (cached != nullptr && cached->description() == description) return cached;
  return std::make_shared<const terrain::Landscape>(description);
}

ActorInstance PlaceInstance(const protocol::StructuralSceneActorLayout& layout, int ssa_index,
                            int instance, const ActorKind& kind,
                            const terrain::Landscape& landscape) {
  const std::string label = ActorLabel(ssa_index, layout.path_name, instance);
  const double x = layout.x[instance];
  const double y = layout.y[instance];
  const double yaw = layout.yaw[instance];
  const double scale = layout.scale[instance];
  CheckCoordinate(x, "x", landscape, label);
  CheckCoordinate(y, "y", landscape, label);
  if (!std::isfinite(yaw)) throw SceneError(label + ": yaw = " + Number(yaw) + " is not finite");
  if (!std::isfinite(scale) || scale <= 0.0) {
    throw SceneError(label + ": scale = " + Number(scale) + " must be finite and > 0");
  }

  ActorInstance placed;
  placed.kind = &kind;
  placed.ssa_index = ssa_index;
  placed.instance_index = instance;
  placed.scale = scale;
  placed.cast_shadow = layout.cast_shadow[instance];
  placed.traversable = IsTraversable(kind, scale);
  PlaceOnGround(landscape, x, y, yaw, &placed);
  return placed;
}

}  // namespace

void PlaceOnGround(const terrain::Landscape& landscape, double x, double y, double yaw,
                   ActorInstance* actor) {
  actor->position = Eigen::Vector3d(x, y, landscape.HeightAt(x, y));
  actor->yaw = yaw;
  const Eigen::Quaterniond yaw_rotation(
      Eigen::AngleAxisd(yaw * std::numbers::pi / 180.0, Eigen::Vector3d::UnitZ()));
  if (actor->kind->upright) {
    actor->orientation = yaw_rotation;
  } else {
    const Eigen::Vector3d normal = landscape.NormalAt(x, y);
    actor->orientation =
        Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), normal) * yaw_rotation;
  }
  actor->orientation.normalize();
}

World BuildWorld(const protocol::RunScenarioRequest& request, const ActorCatalog& catalog,
                 std::shared_ptr<const terrain::Landscape> cached_landscape) {
  const protocol::SceneDescription& scene = request.scene_description;
  World world;
  world.landscape = LandscapeFor(scene.landscape, std::move(cached_landscape));
  const terrain::Landscape& landscape = *world.landscape;

  CheckFinite(request.vehicle_start_location, "vehicle_start_location");
  CheckFinite(request.vehicle_goal_location, "vehicle_goal_location");
  CheckCoordinate(request.vehicle_start_location.x, "x", landscape, "vehicle_start_location");
  CheckCoordinate(request.vehicle_start_location.y, "y", landscape, "vehicle_start_location");
  if (!std::isfinite(request.vehicle_start_yaw)) {
    throw SceneError("vehicle_start_yaw = " + Number(request.vehicle_start_yaw) + " is not finite");
  }
  if (!std::isfinite(request.goal_radius) || request.goal_radius < 0.0) {
    throw SceneError("goal_radius = " + Number(request.goal_radius) + " must be finite and >= 0");
  }
  // A repeated run (request.variation.run > 0) starts from its varied pose, kept on the grid.
  const StartPose start = VariedStart(request);
  CheckCoordinate(
      start.x, "x", landscape,
      "vehicle_start_location (varied for run " + std::to_string(request.variation.run) + ")");
  CheckCoordinate(
      start.y, "y", landscape,
      "vehicle_start_location (varied for run " + std::to_string(request.variation.run) + ")");
  const auto& goal = request.vehicle_goal_location;
  world.start = Eigen::Vector3d(start.x, start.y, landscape.HeightAt(start.x, start.y));
  world.start_yaw = start.yaw;
  world.goal = Eigen::Vector3d(goal.x, goal.y, landscape.HeightAt(goal.x, goal.y));
  world.goal_radius = request.goal_radius;
  world.sun_inclination = scene.sunlight_inclination;
  world.sun_yaw = scene.sunlight_yaw_angle;

  int first_of_layout = 0;  // the request index of the layout's first instance
  for (size_t s = 0; s < scene.ssa_array.size(); ++s) {
    const protocol::StructuralSceneActorLayout& layout = scene.ssa_array[s];
    const int ssa_index = static_cast<int>(s);
    const ActorKind* kind = catalog.Find(layout.path_name);
    if (kind == nullptr) {
      throw SceneError(ActorLabel(ssa_index, layout.path_name, -1) +
                       ": path_name is not in the actor catalog");
    }
    const int count = layout.num_instances;
    CheckArrayLength(layout.visible.size(), count, "visible", ssa_index, layout.path_name);
    CheckArrayLength(layout.cast_shadow.size(), count, "cast_shadow", ssa_index, layout.path_name);
    CheckArrayLength(layout.x.size(), count, "x", ssa_index, layout.path_name);
    CheckArrayLength(layout.y.size(), count, "y", ssa_index, layout.path_name);
    CheckArrayLength(layout.yaw.size(), count, "yaw", ssa_index, layout.path_name);
    CheckArrayLength(layout.scale.size(), count, "scale", ssa_index, layout.path_name);
    for (int i = 0; i < count; ++i) {
      if (!layout.visible[i]) continue;
      world.actors.push_back(PlaceInstance(layout, ssa_index, i, *kind, landscape));
      world.actors.back().request_index = first_of_layout + i;
    }
    first_of_layout += count;
  }
  ASG_CHECK(world.landscape != nullptr);
  return world;
}

}  // namespace asg::scene
