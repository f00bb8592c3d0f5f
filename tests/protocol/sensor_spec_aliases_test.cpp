// Tests for protocol/sensor_spec_aliases.h.
#include "protocol/sensor_spec_aliases.h"

#include <gtest/gtest.h>

#include <numbers>

#include "protocol/messages_json.h"

namespace asg::protocol {
namespace {

constexpr double kPi = std::numbers::pi;

/// The one sensor of a sensors list given as JSON.
SensorSpec Sensor(const Json& sensor) {
  return DecodeMessage<VehicleNodesSpec>(Json{{"sensors", Json::array({sensor})}}).sensors.at(0);
}

/// "path | message" of the DecodeError for one sensor, or "no error".
std::string Refusal(const Json& sensor) {
  try {
    Sensor(sensor);
  } catch (const DecodeError& error) {
    return error.path() + " | " + error.what();
  }
  return "no error";
}

TEST(SensorSpecAliases, AScenarioSimulatorLidarIsConvertedExactly) {
  // LidarConfiguration as scenario_simulator_v2 gives it: 0.1 deg between rays, 10 Hz.
  const Json lidar = {{"type", "lidar"},
                      {"name", "top"},
                      {"units", "scenario_simulator_v2"},
                      {"horizontal_resolution", 2 * kPi / 3600},
                      {"vertical_angles", {-kPi / 12, 0.0, kPi / 18}},
                      {"scan_duration", 0.1}};
  const LidarSpec spec = Sensor(lidar).lidar;
  EXPECT_EQ(spec.horizontal_resolution, 3600u);
  ASSERT_EQ(spec.vertical_angles.size(), 3u);
  EXPECT_DOUBLE_EQ(spec.vertical_angles[0], -15.0);
  EXPECT_DOUBLE_EQ(spec.vertical_angles[1], 0.0);
  EXPECT_DOUBLE_EQ(spec.vertical_angles[2], 10.0);
  EXPECT_DOUBLE_EQ(spec.rate, 10.0);
  // Written back in the farm's names and units only.
  const Json written = Sensor(lidar);
  EXPECT_EQ(written["horizontal_resolution"], 3600);
  EXPECT_FALSE(written.contains("scan_duration"));
  EXPECT_FALSE(written.contains("units"));
}

TEST(SensorSpecAliases, DurationsSeedsAndNoisesAreTheFarmsFields) {
  const OccupancyGridSpec grid =
      Sensor({{"type", "occupancy_grid"}, {"name", "g"}, {"update_duration", 0.25}}).occupancy_grid;
  EXPECT_DOUBLE_EQ(grid.rate, 4.0);
  const DetectionSpec detection = Sensor({{"type", "detection"},
                                          {"name", "d"},
                                          {"update_duration", 0.2},
                                          {"rate", 5},
                                          {"random_seed", 42}})
                                      .detection;
  EXPECT_DOUBLE_EQ(detection.rate, 5.0);
  EXPECT_EQ(detection.seed, 42u);
  const ImuSpec imu = Sensor({{"type", "imu"},
                              {"name", "i"},
                              {"noise_standard_deviation_orientation", 0.01},
                              {"noise_standard_deviation_twist", 0.02},
                              {"noise_standard_deviation_acceleration", 0.03},
                              {"use_seed", true},
                              {"seed", 7}})
                          .imu;
  EXPECT_DOUBLE_EQ(imu.orientation_noise, 0.01);
  EXPECT_DOUBLE_EQ(imu.angular_velocity_noise, 0.02);
  EXPECT_DOUBLE_EQ(imu.linear_acceleration_noise, 0.03);
  EXPECT_EQ(imu.seed, 7u);
  EXPECT_EQ(Sensor({{"type", "imu"}, {"name", "i"}, {"use_seed", false}}).imu.seed, 0u);
}

TEST(SensorSpecAliases, BothFormsDisagreeingNameThePath) {
  EXPECT_EQ(Refusal({{"type", "lidar"}, {"name", "l"}, {"rate", 10}, {"scan_duration", 0.2}}),
            "sensors[0].scan_duration | sensors[0].scan_duration: 0.2 (rate 5) disagrees with "
            "rate = 10; give one of them");
  EXPECT_EQ(Refusal({{"type", "detection"}, {"name", "d"}, {"seed", 1}, {"random_seed", 2}}),
            "sensors[0].random_seed | sensors[0].random_seed: 2 disagrees with seed = 1; give one "
            "of them");
  EXPECT_EQ(Refusal({{"type", "imu"},
                     {"name", "i"},
                     {"orientation_noise", 0.1},
                     {"noise_standard_deviation_orientation", 0.2}})
                .substr(0, 50),
            "sensors[0].noise_standard_deviation_orientation | ");
  EXPECT_EQ(
      Refusal({{"type", "imu"}, {"name", "i"}, {"use_seed", false}, {"seed", 3}}).substr(0, 22),
      "sensors[0].use_seed | ");
  // 1 rad between rays is not a whole number of rays per revolution.
  EXPECT_EQ(Refusal({{"type", "lidar"},
                     {"name", "l"},
                     {"units", "scenario_simulator_v2"},
                     {"horizontal_resolution", 1.0}}),
            "sensors[0].horizontal_resolution | sensors[0].horizontal_resolution: 1 rad gives "
            "6.283185307179586 rays per revolution, not a whole number");
  EXPECT_EQ(Refusal({{"type", "lidar"}, {"name", "l"}, {"units", "rad"}}).substr(0, 19),
            "sensors[0].units | ");
  // Without the units, horizontal_resolution is the farm's count of rays.
  EXPECT_EQ(
      Refusal({{"type", "lidar"}, {"name", "l"}, {"horizontal_resolution", 0.01}}).substr(0, 35),
      "sensors[0].horizontal_resolution | ");
}

}  // namespace
}  // namespace asg::protocol
