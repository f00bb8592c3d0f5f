// RunScenario requests written in AutoSceneGen's own wire form: centimetres in Unreal's
// left-handed frame (x forward, y right, yaw clockwise), as its scenario builder sends them to
// Unreal. A request or batch says so with "units": "autoscenegen" at its top level; these
// functions turn such JSON into the farm's form (metres, north-west-up, yaw counter-clockwise)
// before it is decoded. Each value is converted with one correctly rounded operation.
#pragma once

#include <string>
#include <string_view>

#include "json/json.h"

namespace asg::protocol {

/// The top-level key that names a request's or batch's units.
inline constexpr std::string_view kUnitsKey = "units";
/// Its one accepted value: AutoSceneGen's centimetres in Unreal's left-handed frame.
inline constexpr std::string_view kAutoSceneGenUnits = "autoscenegen";

/// Throws json::DecodeError naming `path` (the "units" key's) unless `value` is "autoscenegen".
void CheckUnits(const json::Json& value, const std::string& path);

/// Whether `j` (an object) has a top-level "units"; throws as CheckUnits when it is not
/// "autoscenegen". `path` is j's.
bool HasAutoSceneGenUnits(const json::Json& j, const std::string& path);

/// Converts the AutoSceneGen fields present in `request`, a whole or partial RunScenario request
/// as JSON, from AutoSceneGen's units to the farm's, in place: vehicle_start_location,
/// vehicle_goal_location and every ssa_array entry's x, y (x / 100, y / -100, z / 100 [cm -> m]);
/// vehicle_start_yaw, sunlight_yaw_angle and the ssa_array yaws negated; goal_radius, the
/// landscape's nominal_size and border and scene_capture_settings.goal_sphere_thickness divided
/// by 100. A value that is not a number is left for the decoder to report. The farm's extensions
/// are in the farm's units either way.
void ConvertAutoSceneGenUnits(json::Json* request);

}  // namespace asg::protocol
