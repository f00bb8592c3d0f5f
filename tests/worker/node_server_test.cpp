// Tests for worker/node_server.h and the Step sensor data of worker/node_sensors.h.
#include "worker/node_server.h"

#include <gtest/gtest.h>

#include <map>
#include <thread>

#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "scene/actor_catalog.h"
#include "scene/scenario_runner.h"
#include "tests/worker/node_fake_node.h"
#include "worker/node_run.h"
#include "worker/node_sensors.h"

namespace asg::worker {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

NodeServerSettings WithToken(const std::string& token) {
  NodeServerSettings settings;
  settings.token = token;
  return settings;
}

class NodeServerTest : public ::testing::Test {
 protected:
  /// Connects to the server and sends AttachNode; returns the connection (started).
  std::shared_ptr<protocol::Connection> Connect() {
    auto connection = protocol::Connect(client_io_.context().get_executor(), server_.endpoint(),
                                        std::chrono::seconds(2));
    connection->Start();
    return connection;
  }
  static protocol::Message Attach(protocol::Connection& connection, const std::string& name,
                                  const std::string& token = {}) {
    return connection.Request("AttachNode", json::Json(protocol::AttachNodeRequest{name, token}));
  }

  protocol::IoThreads io_{1};
  protocol::IoThreads client_io_{1};
  NodeServer server_{io_.context().get_executor(), WithToken("secret")};
};

TEST_F(NodeServerTest, EndpointIsTheBoundLoopbackPort) {
  const protocol::HostPort endpoint = protocol::ParseHostPort(server_.endpoint());
  EXPECT_EQ(endpoint.host, "127.0.0.1");
  EXPECT_GT(endpoint.port, 0);
}

TEST_F(NodeServerTest, AttachesWithTheTokenAndRefusesAWrongOne) {
  auto good = Connect();
  EXPECT_EQ(Attach(*good, "planner", "secret").message, json::Json({{"received", true}}));
  auto bad = Connect();
  try {
    Attach(*bad, "intruder", "guess");
    FAIL() << "a wrong token was accepted";
  } catch (const protocol::RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("wrong token"), std::string::npos) << error.what();
  }
  EXPECT_EQ(server_.AttachedNames(), std::vector<std::string>{"planner"});
}

TEST_F(NodeServerTest, RefusesADuplicateNameUntilTheHolderLeaves) {
  auto first = Connect();
  Attach(*first, "perception", "secret");
  auto second = Connect();
  EXPECT_THROW(Attach(*second, "perception", "secret"), protocol::RequestError);
  EXPECT_THROW(Attach(*first, "other", "secret"), protocol::RequestError);  // already attached
  first->Close("leaving");
  const auto deadline = Clock::now() + std::chrono::seconds(3);
  while (!server_.AttachedNames().empty() && Clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  EXPECT_TRUE(server_.AttachedNames().empty());
  EXPECT_NO_THROW(Attach(*second, "perception", "secret"));
}

TEST_F(NodeServerTest, WaitForNodesReturnsSortedNodesOrWhatCameByTheDeadline) {
  auto b = Connect();
  Attach(*b, "b", "secret");
  const auto start = Clock::now();
  EXPECT_EQ(server_.WaitForNodes(2, start + milliseconds(100)).size(), 1u);
  EXPECT_GE(Clock::now() - start, milliseconds(100));
  auto a = Connect();
  std::thread late([&] {
    std::this_thread::sleep_for(milliseconds(50));
    Attach(*a, "a", "secret");
  });
  const auto nodes = server_.WaitForNodes(2, Clock::now() + std::chrono::seconds(5));
  late.join();
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0]->name(), "a");
  EXPECT_EQ(nodes[1]->name(), "b");
}

TEST(NodeSensorsTest, ReadingsIndexTheAttachmentExactlyWithCameraImages) {
  protocol::RunScenarioRequest request;
  request.scenario_number = 2;
  request.sim_timeout_period = 0.5;
  request.vehicle_start_location = {8.0, 8.0, 0.0};
  request.vehicle_start_yaw = 45.0;
  request.vehicle_goal_location = {32.0, 32.0, 0.0};
  request.scene_description.landscape.nominal_size = 40.0;
  request.scene_description.landscape.subdivisions = 4;
  request.seed = 7;
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

  scene::ActorCatalog catalog = scene::ActorCatalog::FromFile(scene::DefaultActorCatalogPath());
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
