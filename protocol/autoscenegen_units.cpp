#include "protocol/autoscenegen_units.h"

#include "json/field_values.h"
#include "json/short_text.h"

namespace asg::protocol {
namespace {

constexpr double kCentimetresPerMetre = 100.0;

// Applies `convert` to j[key] when j is an object whose `key` is a number.
template <class Convert>
void ConvertNumber(json::Json& j, std::string_view key, Convert convert) {
  if (!j.is_object()) return;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return;
  *it = convert(it->get<double>());
}

// Applies `convert` to every number of the array j[key].
template <class Convert>
void ConvertNumbers(json::Json& j, std::string_view key, Convert convert) {
  if (!j.is_object()) return;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return;
  for (json::Json& value : *it) {
    if (value.is_number()) value = convert(value.get<double>());
  }
}

// [cm] -> [m]. Unreal's y (right) is the farm's -y (west); 0 - v keeps a zero positive.
double Metres(double centimetres) { return centimetres / kCentimetresPerMetre; }
double WestMetres(double right_centimetres) {
  return 0.0 - right_centimetres / kCentimetresPerMetre;
}
// Unreal's yaw turns clockwise seen from above, the farm's counter-clockwise.
double CounterClockwise(double clockwise_deg) { return 0.0 - clockwise_deg; }

void ConvertPoint(json::Json& request, std::string_view key) {
  if (!request.contains(key)) return;
  json::Json& point = request[std::string(key)];
  ConvertNumber(point, "x", Metres);
  ConvertNumber(point, "y", WestMetres);
  ConvertNumber(point, "z", Metres);
}

void ConvertScene(json::Json& scene) {
  if (!scene.is_object()) return;
  if (scene.contains("landscape")) {
    ConvertNumber(scene["landscape"], "nominal_size", Metres);
    ConvertNumber(scene["landscape"], "border", Metres);
  }
  ConvertNumber(scene, "sunlight_yaw_angle", CounterClockwise);
  if (!scene.contains("ssa_array") || !scene["ssa_array"].is_array()) return;
  for (json::Json& layout : scene["ssa_array"]) {
    ConvertNumbers(layout, "x", Metres);
    ConvertNumbers(layout, "y", WestMetres);
    ConvertNumbers(layout, "yaw", CounterClockwise);
  }
}

}  // namespace

void CheckUnits(const json::Json& value, const std::string& path) {
  if (value.is_string() && value.get<std::string>() == kAutoSceneGenUnits) return;
  throw json::DecodeError(path,
                          "expected \"autoscenegen\" (AutoSceneGen's centimetres in Unreal's "
                          "frame; leave it out for the farm's metres), got " +
                              json::ShortJson(value, 64));
}

bool HasAutoSceneGenUnits(const json::Json& j, const std::string& path) {
  const auto it = j.find(kUnitsKey);
  if (it == j.end()) return false;
  CheckUnits(*it, json::ChildPath(path, kUnitsKey));
  return true;
}

void ConvertAutoSceneGenUnits(json::Json* request) {
  json::Json& j = *request;
  if (!j.is_object()) return;
  ConvertPoint(j, "vehicle_start_location");
  ConvertNumber(j, "vehicle_start_yaw", CounterClockwise);
  ConvertPoint(j, "vehicle_goal_location");
  ConvertNumber(j, "goal_radius", Metres);
  if (j.contains("scene_description")) ConvertScene(j["scene_description"]);
  if (j.contains("scene_capture_settings")) {
    ConvertNumber(j["scene_capture_settings"], "goal_sphere_thickness", Metres);
  }
}

}  // namespace asg::protocol
