// Tests for worker/node_sensors.h: readings indexing one attachment, sensors sampled at their own
// rates over a run, and camera images sent to a vehicle node.
#include "worker/node_sensors.h"

#include <gtest/gtest.h>

#include <map>

#include "protocol/io_threads.h"
#include "scene/actor_catalog.h"
#include "scene/live_run.h"
#include "scene/scenario_runner.h"
#include "tests/source_catalog.h"
#include "tests/worker/node_fake_node.h"
#include "tests/worker/small_request.h"
#include "worker/node_run.h"

namespace asg::worker {
namespace {

const scene::ActorCatalog& Catalog() {
  static const scene::ActorCatalog catalog =
      scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  return catalog;
}

/// An IMU named `name` sampled at `rate` [Hz].
protocol::SensorSpec Imu(const std::string& name, double rate) {
  protocol::SensorSpec spec;
  spec.type = protocol::SensorSpec::Type::kImu;
  spec.imu.name = name;
  spec.imu.rate = rate;
  return spec;
}

TEST(NodeSensorsTest, AppendReadingIndexesTheAttachment) {
  StepSensorData data;
  AppendReading({{"name", "a"}}, "xyz", &data);
  AppendReading({{"name", "b"}}, "", &data);
  AppendReading({{"name", "c"}}, "12", &data);
  EXPECT_EQ(data.attachment, "xyz12");
  ASSERT_EQ(data.readings.size(), 3u);
  EXPECT_EQ(data.readings[0]["offset"], 0);
  EXPECT_EQ(data.readings[0]["size"], 3);
  EXPECT_EQ(data.readings[1]["offset"], 3);
  EXPECT_EQ(data.readings[1]["size"], 0);
  EXPECT_EQ(data.readings[2]["offset"], 3);
  EXPECT_EQ(data.readings[2]["name"], "c");
}

TEST(NodeSensorsTest, WithoutSensorsNothingIsSampled) {
  scene::LiveRun live(Catalog());
  live.Load(testing::SmallRequest());
  NodeSensors sensors({}, live.world(), 0, nullptr);
  const StepSensorData data = sensors.Sample(scene::DriverInput{});
  EXPECT_TRUE(data.readings.empty());
  EXPECT_TRUE(data.attachment.empty());
}

TEST(NodeSensorsTest, EachSensorIsSampledAtItsOwnRate) {
  // Control ticks come at 20 Hz: the 20 Hz IMU at each, the 10 Hz one at every other.
  scene::LiveRun live(Catalog());
  live.Load(testing::SmallRequest());
  NodeSensors sensors({Imu("fast", 20.0), Imu("slow", 10.0)}, live.world(), 5, nullptr);
  std::vector<StepSensorData> ticks;
  live.SetTickObserver(
      [&](const scene::DriverInput& input) { ticks.push_back(sensors.Sample(input)); });
  for (int i = 0; i < 40; ++i) live.Step();
  ASSERT_EQ(ticks.size(), 8u);  // 40 steps of 10 ms, a tick every 50 ms
  for (size_t k = 0; k < ticks.size(); ++k) {
    SCOPED_TRACE("tick " + std::to_string(k));
    std::vector<std::string> names;
    for (const json::Json& header : ticks[k].readings) names.push_back(header["name"]);
    if (k % 2 == 0) {
      EXPECT_EQ(names, (std::vector<std::string>{"fast", "slow"}));
    } else {
      EXPECT_EQ(names, std::vector<std::string>{"fast"});
    }
  }
}

TEST(NodeSensorsTest, ReadingsIndexTheAttachmentExactlyWithCameraImages) {
  protocol::RunScenarioRequest request = testing::SmallRequest(2, 7);
  request.sim_timeout_period = 0.5;
  request.vehicle_nodes.count = 1;
  protocol::SensorSpec lidar;
  lidar.type = protocol::SensorSpec::Type::kLidar;
  lidar.lidar.name = "roof";
  lidar.lidar.horizontal_resolution = 90;
  protocol::SensorSpec grid;
  grid.type = protocol::SensorSpec::Type::kOccupancyGrid;
  grid.occupancy_grid.name = "grid";
  grid.occupancy_grid.rate = 20.0;
  protocol::SensorSpec camera;
  camera.type = protocol::SensorSpec::Type::kCamera;
  camera.camera.name = "front";
  camera.camera.width = 32;
  camera.camera.height = 24;
  camera.camera.rate = 20.0;
  camera.camera.segmentation = true;
  request.vehicle_nodes.sensors = {lidar, grid, camera};

  scene::ActorCatalog catalog = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  scene::ScenarioRunner runner(catalog);
  runner.Build(request);
  protocol::IoThreads io(1);
  NodeServer server(io.context().get_executor(), NodeServerSettings{});
  fake::FakeNode node(server.endpoint(), "viewer", fake::ConstantLaw(protocol::StepResponse{}));
  std::unique_ptr<capture::CameraSensorRenderer> cameras;
  const NodeRunOutcome outcome = RunWithNodes(runner, request, server, &cameras);
  ASSERT_TRUE(std::holds_alternative<NodeRunCompleted>(outcome))
      << std::get<NodeRunPreempted>(outcome).reason;
  ASSERT_TRUE(node.WaitForRunEnd());
  const auto steps = node.steps();
  const auto attachments = node.attachments();
  ASSERT_EQ(steps.size(), 10u);  // 0.5 s at 20 Hz
  for (size_t k = 0; k < steps.size(); ++k) {
    SCOPED_TRACE("tick " + std::to_string(k));
    size_t offset = 0;
    std::map<std::string, size_t> sizes;  // "name/encoding" -> bytes
    for (const json::Json& header : steps[k].readings) {
      EXPECT_EQ(header.at("offset").get<size_t>(), offset);
      offset += header.at("size").get<size_t>();
      sizes[header.at("name").get<std::string>() + "/" + header.at("encoding").get<std::string>()] =
          header.at("size").get<size_t>();
    }
    EXPECT_EQ(offset, attachments[k].size());
    EXPECT_EQ(sizes.at("front/rgb8"), 32u * 24u * 3u);
    EXPECT_EQ(sizes.at("front/32FC1"), 32u * 24u * 4u);
    EXPECT_EQ(sizes.at("front/mono8"), 32u * 24u);
    EXPECT_EQ(sizes.at("grid/mono8"), 80u * 80u);
    if (k % 2 == 0) {  // the 10 Hz lidar samples every other 20 Hz tick
      ASSERT_TRUE(sizes.contains("roof/xyz32f"));
      EXPECT_EQ(sizes.at("roof/xyz32f") % 12u, 0u);
      EXPECT_GT(sizes.at("roof/xyz32f"), 0u);
    } else {
      EXPECT_FALSE(sizes.contains("roof/xyz32f"));
    }
  }
  // The rgb image is a picture, not zeros.
  const json::Json* rgb = nullptr;
  for (const json::Json& header : steps[0].readings) {
    if (header.at("encoding") == "rgb8") rgb = &header;
  }
  ASSERT_NE(rgb, nullptr);
  const std::string image =
      attachments[0].substr(rgb->at("offset").get<size_t>(), rgb->at("size").get<size_t>());
  EXPECT_NE(image.find_first_not_of('\0'), std::string::npos);
}

}  // namespace
}  // namespace asg::worker
