// Tests for worker/serve/sensor_readings.h: each sensor's latest reading kept, handed out as one
// attachment; the sensors of a loaded request sampled at the run's control ticks.
#include "worker/serve/sensor_readings.h"

#include <gtest/gtest.h>

#include "tests/scene/scene_test_util.h"
#include "tests/worker/small_request.h"

namespace asg::worker::serve {
namespace {

/// A tick's data with one reading per (name, encoding, bytes).
StepSensorData Tick(const std::vector<std::tuple<std::string, std::string, std::string>>& items) {
  StepSensorData data;
  for (const auto& [name, encoding, bytes] : items) {
    AppendReading({{"name", name}, {"encoding", encoding}}, bytes, &data);
  }
  return data;
}

/// The bytes of reading `i` of `data`.
std::string Bytes(const StepSensorData& data, size_t i) {
  return data.attachment.substr(data.readings[i].at("offset").get<size_t>(),
                                data.readings[i].at("size").get<size_t>());
}

TEST(SensorReadingsTest, NothingBeforeAReading) {
  SensorReadings readings;
  EXPECT_EQ(readings.Latest(), nullptr);
  readings.Keep(StepSensorData{});
  EXPECT_EQ(readings.Latest(), nullptr);
}

TEST(SensorReadingsTest, EachSensorKeepsItsLatestReading) {
  SensorReadings readings;
  readings.Keep(Tick({{"front", "rgb8", "AAAA"}, {"front", "32FC1", "dddd"}}));
  readings.Keep(Tick({{"imu", "", "ii"}}));
  readings.Keep(Tick({{"front", "rgb8", "BBBBBB"}}));  // a newer image of the same camera
  const StepSensorData* latest = readings.Latest();
  ASSERT_NE(latest, nullptr);
  ASSERT_EQ(latest->readings.size(), 3u);
  // Ordered by sensor and encoding; offsets index the one attachment.
  EXPECT_EQ(latest->readings[0]["encoding"], "32FC1");
  EXPECT_EQ(Bytes(*latest, 0), "dddd");
  EXPECT_EQ(latest->readings[1]["encoding"], "rgb8");
  EXPECT_EQ(Bytes(*latest, 1), "BBBBBB");
  EXPECT_EQ(latest->readings[2]["name"], "imu");
  EXPECT_EQ(Bytes(*latest, 2), "ii");
  EXPECT_EQ(latest->attachment.size(), 12u);
}

TEST(SensorReadingsTest, AReadingWithoutEncodingIsKeyedByItsType) {
  SensorReadings readings;
  StepSensorData data;
  AppendReading({{"name", "s"}, {"type", "imu"}}, "1", &data);
  AppendReading({{"name", "s"}, {"type", "lidar"}}, "2", &data);
  readings.Keep(data);
  ASSERT_EQ(readings.Latest()->readings.size(), 2u);
}

TEST(SensorReadingsTest, TheLoadedRequestsSensorsAreSampledAtItsTicks) {
  protocol::RunScenarioRequest request = testing::SmallRequest();
  protocol::SensorSpec imu;
  imu.type = protocol::SensorSpec::Type::kImu;
  imu.imu.name = "imu";
  request.vehicle_nodes.sensors.push_back(imu);
  scene::LiveRun live(scene::testing::ShippedCatalog());
  live.Load(request);
  SensorReadings readings;
  EXPECT_EQ(readings.Start(live), "");
  EXPECT_EQ(readings.Latest(), nullptr);  // no tick yet
  for (int i = 0; i < 20; ++i) live.Step();
  const StepSensorData* latest = readings.Latest();
  ASSERT_NE(latest, nullptr);
  ASSERT_EQ(latest->readings.size(), 1u);
  EXPECT_EQ(latest->readings[0]["name"], "imu");
  EXPECT_EQ(latest->readings[0]["type"], "imu");
  EXPECT_TRUE(latest->readings[0].contains("linear_acceleration")) << latest->readings[0].dump();

  // A request without sensors: nothing is sampled any more, the old readings are gone.
  live.Load(testing::SmallRequest());
  EXPECT_EQ(readings.Start(live), "");
  for (int i = 0; i < 20; ++i) live.Step();
  EXPECT_EQ(readings.Latest(), nullptr);
}

}  // namespace
}  // namespace asg::worker::serve
