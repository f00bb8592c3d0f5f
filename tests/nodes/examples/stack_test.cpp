// Tests for nodes/examples/stack_*.h and example_options.h: the mapper's back-projection, the
// planner's detour, the follower's steering sign, and the stack node over loopback.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <thread>

#include "nodes/examples/example_options.h"
#include "nodes/examples/stack_node.h"
#include "tests/nodes/node_peer.h"

namespace asg::nodes::examples {
namespace {

/// A 3 x 3 camera frame seeing an obstacle at `depth` [m] in its centre pixel only.
std::pair<CameraImage, CameraImage> CentreObstacle(float depth) {
  CameraImage depths{"32FC1", 3, 3, {}, std::vector<float>(9, INFINITY), 0.0};
  CameraImage labels{"mono8", 3, 3, std::vector<uint8_t>(9, kLabelSky), {}, 0.0};
  depths.depth[4] = depth;
  labels.bytes[4] = kLabelNonTraversable;
  return {depths, labels};
}

Eigen::Isometry3d VehicleAt(double x, double y, double yaw_deg) {
  protocol::Pose pose;
  pose.position = {x, y, 0.0};
  pose.orientation.z = std::sin(yaw_deg * M_PI / 360.0);
  pose.orientation.w = std::cos(yaw_deg * M_PI / 360.0);
  return PoseToIsometry(pose);
}

TEST(StackMapperTest, VotesTheBackProjectedCellAndCaps) {
  VoteMap map(0.0, 60.0);
  protocol::CameraSpec camera;  // 1.5 m ahead, 1.4 m up, looking forward
  const auto [depth, labels] = CentreObstacle(10.0f);
  // Facing +y from (20, 30): the obstacle is at (20, 41.5).
  EXPECT_EQ(map.Integrate(depth, labels, camera, VehicleAt(20.0, 30.0, 90.0)), 1);
  EXPECT_EQ(map.VotesAt(20.5, 41.5), 1);
  EXPECT_EQ(map.VotesAt(20.5, 30.5), 0);
  for (int i = 0; i < 60; ++i) map.Integrate(depth, labels, camera, VehicleAt(20.0, 30.0, 90.0));
  EXPECT_EQ(map.VotesAt(20.5, 41.5), VoteMap::kMaxVotes);
  // Beyond the range: nothing.
  const auto [far, far_labels] = CentreObstacle(45.0f);
  EXPECT_EQ(map.Integrate(far, far_labels, camera, VehicleAt(20.0, 5.0, 90.0)), 0);
}

TEST(StackPlannerTest, DetoursAroundVotedCells) {
  VoteMap map(0.0, 60.0);
  GridPlanner planner;
  const StackPath open = planner.Plan(map, {10.0, 30.0}, {50.0, 30.0});
  ASSERT_TRUE(open.found);
  EXPECT_NEAR(open.cost, 40.0, 1e-9);  // 20 cells of 2 m, no penalty
  // A wall of obstacles across y in [20, 40] at x = 30.
  protocol::CameraSpec camera;
  const auto [depth, labels] = CentreObstacle(10.0f);
  for (int y = 20; y <= 40; ++y) {
    for (int k = 0; k < 50; ++k) {
      map.Integrate(depth, labels, camera, VehicleAt(18.5, y + 0.5, 0.0));
    }
  }
  ASSERT_EQ(map.VotesAt(30.5, 30.5), VoteMap::kMaxVotes);
  const StackPath detour = planner.Plan(map, {10.0, 30.0}, {50.0, 30.0});
  ASSERT_TRUE(detour.found);
  double closest = INFINITY;
  for (const Eigen::Vector2d& point : detour.points) {
    if (std::abs(point.x() - 30.5) < 2.0) closest = std::min(closest, std::abs(point.y() - 30.0));
  }
  EXPECT_GT(closest, 10.0);  // it crosses x = 30 outside the wall, not through it
}

TEST(StackFollowerTest, SteersTowardThePathWithTheResearchGains) {
  LookaheadFollower follower(FollowerGains{});
  follower.SetPath({{0.0, 0.0}, {100.0, 0.0}});
  protocol::PhysXControl on_path = follower.Update(0.0, {0.0, 0.0}, 0.0);
  EXPECT_EQ(on_path.steering_angle, 0.0);
  EXPECT_EQ(on_path.longitudinal_velocity, 5.0);
  EXPECT_EQ(follower.lookahead_point(), Eigen::Vector2d(5.0, 0.0));
  // Heading 2 deg to the left of the path: steer right, 20 deg/rad, no rate on the first tick.
  LookaheadFollower fresh(FollowerGains{});
  fresh.SetPath({{0.0, 0.0}, {100.0, 0.0}});
  const double steer = fresh.Update(0.0, {0.0, 0.0}, 2.0).steering_angle;
  EXPECT_NEAR(steer, 20.0 * 2.0 * M_PI / 180.0, 1e-12);
  // The error shrinking by 1 deg in 0.05 s adds 5 * rate (negative).
  const double next = fresh.Update(0.05, {0.0, 0.0}, 1.0).steering_angle;
  EXPECT_NEAR(next, 20.0 * M_PI / 180.0 + 5.0 * (-M_PI / 180.0) / 0.05, 1e-9);
}

TEST(ExampleOptionsTest, ParsesTheCommonOptions) {
  double speed = 5.0;
  const ExampleUsage usage{"asg-node-x", "An example.", {{"speed", "[m/s] speed", &speed}}, {}};
  std::ostringstream out, err;
  NodeSettings settings;
  const char* argv[] = {"x",       "--connect", "10.0.0.2:7000", "--worker-id", "4", "--name", "n",
                        "--token", "t",         "--speed",       "3.5"};
  EXPECT_EQ(ParseExampleCommandLine(11, argv, usage, &settings, out, err), -1) << err.str();
  EXPECT_EQ(settings.client_endpoint, "10.0.0.2:7000");
  EXPECT_EQ(settings.worker_id, 4);
  EXPECT_EQ(settings.node_name, "n");
  EXPECT_EQ(settings.token, "t");
  EXPECT_EQ(speed, 3.5);
  const char* help[] = {"x", "--help"};
  EXPECT_EQ(ParseExampleCommandLine(2, help, usage, &settings, out, err), 0);
  EXPECT_NE(out.str().find("--worker-id N"), std::string::npos);
  const char* missing[] = {"x", "--connect", "h:1", "--worker-id", "65536", "--name", "n"};
  EXPECT_EQ(ParseExampleCommandLine(7, missing, usage, &settings, out, err), 2);
  EXPECT_NE(err.str().find("--worker-id 65536: not an integer in 0..65535"), std::string::npos);
}

TEST(StackNodeTest, DrivesFromCameraStepsAndSavesItsMap) {
  nodes::testing::FakeClient client("");
  nodes::testing::FakeWorker worker("");
  NodeSettings settings;
  settings.client_endpoint = client.address();
  settings.worker_id = 1;
  settings.node_name = "stack";
  settings.handle_signals = false;
  settings.log = false;
  StackNode node(settings, StackSettings{});
  std::thread run([&] { node.Run(); });
  ASSERT_EQ(client.inbox().Wait("NotifyReady").size(), 1u);
  protocol::NodeOperatingInfo info;
  info.info = {{1}, {1}, {true}, {"/out"}, {false}};
  info.data_endpoints = {worker.address()};
  client.SendOperatingInfo(info);
  ASSERT_EQ(worker.inbox().Wait("AttachNode").size(), 1u);

  RunStart start;
  start.scenario_number = 1;
  start.vehicle_goal_location = {50.0, 10.0, 0.0};
  protocol::SensorSpec camera;
  camera.camera.name = "front";
  camera.camera.width = camera.camera.height = 3;
  camera.camera.segmentation = true;
  start.sensors = {camera};
  const auto data = worker.node();
  data->Request("RunStart", start, {}, nodes::testing::kWait);
  const auto [depth, labels] = CentreObstacle(8.0f);
  std::string attachment(36 + 9, '\0');
  std::memcpy(attachment.data(), depth.depth.data(), 36);
  std::memcpy(attachment.data() + 36, labels.bytes.data(), 9);
  const json::Json stamp = protocol::Time{};
  protocol::StepRequest step;
  step.scenario_number = 1;
  step.odometry.pose.position = {10.0, 10.0, 0.0};
  step.readings = {{{"name", "front"},
                    {"type", "camera"},
                    {"stamp", stamp},
                    {"encoding", "32FC1"},
                    {"width", 3},
                    {"height", 3},
                    {"step", 12},
                    {"offset", 0},
                    {"size", 36}},
                   {{"name", "front"},
                    {"type", "camera"},
                    {"stamp", stamp},
                    {"encoding", "mono8"},
                    {"width", 3},
                    {"height", 3},
                    {"step", 3},
                    {"offset", 36},
                    {"size", 9}}};
  const protocol::Message reply = data->Request("Step", step, attachment, nodes::testing::kWait);
  const auto control = protocol::DecodeMessage<protocol::StepResponse>(reply.message);
  EXPECT_TRUE(control.has_control);
  EXPECT_EQ(control.control.longitudinal_velocity, 5.0);
  data->Send("VehicleStatus", protocol::VehicleStatus{false, false});
  data->Send("RunEnd", protocol::RunEndMessage{1, protocol::TerminationReason::REASON_SIM_TIMEOUT,
                                               "REASON_SIM_TIMEOUT", 0.0, false, ""});
  const auto saves = client.inbox().Wait("SaveNodeFile", 2);
  ASSERT_EQ(saves.size(), 2u);
  EXPECT_EQ(saves[0].message["relative_path"], "last_path.csv");
  EXPECT_EQ(saves[0].attachment.rfind("x,y\n10,10\n", 0), 0u) << saves[0].attachment;
  EXPECT_EQ(saves[1].message["relative_path"], "votes.pgm");
  // The obstacle 1.5 + 8 m ahead of (10, 10) facing +x got its vote: pixel value 5.
  EXPECT_NE(saves[1].attachment.find('\x05'), std::string::npos);
  EXPECT_EQ(client.inbox().Wait("NotifyReady", 2).size(), 2u);
  node.Stop();
  run.join();
}

}  // namespace
}  // namespace asg::nodes::examples
