// Tests for protocol/node_messages.h.
#include "protocol/node_messages.h"

#include <gtest/gtest.h>

#include "protocol/messages_json.h"

namespace asg::protocol {
namespace {

template <class T>
T RoundTrip(const T& value) {
  return DecodeMessage<T>(Json(value));
}

std::string DecodeErrorText(const Json& j, auto* out) {
  try {
    Decode(j, "", out);
  } catch (const DecodeError& error) {
    return error.what();
  }
  return "";
}

TEST(NodeMessagesTest, EveryMessageRoundTrips) {
  EXPECT_EQ(RoundTrip(NodeRegistration{3, "mapper", "s3cret"}),
            (NodeRegistration{3, "mapper", "s3cret"}));
  EXPECT_EQ(RoundTrip(UnregisterVehicleNodeRequest{2, "planner"}),
            (UnregisterVehicleNodeRequest{2, "planner"}));
  NodeOperatingInfo info{{{1, 2}, {5, 0}, {true, false}, {"a", "b"}, {false, true}},
                         {"127.0.0.1:4000", "127.0.0.1:4001"}};
  EXPECT_EQ(RoundTrip(info), info);
  EXPECT_EQ(RoundTrip(SaveNodeFileRequest{1, "mapper", 12, "maps/grid.csv"}),
            (SaveNodeFileRequest{1, "mapper", 12, "maps/grid.csv"}));
  EXPECT_EQ(RoundTrip(AttachNodeRequest{"follower", "t"}), (AttachNodeRequest{"follower", "t"}));

  RunStartRequest start;
  start.scenario_number = 9;
  start.vehicle_start_location = {10, 10, 0};
  start.vehicle_start_yaw = 45;
  start.vehicle_goal_location = {50, 50, 0};
  start.control_period = 0.05;
  start.sync = false;
  SensorSpec lidar;
  lidar.type = SensorSpec::Type::kLidar;
  lidar.lidar.name = "top";
  start.sensors = {lidar};
  EXPECT_EQ(RoundTrip(start), start);

  StepRequest step;
  step.scenario_number = 9;
  step.tick = 40;
  step.time = 2.0;
  step.odometry.pose.position = {11.5, 12.25, 0.4};
  step.readings = {Json{{"name", "top"}, {"offset", 0}, {"size", 1200}}};
  EXPECT_EQ(RoundTrip(step), step);

  RunEndMessage end{9, TerminationReason::REASON_SIM_TIMEOUT, "REASON_SIM_TIMEOUT", 17.0, false,
                    ""};
  EXPECT_EQ(RoundTrip(end), end);
  EXPECT_EQ(RoundTrip(RunPreemptedRequest{4, 9, "node mapper missed the step deadline"}),
            (RunPreemptedRequest{4, 9, "node mapper missed the step deadline"}));
}

TEST(NodeMessagesTest, StepResponseCarriesAtMostOneControl) {
  StepResponse none;
  EXPECT_EQ(Json(none), Json::object());
  EXPECT_EQ(RoundTrip(none), none);

  StepResponse physx;
  physx.has_control = true;
  physx.control.longitudinal_velocity = 5.0;
  physx.control.steering_angle = -12.5;
  EXPECT_EQ(RoundTrip(physx), physx);
  EXPECT_FALSE(Json(physx).contains("ego_control"));

  StepResponse ego;
  ego.has_ego_control = true;
  ego.ego_control = {0.5, -0.25, 0.0, 1};
  EXPECT_EQ(RoundTrip(ego), ego);

  Json both = Json(physx);
  both["ego_control"] = Json(ego.ego_control);
  StepResponse decoded;
  EXPECT_NE(DecodeErrorText(both, &decoded).find("both \"control\" and \"ego_control\""),
            std::string::npos);
}

TEST(NodeMessagesTest, BadValuesNameTheirPath) {
  Json info = Json(NodeOperatingInfo{{{1, 2}, {5, 0}, {true, false}, {"a", "b"}, {false, true}},
                                     {"h:1", "h:2"}});
  info["save_dirs"] = Json::array({"a"});
  NodeOperatingInfo decoded_info;
  EXPECT_EQ(DecodeErrorText(info, &decoded_info), "save_dirs: 1 values, worker_ids has 2");

  Json ego = Json(EgoControl{0.5, 0.0, 0.0, 1});
  ego["forward_amount"] = 1.5;
  EgoControl decoded_ego;
  EXPECT_NE(DecodeErrorText(ego, &decoded_ego).find("forward_amount"), std::string::npos);

  Json attach = Json(AttachNodeRequest{"n", ""});
  attach["tokn"] = "x";
  AttachNodeRequest decoded_attach;
  EXPECT_NE(DecodeErrorText(attach, &decoded_attach).find("tokn: unknown field"),
            std::string::npos);
}

TEST(NodeMessagesTest, AControlMayLeaveOutItsHeader) {
  const StepResponse response = DecodeMessage<StepResponse>(
      Json{{"control",
            {{"longitudinal_velocity", 3.5}, {"steering_angle", -10}, {"handbrake", false}}}});
  ASSERT_TRUE(response.has_control);
  EXPECT_EQ(response.control.longitudinal_velocity, 3.5);
  EXPECT_EQ(response.control.steering_angle, -10.0);
  EXPECT_EQ(response.control.header, Header{});
  // The other fields stay required.
  StepResponse decoded;
  EXPECT_NE(DecodeErrorText(
                Json{{"control", {{"longitudinal_velocity", 3.5}, {"handbrake", false}}}}, &decoded)
                .find("control.steering_angle: missing required field"),
            std::string::npos);
}

TEST(NodeMessagesTest, EgoControlMapsOntoPhysXControl) {
  VehicleParams vehicle;  // 30 deg max steering, 15 m/s max speed
  PhysXControl forward = ToPhysXControl(EgoControl{0.5, 0.5, 0.0, 1}, vehicle);
  EXPECT_DOUBLE_EQ(forward.longitudinal_velocity, 7.5);
  EXPECT_DOUBLE_EQ(forward.steering_angle, 15.0);
  EXPECT_FALSE(forward.handbrake);

  PhysXControl reverse = ToPhysXControl(EgoControl{0.2, -1.0, 0.0, -1}, vehicle);
  EXPECT_DOUBLE_EQ(reverse.longitudinal_velocity, -3.0);
  EXPECT_DOUBLE_EQ(reverse.steering_angle, -30.0);

  PhysXControl neutral = ToPhysXControl(EgoControl{1.0, 0.0, 0.0, 0}, vehicle);
  EXPECT_DOUBLE_EQ(neutral.longitudinal_velocity, 0.0);

  PhysXControl braking = ToPhysXControl(EgoControl{1.0, 0.0, 1.0, 1}, vehicle);
  EXPECT_DOUBLE_EQ(braking.longitudinal_velocity, 0.0);
  EXPECT_TRUE(braking.handbrake);
}

}  // namespace
}  // namespace asg::protocol
