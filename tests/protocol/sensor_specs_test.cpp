// Tests for protocol/sensor_specs.h.
#include "protocol/sensor_specs.h"

#include <gtest/gtest.h>

#include "protocol/messages_json.h"

namespace asg::protocol {
namespace {

SensorSpec Lidar(const std::string& name) {
  SensorSpec spec;
  spec.type = SensorSpec::Type::kLidar;
  spec.lidar.name = name;
  return spec;
}

// A list with one non-default sensor of every type.
VehicleNodesSpec AllSensors() {
  VehicleNodesSpec nodes;
  nodes.count = 2;
  nodes.sync = false;
  nodes.realtime_factor = 2.5;
  nodes.step_deadline = 3.0;
  SensorSpec camera;
  camera.camera = {
      "front", SensorMount{Vector3{2, 0.5, 1}, 1, -5, 30}, 640, 480, 70, 5, false, true, true};
  SensorSpec lidar = Lidar("roof");
  lidar.lidar.horizontal_resolution = 720;
  lidar.lidar.vertical_angles = {-30, 0, 10.5};
  lidar.lidar.range = 80;
  lidar.lidar.min_range = 1;
  lidar.lidar.rate = 5;
  SensorSpec grid;
  grid.type = SensorSpec::Type::kOccupancyGrid;
  grid.occupancy_grid = {"grid", 0.25, 100, 60, 12, 4};
  SensorSpec imu;
  imu.type = SensorSpec::Type::kImu;
  imu.imu = {"imu", 100, 0.01, 0.02, 0.03, 99, false};
  SensorSpec detection;
  detection.type = SensorSpec::Type::kDetection;
  detection.detection = {"objects", 40, 2, 0.3, 0.25, 0.5, 7};
  nodes.sensors = {camera, lidar, grid, imu, detection};
  return nodes;
}

TEST(SensorSpecs, EverySensorTypeRoundTrips) {
  const VehicleNodesSpec nodes = AllSensors();
  const Json j = nodes;
  EXPECT_EQ(DecodeMessage<VehicleNodesSpec>(j), nodes);
  EXPECT_EQ(ParseMessage<VehicleNodesSpec>(j.dump()), nodes);
  EXPECT_EQ(j["sensors"][0]["type"], "camera");
  EXPECT_EQ(j["sensors"][2]["type"], "occupancy_grid");
  // Only the selected type's fields are written: a lidar has no "fov", an IMU no "range".
  EXPECT_FALSE(j["sensors"][1].contains("fov"));
  EXPECT_FALSE(j["sensors"][3].contains("range"));
  EXPECT_EQ(j["sensors"][1].size(), 8u);  // type + the 7 LidarSpec fields
}

TEST(SensorSpecs, MissingFieldsTakeTheDocumentedDefaults) {
  const auto nodes = ParseMessage<VehicleNodesSpec>(
      R"({"sensors": [{"type": "lidar", "name": "l"}, {"type": "camera", "name": "c"}]})");
  EXPECT_EQ(nodes.count, 0u);
  EXPECT_TRUE(nodes.sync);
  const LidarSpec& lidar = nodes.sensors[0].lidar;
  EXPECT_EQ(lidar.horizontal_resolution, 360u);
  ASSERT_EQ(lidar.vertical_angles.size(), 16u);
  EXPECT_DOUBLE_EQ(lidar.vertical_angles.front(), -15.0);
  EXPECT_DOUBLE_EQ(lidar.vertical_angles.back(), 15.0);
  EXPECT_DOUBLE_EQ(lidar.mount.offset.z, 1.8);
  EXPECT_DOUBLE_EQ(nodes.sensors[1].camera.mount.offset.x, 1.5);
  EXPECT_DOUBLE_EQ(nodes.sensors[1].camera.mount.offset.z, 1.4);
  EXPECT_EQ(nodes.sensors[1].Name(), "c");
  EXPECT_DOUBLE_EQ(nodes.sensors[1].Rate(), 15.0);
}

// The DecodeError path for a sensors list given as JSON text.
std::string ErrorPath(const std::string& sensors) {
  try {
    ParseMessage<VehicleNodesSpec>(R"({"sensors": )" + sensors + "}");
  } catch (const DecodeError& error) {
    return error.path() + " | " + error.what();
  }
  return "no error";
}

TEST(SensorSpecs, BadSensorsNameTheirPath) {
  EXPECT_EQ(ErrorPath(R"([{"type": "sonar", "name": "s"}])").substr(0, 18), "sensors[0].type | ");
  EXPECT_NE(ErrorPath(R"([{"type": "sonar", "name": "s"}])").find("occupancy_grid"),
            std::string::npos);
  EXPECT_EQ(
      ErrorPath(R"([{"type": "imu", "name": "a"}, {"type": "lidar", "name": "a"}])").substr(0, 18),
      "sensors[1].name | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "imu", "name": "a", "rate": 0}])").substr(0, 18),
            "sensors[0].rate | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "detection", "name": "d", "probability_of_lost": 1.5}])")
                .substr(0, 33),
            "sensors[0].probability_of_lost | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "lidar"}])").substr(0, 18), "sensors[0].name | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "lidar", "name": ""}])").substr(0, 18), "sensors[0].name | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "lidar", "name": "l", "fov": 90}])").substr(0, 17),
            "sensors[0].fov | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "lidar", "name": "l", "vertical_angles": []}])").substr(0, 29),
            "sensors[0].vertical_angles | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "lidar", "name": "l", "min_range": 60}])").substr(0, 23),
            "sensors[0].min_range | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "camera", "name": "c", "width": 0}])").substr(0, 19),
            "sensors[0].width | ");
  EXPECT_EQ(ErrorPath(R"([{"type": "camera", "name": "c", "fov": 180}])").substr(0, 17),
            "sensors[0].fov | ");
  EXPECT_EQ(ErrorPath(R"([{"name": "c"}])").substr(0, 18), "sensors[0].type | ");
}

TEST(SensorSpecs, RunScenarioRequestCarriesVehicleNodes) {
  RunScenarioRequest request;
  request.vehicle_nodes = AllSensors();
  const Json j = request;
  EXPECT_EQ(DecodeMessage<RunScenarioRequest>(j).vehicle_nodes, request.vehicle_nodes);
  Json bad = j;
  bad["vehicle_nodes"]["sensors"][4]["probability_of_lost"] = -0.1;
  try {
    DecodeMessage<RunScenarioRequest>(bad);
    FAIL() << "a negative probability decoded";
  } catch (const DecodeError& error) {
    EXPECT_EQ(error.path(), "vehicle_nodes.sensors[4].probability_of_lost");
  }
}

}  // namespace
}  // namespace asg::protocol
