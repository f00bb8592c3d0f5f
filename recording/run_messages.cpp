// Message builders of a run's recording: each returns the JSON object its schema requires, keys
// in the schema's order.
#include "recording/run_messages.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>

#include "protocol/messages.h"
#include "protocol/messages_json.h"
#include "results/request_view.h"
#include "terrain/landscape.h"

namespace asg::recording {

namespace {

Json Vector(double x, double y, double z) { return Json{{"x", x}, {"y", y}, {"z", z}}; }

Json Color(double r, double g, double b, double a) {
  return Json{{"r", r}, {"g", g}, {"b", b}, {"a", a}};
}

Json Pose(const Json& position, const Json& orientation) {
  return Json{{"position", position}, {"orientation", orientation}};
}

Json Identity() { return Json{{"x", 0.0}, {"y", 0.0}, {"z", 0.0}, {"w", 1.0}}; }

/// A JSON number of a request's value, or `fallback` when it is not a number.
double NumberOr(const Json& value, double fallback) {
  return value.is_number() ? value.get<double>() : fallback;
}

/// `object`'s number `key` (a point's "x"), or 0 when `object` is no object or lacks it.
double Coordinate(const Json& object, const char* key) {
  return object.is_object() && object.contains(key) ? NumberOr(object[key], 0.0) : 0.0;
}

/// A SceneEntity in the world frame that lives until replaced, with no primitives yet.
Json Entity(uint64_t time, const std::string& id) {
  Json entity{{"timestamp", FoxgloveTime(time)},
              {"frame_id", kWorldFrame},
              {"id", id},
              {"lifetime", Json{{"sec", 0}, {"nsec", 0}}},
              {"frame_locked", false},
              {"metadata", Json::array()}};
  for (const char* kind :
       {"arrows", "cubes", "spheres", "cylinders", "lines", "triangles", "texts", "models"}) {
    entity[kind] = Json::array();
  }
  return entity;
}

/// A line strip through `points` (foxglove.Point3 objects) of width `thickness` [m].
Json LineStrip(Json points, double thickness, const Json& color) {
  return Json{{"type", 0},
              {"pose", Pose(Vector(0, 0, 0), Identity())},
              {"thickness", thickness},
              {"scale_invariant", false},
              {"points", std::move(points)},
              {"color", color},
              {"colors", Json::array()},
              {"indices", Json::array()}};
}

/// The goal sphere and the start arrow, from the request.
void AddStartAndGoal(const results::RequestView& view, const Json& request, uint64_t time,
                     Json* entities) {
  Json goal = Entity(time, "goal");
  const double radius = NumberOr(view.goal_radius, 1.0);
  const Json goal_position =
      Vector(Coordinate(view.goal, "x"), Coordinate(view.goal, "y"), Coordinate(view.goal, "z"));
  goal["spheres"].push_back(Json{{"pose", Pose(goal_position, Identity())},
                                 {"size", Vector(2 * radius, 2 * radius, 2 * radius)},
                                 {"color", Color(0.1, 0.8, 0.2, 0.3)}});
  entities->push_back(std::move(goal));
  Json start = Entity(time, "start");
  const Json start_position =
      Vector(Coordinate(view.start, "x"), Coordinate(view.start, "y"), Coordinate(view.start, "z"));
  const double yaw = Coordinate(request, "vehicle_start_yaw");
  start["arrows"].push_back(Json{{"pose", Pose(start_position, QuaternionOfEuler(0, 0, yaw))},
                                 {"shaft_length", 2.0},
                                 {"shaft_diameter", 0.3},
                                 {"head_length", 1.0},
                                 {"head_diameter", 0.8},
                                 {"color", Color(0.2, 0.4, 1.0, 1.0)}});
  entities->push_back(std::move(start));
}

/// One cylinder entity per obstacle of the request.
void AddObstacles(const results::RequestView& view, const catalog::ActorCatalog* catalog,
                  const terrain::Landscape* ground, uint64_t time, Json* entities) {
  for (const results::RequestView::Obstacle& obstacle : view.obstacles) {
    const std::string name =
        obstacle.path_name.is_string() ? obstacle.path_name.get<std::string>() : std::string();
    const catalog::ActorClass* actor = catalog ? catalog->Find(name) : nullptr;
    const double scale = NumberOr(obstacle.scale, 1.0);
    const double radius = (actor ? actor->collision.radius : 0.5) * scale;
    const double height = (actor ? actor->nominal_height : 1.0) * scale;
    const Json color = actor ? Color(actor->color[0], actor->color[1], actor->color[2], 1.0)
                             : Color(0.5, 0.5, 0.5, 1.0);
    Json entity = Entity(
        time, "actor_" + std::to_string(obstacle.layout) + "_" + std::to_string(obstacle.instance));
    entity["metadata"].push_back(Json{{"key", "path_name"}, {"value", name}});
    const double x = NumberOr(obstacle.x, 0.0), y = NumberOr(obstacle.y, 0.0);
    const double base = ground && std::isfinite(x) && std::isfinite(y) ? ground->HeightAt(x, y) : 0;
    const Json center = Vector(x, y, base + height / 2);
    entity["cylinders"].push_back(Json{{"pose", Pose(center, Identity())},
                                       {"size", Vector(2 * radius, 2 * radius, height)},
                                       {"bottom_scale", 1.0},
                                       {"top_scale", 1.0},
                                       {"color", color}});
    entities->push_back(std::move(entity));
  }
}

/// The request's landscape built, or nullopt when it does not decode or build.
std::optional<terrain::Landscape> GroundOf(const results::RequestView& view) {
  protocol::LandscapeDescription description;
  try {
    protocol::Decode(view.landscape, "landscape", &description);
    return terrain::Landscape(description);
  } catch (const json::DecodeError&) {
    return std::nullopt;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

/// The "terrain" entity: the ground as a triangle list over a grid of at most kTerrainCells
/// cells a side (one cell for a flat landscape), heights rounded to the centimetre.
Json TerrainEntity(const terrain::Landscape& ground, uint64_t time) {
  constexpr int kTerrainCells = 32;
  const int cells = ground.description().relief.empty()
                        ? 1
                        : std::min(kTerrainCells, ground.vertices_per_side() - 1);
  const double low = ground.min_xy(), step = (ground.max_xy() - low) / cells;
  Json points = Json::array();
  for (int j = 0; j <= cells; ++j) {
    for (int i = 0; i <= cells; ++i) {
      const double x = low + i * step, y = low + j * step;
      points.push_back(Vector(x, y, std::round(ground.HeightAt(x, y) * 100) / 100));
    }
  }
  // Two counter-clockwise triangles per cell, as the landscape splits them.
  Json indices = Json::array();
  for (int j = 0; j < cells; ++j) {
    for (int i = 0; i < cells; ++i) {
      const int a = j * (cells + 1) + i, b = a + 1, c = a + cells + 1, d = c + 1;
      for (const int index : {a, b, d, a, d, c}) indices.push_back(index);
    }
  }
  Json entity = Entity(time, "terrain");
  entity["triangles"].push_back(Json{{"pose", Pose(Vector(0, 0, 0), Identity())},
                                     {"points", std::move(points)},
                                     {"color", Color(0.45, 0.5, 0.35, 1.0)},
                                     {"colors", Json::array()},
                                     {"indices", std::move(indices)}});
  return entity;
}

}  // namespace

uint64_t SimTimeNanoseconds(double seconds) {
  return seconds > 0.0 ? static_cast<uint64_t>(std::llround(seconds * 1e9)) : 0;
}

Json FoxgloveTime(uint64_t nanoseconds) {
  return Json{{"sec", nanoseconds / 1'000'000'000}, {"nsec", nanoseconds % 1'000'000'000}};
}

Json QuaternionOfEuler(double roll, double pitch, double yaw) {
  constexpr double kHalfRadian = std::numbers::pi / 360.0;  // half of a degree in radians
  const double cr = std::cos(roll * kHalfRadian), sr = std::sin(roll * kHalfRadian);
  const double cp = std::cos(pitch * kHalfRadian), sp = std::sin(pitch * kHalfRadian);
  const double cy = std::cos(yaw * kHalfRadian), sy = std::sin(yaw * kHalfRadian);
  return Json{{"x", sr * cp * cy - cr * sp * sy},
              {"y", cr * sp * cy + sr * cp * sy},
              {"z", cr * cp * sy - sr * sp * cy},
              {"w", cr * cp * cy + sr * sp * sy}};
}

Json VehicleTransform(const results::TrajectoryRow& row) {
  return Json{{"timestamp", FoxgloveTime(SimTimeNanoseconds(row.t))},
              {"parent_frame_id", kWorldFrame},
              {"child_frame_id", kVehicleFrame},
              {"translation", Vector(row.x, row.y, row.z)},
              {"rotation", QuaternionOfEuler(row.roll, row.pitch, row.yaw)}};
}

Json VehiclePose(const results::TrajectoryRow& row) {
  return Json{
      {"timestamp", FoxgloveTime(SimTimeNanoseconds(row.t))},
      {"frame_id", kWorldFrame},
      {"pose", Pose(Vector(row.x, row.y, row.z), QuaternionOfEuler(row.roll, row.pitch, row.yaw))}};
}

Json VehicleOdometry(const results::TrajectoryRow& row) {
  return Json{{"timestamp", FoxgloveTime(SimTimeNanoseconds(row.t))},
              {"x", row.x},
              {"y", row.y},
              {"z", row.z},
              {"speed", std::sqrt(row.vx * row.vx + row.vy * row.vy + row.vz * row.vz)},
              {"roll", row.roll},
              {"pitch", row.pitch},
              {"yaw", row.yaw},
              {"vx", row.vx},
              {"vy", row.vy},
              {"vz", row.vz},
              {"wx", row.wx},
              {"wy", row.wy},
              {"wz", row.wz}};
}

Json SceneUpdate(const results::StoredScenario& scenario, const catalog::ActorCatalog* catalog,
                 uint64_t time) {
  const results::RequestView view = results::ViewOfRequest(scenario.request);
  Json entities = Json::array();
  const std::optional<terrain::Landscape> ground = GroundOf(view);
  if (ground) entities.push_back(TerrainEntity(*ground, time));
  AddStartAndGoal(view, scenario.request, time, &entities);
  AddObstacles(view, catalog, ground ? &*ground : nullptr, time, &entities);
  Json reference = Json::array();
  for (const protocol::Point& point : scenario.result.regret.reference_path) {
    reference.push_back(Vector(point.x, point.y, point.z));
  }
  Json reference_entity = Entity(time, "reference_path");
  reference_entity["lines"].push_back(
      LineStrip(std::move(reference), 0.15, Color(1.0, 1.0, 1.0, 0.8)));
  entities.push_back(std::move(reference_entity));
  Json driven = Json::array();
  for (const results::TrajectoryRow& row : scenario.trajectory) {
    driven.push_back(Vector(row.x, row.y, row.z));
  }
  Json driven_entity = Entity(time, "driven_path");
  driven_entity["lines"].push_back(LineStrip(std::move(driven), 0.2, Color(1.0, 0.5, 0.0, 1.0)));
  entities.push_back(std::move(driven_entity));
  return Json{{"deletions", Json::array()}, {"entities", std::move(entities)}};
}

Json TerminationEvent(const results::ScenarioResult& result, uint64_t time) {
  return Json{
      {"timestamp", FoxgloveTime(time)},
      {"kind", "termination"},
      {"termination_reason", static_cast<int>(result.termination_reason)},
      {"termination_reason_name", protocol::TerminationReasonName(result.termination_reason)},
      {"vehicle_sim_time", result.vehicle_sim_time}};
}

Json TerminationLog(const results::ScenarioResult& result, uint64_t time) {
  std::string message = "scenario " + std::to_string(result.scenario_number) + " ended with " +
                        std::string(protocol::TerminationReasonName(result.termination_reason)) +
                        " after " + json::Json(result.vehicle_sim_time).dump() + " s";
  if (result.regret.computed) message += ", regret " + json::Json(result.regret.regret).dump();
  return Json{{"timestamp", FoxgloveTime(time)},
              {"level", 2},
              {"message", message},
              {"name", "asg-worker"},
              {"file", ""},
              {"line", 0}};
}

}  // namespace asg::recording
