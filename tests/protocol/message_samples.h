// Sample values of every message with every field set away from its default, for round-trip
// tests of the JSON and frame codecs. Sample<T>() returns the same value on every call.
#pragma once

#include <cstdint>
#include <limits>

#include "protocol/messages.h"

namespace asg::protocol::testing {

template <class T>
T Sample();

template <>
inline Time Sample<Time>() {
  return Time{-3, 999'999'999};
}
template <>
inline Header Sample<Header>() {
  return Header{Time{12, 500'000'000}, "world"};
}
template <>
inline ColorRGBA Sample<ColorRGBA>() {
  return ColorRGBA{0.25, 0.5, 0.75, 0.1};
}
template <>
inline Point Sample<Point>() {
  return Point{10.5, -3.25, 0.1};
}
template <>
inline Vector3 Sample<Vector3>() {
  return Vector3{1.0 / 3.0, -2.5, 1e-310};  // a repeating fraction and a subnormal
}
template <>
inline Quaternion Sample<Quaternion>() {
  return Quaternion{0.0, 0.0, 0.3826834323650898, 0.9238795325112867};
}
template <>
inline Pose Sample<Pose>() {
  return Pose{Sample<Point>(), Sample<Quaternion>()};
}
template <>
inline Twist Sample<Twist>() {
  return Twist{Vector3{4.9, 0.1, -0.2}, Vector3{0.01, -0.02, 0.3}};
}
template <>
inline ReliefFeature Sample<ReliefFeature>() {
  ReliefFeature ramp;
  ramp.type = ReliefFeature::Type::kRamp;
  ramp.height = -1.5;
  ramp.x0 = 5;
  ramp.y0 = 6;
  ramp.x1 = 25;
  ramp.y1 = 26;
  ramp.width = 8;
  return ramp;
}
template <>
inline ScriptedCommand Sample<ScriptedCommand>() {
  return ScriptedCommand{1.5, 3.0, -12.5, true};
}
template <>
inline DriverSpec Sample<DriverSpec>() {
  DriverSpec planner;
  planner.speed = 4.0;
  planner.sensor_range = 25.0;
  planner.sensor_fov = 120.0;
  planner.grid_resolution = 0.5;
  planner.inflation_radius = 1.5;
  planner.lookahead = 6.0;
  planner.replan_period = 2.0;
  return planner;
}
template <>
inline VehicleParams Sample<VehicleParams>() {
  VehicleParams v;
  v.mass = 1100;
  v.length = 3.6;
  v.width = 1.7;
  v.body_height = 1.1;
  v.wheelbase = 2.4;
  v.track_width = 1.4;
  v.wheel_radius = 0.35;
  v.wheel_width = 0.3;
  v.suspension_rest_length = 0.25;
  v.suspension_stiffness = 35;
  v.suspension_damping = 4.0;
  v.suspension_compression = 2.0;
  v.friction_slip = 1.0;
  v.roll_influence = 0.05;
  v.center_of_mass_height = 0.5;
  v.max_steering_angle = 35;
  v.max_speed = 12;
  v.max_engine_force = 5000;
  v.max_brake_force = 7000;
  v.speed_kp = 2000;
  v.speed_kd = 50;
  v.steering_rate = 90;
  return v;
}
template <>
inline SimulationSettings Sample<SimulationSettings>() {
  return SimulationSettings{240.0, 30.0};
}
template <>
inline CaptureFile Sample<CaptureFile>() {
  return CaptureFile{123456};
}
template <>
inline TrajectoryAttachment Sample<TrajectoryAttachment>() {
  return TrajectoryAttachment{1024, 341, "world", "vehicle"};
}
template <>
inline FirstContact Sample<FirstContact>() {
  return FirstContact{3.35, 21.5, 18.25, 4};
}
template <>
inline RunCounters Sample<RunCounters>() {
  return RunCounters{340, 2, 12.5, 8.25, 57.3, 1.2, 1700, Sample<FirstContact>(), "unix"};
}
template <>
inline LandscapeDescription Sample<LandscapeDescription>() {
  ReliefFeature hill;
  hill.x = 30;
  hill.y = 20;
  hill.radius = 10;
  hill.height = 3;
  ReliefFeature noise;
  noise.type = ReliefFeature::Type::kNoise;
  noise.amplitude = 0.5;
  noise.wavelength = 12;
  noise.octaves = 4;
  noise.seed = 4'000'000'000u;
  return LandscapeDescription{80.0, 7, 10.0, {hill, Sample<ReliefFeature>(), noise}};
}
template <>
inline OdometryWithoutCovariance Sample<OdometryWithoutCovariance>() {
  return OdometryWithoutCovariance{Sample<Header>(), "vehicle", Sample<Pose>(), Sample<Twist>()};
}
template <>
inline PhysXControl Sample<PhysXControl>() {
  return PhysXControl{Sample<Header>(), -2.5, 17.0, true};
}
template <>
inline SceneCaptureSettings Sample<SceneCaptureSettings>() {
  SceneCaptureSettings s;
  s.image_size = 256;
  s.draw_annotations = true;
  s.goal_sphere_thickness = 0.25;
  s.goal_sphere_color = ColorRGBA{0, 1, 0, 0.5};
  s.ortho_aerial = true;
  s.perspective_aerial = true;
  s.aerial_padding = {0, 10, 4'294'967'295u};
  s.front_aerial = true;
  s.left_front_aerial = true;
  s.left_aerial = true;
  s.left_rear_aerial = true;
  s.rear_aerial = true;
  s.right_rear_aerial = true;
  s.right_aerial = true;
  s.right_front_aerial = true;
  s.vehicle_start_pov = true;
  s.vehicle_start_rear_aerial = true;
  return s;
}
template <>
inline StructuralSceneActorLayout Sample<StructuralSceneActorLayout>() {
  return StructuralSceneActorLayout{"juniper_tree",      3,          {true, false, true},
                                    {false, true, true}, {1, 2, 3},  {4, 5, 6},
                                    {0, 90, -45},        {1, 0.5, 2}};
}
template <>
inline SceneDescription Sample<SceneDescription>() {
  StructuralSceneActorLayout bushes{"barberry_bush", 1, {true}, {true}, {40}, {41}, {10}, {1}};
  return SceneDescription{
      Sample<LandscapeDescription>(), 45.0, -30.0, {Sample<StructuralSceneActorLayout>(), bushes}};
}
template <>
inline StatusCode Sample<StatusCode>() {
  return StatusCode{StatusCode::ONLINE_AND_RUNNING};
}
template <>
inline VehicleNodeOperatingInfo Sample<VehicleNodeOperatingInfo>() {
  return VehicleNodeOperatingInfo{
      {1, 255}, {7, 4'294'967'295u}, {true, false}, {"/tmp/a", "/tmp/b"}, {false, true}};
}
template <>
inline VehicleStatus Sample<VehicleStatus>() {
  return VehicleStatus{false, true};
}
template <>
inline RegretReport Sample<RegretReport>() {
  return RegretReport{{1.41, 0.545, 0.674, 0.053, 0.138, 27.4, 3.75, 60.22, 11.49},
                      true,
                      57.47,
                      3.2,
                      {{10, 10, 0}, {41.75, 35.25, 0}, {50, 50, 0}}};
}
template <>
inline AnalyzeScenarioRequest Sample<AnalyzeScenarioRequest>() {
  OdometryWithoutCovariance later = Sample<OdometryWithoutCovariance>();
  later.header.stamp = Time{13, 0};
  later.pose.position.x += 0.25;
  return AnalyzeScenarioRequest{3,
                                65535,
                                true,
                                {Sample<CaptureFile>(), CaptureFile{77}},
                                {"ortho_aerial_pad0_annotated", "perspective_vehicle_start_pov"},
                                TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS,
                                {Sample<OdometryWithoutCovariance>(), later},
                                0.5,
                                Sample<RunCounters>(),
                                "image_size 5000 is outside 1..4096 px",
                                Sample<TrajectoryAttachment>(),
                                Sample<RegretReport>()};
}
template <>
inline AnalyzeScenarioResponse Sample<AnalyzeScenarioResponse>() {
  return AnalyzeScenarioResponse{true};
}
template <>
inline NotifyReadyRequest Sample<NotifyReadyRequest>() {
  return NotifyReadyRequest{2, "autonomy_stack", 41, true, "camera dropped frames"};
}
template <>
inline NotifyReadyResponse Sample<NotifyReadyResponse>() {
  return NotifyReadyResponse{true, true};
}
template <>
inline RegisterVehicleNodeRequest Sample<RegisterVehicleNodeRequest>() {
  return RegisterVehicleNodeRequest{2, "autonomy_stack"};
}
template <>
inline RegisterVehicleNodeResponse Sample<RegisterVehicleNodeResponse>() {
  return RegisterVehicleNodeResponse{true};
}
template <>
inline RunScenarioRequest Sample<RunScenarioRequest>() {
  RunScenarioRequest r;
  r.scenario_number = 42;
  r.sim_timeout_period = 17;
  r.vehicle_idling_timeout_period = 5;
  r.vehicle_stuck_timeout_period = 6;
  r.max_vehicle_roll = 60;
  r.max_vehicle_pitch = 65;
  r.allow_collisions = false;
  r.vehicle_start_location = Point{10, 10, 0};
  r.vehicle_start_yaw = 45;
  r.vehicle_goal_location = Point{50, 50, 0};
  r.goal_radius = 4;
  r.scene_description = Sample<SceneDescription>();
  r.take_scene_capture = true;
  r.scene_capture_only = true;
  r.scene_capture_settings = Sample<SceneCaptureSettings>();
  r.driver.type = DriverSpec::Type::kScripted;
  r.driver.commands = {ScriptedCommand{0, 5, 0, false}, Sample<ScriptedCommand>(),
                       ScriptedCommand{1.5, 0, 0, true}};
  r.vehicle = Sample<VehicleParams>();
  r.simulation = Sample<SimulationSettings>();
  r.seed = std::numeric_limits<uint64_t>::max();
  r.variation = RunVariation{2, 0.25, 3.0};
  r.vehicle_nodes.count = 1;
  r.vehicle_nodes.sync = false;
  r.vehicle_nodes.sensors.resize(2);
  r.vehicle_nodes.sensors[0].type = SensorSpec::Type::kLidar;
  r.vehicle_nodes.sensors[0].lidar.name = "roof_lidar";
  r.vehicle_nodes.sensors[0].lidar.vertical_angles = {-10, 0, 10};
  r.vehicle_nodes.sensors[1].type = SensorSpec::Type::kImu;
  r.vehicle_nodes.sensors[1].imu.name = "imu";
  r.vehicle_nodes.sensors[1].imu.seed = 7;
  r.regret = RegretSpec{regret::FailureTime::kEndOfRun};
  return r;
}
template <>
inline RunScenarioResponse Sample<RunScenarioResponse>() {
  return RunScenarioResponse{true};
}
template <>
inline WorkerIssueNotificationRequest Sample<WorkerIssueNotificationRequest>() {
  return WorkerIssueNotificationRequest{
      9, WorkerIssueNotificationRequest::ISSUE_ROSBRIDGE_INTERRUPTED, "unknown path_name \"oak\""};
}

template <>
inline WorkerIssueNotificationResponse Sample<WorkerIssueNotificationResponse>() {
  return WorkerIssueNotificationResponse{true};
}

}  // namespace asg::protocol::testing
