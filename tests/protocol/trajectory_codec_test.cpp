// Tests for protocol/trajectory_codec.h.
#include "protocol/trajectory_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "protocol/messages_json.h"

namespace asg::protocol {
namespace {

AnalyzeScenarioRequest SampleRun(size_t samples) {
  AnalyzeScenarioRequest analysis;
  analysis.scenario_number = 7;
  for (size_t i = 0; i < samples; ++i) {
    OdometryWithoutCovariance odometry;
    odometry.header.frame_id = "world";
    odometry.header.stamp = Time::FromSeconds(0.05 * static_cast<double>(i));
    odometry.child_frame_id = "vehicle";
    odometry.pose.position = {10.0 + 0.1 * i, 10.0 - std::sqrt(2.0) * i, 0.4};
    odometry.pose.orientation = {0.01, -0.02, std::sin(0.1 * i), std::cos(0.1 * i)};
    odometry.twist.linear = {5.0 + 1e-12 * i, -0.125, std::numeric_limits<double>::denorm_min()};
    odometry.twist.angular = {0.0, -0.0, 1.0 / 3.0};
    analysis.vehicle_trajectory.push_back(odometry);
  }
  analysis.vehicle_sim_time = 0.05 * static_cast<double>(samples - 1);
  return analysis;
}

TEST(TrajectoryCodecTest, PackedTrajectorySurvivesTheWireBitForBit) {
  const AnalyzeScenarioRequest original = SampleRun(341);
  AnalyzeScenarioRequest sent = original;
  std::string attachment = "PNGBYTES";  // captures come first in the attachment
  PackTrajectory(&sent, &attachment);
  EXPECT_TRUE(sent.vehicle_trajectory.empty());
  EXPECT_EQ(sent.trajectory_attachment.offset, 8u);
  EXPECT_EQ(sent.trajectory_attachment.count, 341u);
  EXPECT_EQ(attachment.size(), 8u + 341u * kPackedOdometryBytes);

  // Through JSON as on the wire, then unpacked.
  AnalyzeScenarioRequest received = DecodeMessage<AnalyzeScenarioRequest>(Json(sent));
  UnpackTrajectory(&received, attachment);
  EXPECT_EQ(received, original);
  EXPECT_TRUE(std::signbit(received.vehicle_trajectory[3].twist.angular.y));
}

TEST(TrajectoryCodecTest, InlineTrajectoryIsLeftAlone) {
  const AnalyzeScenarioRequest original = SampleRun(3);
  AnalyzeScenarioRequest received = original;
  UnpackTrajectory(&received, "");
  EXPECT_EQ(received, original);
}

TEST(TrajectoryCodecTest, BlockOutsideTheAttachmentIsRefused) {
  AnalyzeScenarioRequest sent = SampleRun(4);
  std::string attachment;
  PackTrajectory(&sent, &attachment);
  attachment.pop_back();
  try {
    UnpackTrajectory(&sent, attachment);
    FAIL() << "a truncated block was accepted";
  } catch (const DecodeError& error) {
    EXPECT_EQ(
        std::string(error.what()),
        "trajectory_attachment: 4 samples at offset 0 reach past the attachment of 447 bytes");
  }
}

TEST(TrajectoryCodecTest, SamplesInBothPlacesAreRefused) {
  AnalyzeScenarioRequest sent = SampleRun(2);
  std::string attachment;
  PackTrajectory(&sent, &attachment);
  sent.vehicle_trajectory = SampleRun(1).vehicle_trajectory;
  EXPECT_THROW(UnpackTrajectory(&sent, attachment), DecodeError);
}

TEST(TrajectoryCodecTest, MixedFramesCannotBePacked) {
  AnalyzeScenarioRequest run = SampleRun(2);
  run.vehicle_trajectory[1].child_frame_id = "trailer";
  std::string attachment;
  EXPECT_THROW(PackTrajectory(&run, &attachment), std::invalid_argument);
}

}  // namespace
}  // namespace asg::protocol
