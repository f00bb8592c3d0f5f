// Tests for scene/sensor_imu.h and scene/sensor_noise.h.
#include "scene/sensor_imu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace asg::scene {
namespace {

struct Stats {
  double mean = 0.0;
  double stddev = 0.0;
};

Stats Of(const std::vector<double>& values) {
  Stats s;
  for (double v : values) s.mean += v;
  s.mean /= values.size();
  for (double v : values) s.stddev += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(s.stddev / (values.size() - 1));
  return s;
}

protocol::ImuSpec NoisySpec() {
  protocol::ImuSpec spec;
  spec.name = "imu";
  spec.orientation_noise = 0.01;
  spec.angular_velocity_noise = 0.02;
  spec.linear_acceleration_noise = 0.05;
  return spec;
}

// 5000 samples at 60 Hz of a vehicle at rest.
std::vector<SensorReading> AtRest(const protocol::ImuSpec& spec, uint64_t seed, int count = 5000) {
  ImuSensor imu(spec, seed);
  std::vector<SensorReading> readings;
  SensorInput input;
  for (int k = 0; k < count; ++k) {
    input.time = k / 60.0;
    readings.push_back(imu.Sample(input));
  }
  return readings;
}

TEST(Imu, NoiseAtRestHasTheConfiguredStandardDeviation) {
  const protocol::ImuSpec spec = NoisySpec();
  const auto readings = AtRest(spec, 42);
  for (const char* axis : {"x", "y", "z"}) {
    std::vector<double> angular, linear;
    for (const auto& r : readings) {
      angular.push_back(r.header["angular_velocity"][axis]);
      linear.push_back(r.header["linear_acceleration"][axis]);
    }
    EXPECT_NEAR(Of(angular).stddev, spec.angular_velocity_noise,
                0.05 * spec.angular_velocity_noise);
    EXPECT_NEAR(Of(linear).stddev, spec.linear_acceleration_noise,
                0.05 * spec.linear_acceleration_noise);
    EXPECT_NEAR(Of(angular).mean, 0.0, 0.002);
  }
  std::vector<double> acceleration_z;
  std::vector<std::vector<double>> euler(3);
  for (const auto& r : readings) {
    acceleration_z.push_back(r.header["linear_acceleration"]["z"]);
    const auto& q = r.header["orientation"];
    const Eigen::Quaterniond orientation(q["w"], q["x"], q["y"], q["z"]);
    const Eigen::Vector3d zyx = orientation.toRotationMatrix().eulerAngles(2, 1, 0);
    for (int i = 0; i < 3; ++i) euler[i].push_back(std::remainder(zyx[i], M_PI));
  }
  // Specific force of gravity: +9.81 up at rest.
  EXPECT_NEAR(Of(acceleration_z).mean, 9.81, 0.005);
  for (const auto& angle : euler) {
    EXPECT_NEAR(Of(angle).stddev, spec.orientation_noise, 0.05 * spec.orientation_noise);
  }
}

TEST(Imu, SameSeedRepeatsDifferentSeedDiffers) {
  const auto a = AtRest(NoisySpec(), 7, 50);
  const auto b = AtRest(NoisySpec(), 7, 50);
  const auto c = AtRest(NoisySpec(), 8, 50);
  for (size_t k = 0; k < a.size(); ++k) EXPECT_EQ(a[k].header, b[k].header);
  EXPECT_NE(a[10].header["angular_velocity"], c[10].header["angular_velocity"]);
  EXPECT_NE(SensorSeed(1, 0, "imu"), SensorSeed(1, 0, "imu2"));
  EXPECT_NE(SensorSeed(1, 0, "imu"), SensorSeed(2, 0, "imu"));
  EXPECT_NE(SensorSeed(1, 0, "imu"), SensorSeed(1, 1, "imu"));
}

TEST(Imu, AccelerationIsTheBodyFrameDifferenceOfVelocity) {
  protocol::ImuSpec spec;
  spec.name = "imu";
  spec.add_gravity = false;
  ImuSensor imu(spec, 0);
  // Heading west (yaw 90 deg), speeding up along the body x axis at 2 m/s^2 while turning.
  SensorInput input;
  input.pose = Eigen::Isometry3d(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()));
  input.angular_velocity = {0.0, 0.0, 0.3};
  SensorReading reading;
  for (int k = 0; k < 3; ++k) {
    input.time = 0.1 * k;
    input.linear_velocity = {2.0 * input.time, 0.0, 0.0};
    reading = imu.Sample(input);
  }
  EXPECT_NEAR(reading.header["linear_acceleration"]["x"].get<double>(), 2.0, 1e-9);
  EXPECT_NEAR(reading.header["linear_acceleration"]["y"].get<double>(), 0.0, 1e-9);
  EXPECT_NEAR(reading.header["linear_acceleration"]["z"].get<double>(), 0.0, 1e-9);
  EXPECT_DOUBLE_EQ(reading.header["angular_velocity"]["z"].get<double>(), 0.3);
  EXPECT_NEAR(reading.header["orientation"]["z"].get<double>(), std::sqrt(0.5), 1e-12);
  EXPECT_EQ(reading.header["type"], "imu");
}

}  // namespace
}  // namespace asg::scene
