// A RunScenario request as AutoSceneGen's scenario builder turns it into Unreal's form
// (AutoSceneGenScenarioBuilder.get_unreal_engine_run_scenario_request), for the tests of the
// "autoscenegen" units and of `asg-client import`.
#pragma once

namespace asg::protocol::testing {

/// `request` (JSON of a whole RunScenario request in metres, north-west-up) with the builder's
/// arithmetic: positions x * 100. and y * -100., yaws negated, goal_radius and the landscape's
/// nominal_size and border * 100. [cm]; scene_capture_settings.goal_sphere_thickness * 100., in
/// [cm] as SceneCaptureSettings.msg defines it. z stays as it is (0), as the builder leaves it.
template <class JsonType>
JsonType AsTheBuilderSendsIt(JsonType request) {
  for (const char* key : {"vehicle_start_location", "vehicle_goal_location"}) {
    request[key]["x"] = request[key]["x"].template get<double>() * 100.;
    request[key]["y"] = request[key]["y"].template get<double>() * -100.;
  }
  request["vehicle_start_yaw"] = -request["vehicle_start_yaw"].template get<double>();
  request["goal_radius"] = request["goal_radius"].template get<double>() * 100.;
  JsonType& scene = request["scene_description"];
  JsonType& landscape = scene["landscape"];
  landscape["nominal_size"] = landscape["nominal_size"].template get<double>() * 100.;
  landscape["border"] = landscape["border"].template get<double>() * 100.;
  scene["sunlight_yaw_angle"] = -scene["sunlight_yaw_angle"].template get<double>();
  for (JsonType& layout : scene["ssa_array"]) {
    for (JsonType& x : layout["x"]) x = x.template get<double>() * 100.;
    for (JsonType& y : layout["y"]) y = y.template get<double>() * -100.;
    for (JsonType& yaw : layout["yaw"]) yaw = yaw.template get<double>() * -1.;
  }
  JsonType& settings = request["scene_capture_settings"];
  settings["goal_sphere_thickness"] =
      settings["goal_sphere_thickness"].template get<double>() * 100.;
  return request;
}

}  // namespace asg::protocol::testing
