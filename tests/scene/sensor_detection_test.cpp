// Tests for scene/sensor_detection.h.
#include "scene/sensor_detection.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::AddActors;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

SensorInput VehicleAt(double time, double x, double y) {
  SensorInput input;
  input.time = time;
  input.pose = Eigen::Isometry3d::Identity();
  input.pose.translate(Eigen::Vector3d(x, y, 0.0));
  return input;
}

protocol::DetectionSpec Spec() {
  protocol::DetectionSpec spec;
  spec.name = "objects";
  spec.range = 30.0;
  return spec;
}

World ThreeTrees() {
  auto request = ReferenceRequest();
  AddActors(&request, kTree, {20.0, 35.0, 50.0}, {10.0, 10.0, 10.0});  // 10, 25, 40 m away
  AddActors(&request, testing::kBush, {12.0}, {12.0}, 0.2);            // traversable
  return BuildWorld(request, ShippedCatalog());
}

TEST(Detection, ReportsTheObstaclesWithinRange) {
  const World world = ThreeTrees();
  DetectionSensor sensor(Spec(), world, 1);
  const auto reading = sensor.Sample(VehicleAt(0.0, 10.0, 10.0));
  const auto& detections = reading.header["detections"];
  ASSERT_EQ(detections.size(), 2u);
  EXPECT_EQ(detections[0]["instance"], 0);
  EXPECT_EQ(detections[1]["instance"], 1);
  EXPECT_EQ(detections[1]["ssa_index"], 0);
  EXPECT_EQ(detections[0]["name"], kTree);
  EXPECT_DOUBLE_EQ(detections[1]["distance"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(detections[1]["relative_position"]["x"].get<double>(), 25.0);
}

TEST(Detection, ProbabilityOfLostOneReportsNothing) {
  const World world = ThreeTrees();
  auto spec = Spec();
  spec.probability_of_lost = 1.0;
  DetectionSensor sensor(spec, world, 1);
  for (int k = 0; k < 20; ++k) {
    EXPECT_TRUE(sensor.Sample(VehicleAt(0.1 * k, 10.0, 10.0)).header["detections"].empty());
  }
}

TEST(Detection, DelayedStateAppearsDelayAfterEnteringRange) {
  const World world = ThreeTrees();
  auto spec = Spec();
  spec.range = 5.0;
  spec.object_recognition_delay = 0.5;
  DetectionSensor delayed(spec, world, 1);
  spec.object_recognition_delay = 0.0;
  DetectionSensor prompt(spec, world, 1);
  // Driving at 5 m/s towards the tree at x = 20: within 5 m from t = 0.998 s.
  double first_prompt = -1.0, first_delayed = -1.0;
  for (int k = 0; k <= 30; ++k) {
    const double t = k / 10.0;
    const SensorInput input = VehicleAt(t, 10.01 + 5.0 * t, 10.0);
    if (!prompt.Sample(input).header["detections"].empty() && first_prompt < 0) first_prompt = t;
    if (!delayed.Sample(input).header["detections"].empty() && first_delayed < 0) first_delayed = t;
  }
  EXPECT_DOUBLE_EQ(first_prompt, 1.0);
  EXPECT_DOUBLE_EQ(first_delayed, 1.5);
}

TEST(Detection, PositionNoiseHasTheConfiguredStandardDeviation) {
  const World world = ThreeTrees();
  auto spec = Spec();
  spec.range = 15.0;
  spec.pos_noise_stddev = 0.2;
  DetectionSensor sensor(spec, world, 3);
  double sum = 0.0, sum_sq = 0.0;
  const int n = 5000;
  for (int k = 0; k < n; ++k) {
    const auto reading = sensor.Sample(VehicleAt(0.1 * k, 10.0, 10.0));
    const double error = reading.header["detections"][0]["position"]["y"].get<double>() - 10.0;
    sum += error;
    sum_sq += error * error;
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 0.0, 0.01);
  EXPECT_NEAR(std::sqrt(sum_sq / n - mean * mean), 0.2, 0.01);
}

}  // namespace
}  // namespace asg::scene
