// Tests for scene/sensor_suite.h and scene/sensor_reading.h.
#include "scene/sensor_suite.h"

#include <gtest/gtest.h>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

// How many of 20 ticks at 20 Hz (one second) a sensor of `rate` samples at.
int SamplesInOneSecond(double rate) {
  SensorSchedule schedule(rate);
  int count = 0;
  for (int k = 0; k < 20; ++k) count += schedule.Due(k / 20.0);
  return count;
}

TEST(SensorSchedule, SamplesAtTheFirstTickAtOrAfterEachDueTime) {
  EXPECT_EQ(SamplesInOneSecond(10.0), 10);
  EXPECT_EQ(SamplesInOneSecond(20.0), 20);
  EXPECT_EQ(SamplesInOneSecond(15.0), 15);  // does not divide 20 Hz: uneven gaps, right count
  EXPECT_EQ(SamplesInOneSecond(60.0), 20);  // faster than the ticks: every tick, once
  EXPECT_EQ(SamplesInOneSecond(1.0), 1);
  SensorSchedule schedule(4.0);  // due at 0, 0.25, 0.5: ticks 0, 0.25, 0.5 of a 20 Hz run
  std::vector<int> due_ticks;
  for (int k = 0; k < 12; ++k) {
    if (schedule.Due(k / 20.0)) due_ticks.push_back(k);
  }
  EXPECT_EQ(due_ticks, (std::vector<int>{0, 5, 10}));
}

std::vector<protocol::SensorSpec> Specs() {
  std::vector<protocol::SensorSpec> specs(4);
  specs[0].type = protocol::SensorSpec::Type::kCamera;
  specs[0].camera.name = "front";
  specs[0].camera.rate = 5.0;
  specs[1].type = protocol::SensorSpec::Type::kLidar;
  specs[1].lidar.name = "roof";
  specs[1].lidar.rate = 10.0;
  specs[2].type = protocol::SensorSpec::Type::kImu;
  specs[2].imu.name = "imu";
  specs[2].imu.rate = 20.0;
  specs[2].imu.angular_velocity_noise = 0.1;
  specs[3].type = protocol::SensorSpec::Type::kOccupancyGrid;
  specs[3].occupancy_grid.name = "grid";
  specs[3].occupancy_grid.rate = 2.0;
  return specs;
}

TEST(SensorSuite, EachSensorIsSampledOnItsOwnSchedule) {
  const World world = BuildWorld(testing::ReferenceRequest(), testing::ShippedCatalog());
  SensorSuite suite(Specs(), world, 11);
  ASSERT_NE(suite.scene(), nullptr);
  std::map<std::string, int> counts;
  int cameras = 0;
  SensorInput input;
  input.pose.translate(Eigen::Vector3d(30.0, 30.0, 0.0));
  for (int k = 0; k < 20; ++k) {
    input.time = k / 20.0;
    const SensorTick tick = suite.Tick(input);
    for (const auto& reading : tick.readings) ++counts[reading.header["name"]];
    for (const auto* camera : tick.due_cameras) cameras += camera->name == "front";
    if (k == 0) {
      ASSERT_EQ(tick.readings.size(), 3u);
      EXPECT_EQ(tick.readings[0].header["type"], "lidar");
      EXPECT_EQ(tick.readings[1].header["type"], "imu");
      EXPECT_EQ(tick.readings[2].header["type"], "occupancy_grid");
    }
  }
  EXPECT_EQ(counts["roof"], 10);
  EXPECT_EQ(counts["imu"], 20);
  EXPECT_EQ(counts["grid"], 2);
  EXPECT_EQ(cameras, 5);
}

TEST(SensorSuite, RunSeedChangesTheNoise) {
  const World world = BuildWorld(testing::ReferenceRequest(), testing::ShippedCatalog());
  auto specs = Specs();
  specs.erase(specs.begin() + 1);  // no lidar: no Embree scene
  SensorSuite a(specs, world, 1), b(specs, world, 1), c(specs, world, 2);
  EXPECT_EQ(a.scene(), nullptr);
  SensorInput input;
  const auto imu = [&](SensorSuite& suite) { return suite.Tick(input).readings[0].header; };
  const auto first = imu(a);
  EXPECT_EQ(first, imu(b));
  EXPECT_NE(first["angular_velocity"], imu(c)["angular_velocity"]);
}

TEST(OdometryReading, CarriesThePoseAndTwistWithTheCommonKeys) {
  protocol::OdometryWithoutCovariance odometry;
  odometry.header.stamp = protocol::Time::FromSeconds(1.25);
  odometry.header.frame_id = "world";
  odometry.child_frame_id = "vehicle";
  odometry.pose.position = {1, 2, 3};
  odometry.twist.linear = {4, 0, 0};
  const SensorReading reading = OdometryReading(odometry);
  EXPECT_EQ(reading.header["type"], "odometry");
  EXPECT_EQ(reading.header["stamp"]["nanosec"], 250'000'000u);
  EXPECT_EQ(reading.header["pose"]["position"]["y"], 2.0);
  EXPECT_TRUE(reading.data.empty());
  const SensorInput input = InputFromOdometry(1.25, odometry);
  EXPECT_EQ(input.pose.translation(), Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(input.linear_velocity, Eigen::Vector3d(4, 0, 0));
}

}  // namespace
}  // namespace asg::scene
