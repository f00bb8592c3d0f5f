// Tests for scene/sensor_lidar.h and scene/embree_scene.h.
#include "scene/sensor_lidar.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::AddActors;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

SensorInput VehicleAt(double x, double y) {
  SensorInput input;
  input.pose = Eigen::Isometry3d::Identity();
  input.pose.translate(Eigen::Vector3d(x, y, 0.0));
  return input;
}

std::vector<Eigen::Vector3f> Points(const SensorReading& reading) {
  std::vector<Eigen::Vector3f> points(reading.header["count"].get<size_t>());
  EXPECT_EQ(reading.data.size(), points.size() * 12);
  for (size_t k = 0; k < points.size(); ++k) {
    std::memcpy(points[k].data(), reading.data.data() + 12 * k, 12);
  }
  return points;
}

TEST(Lidar, TreeTrunkStraightAheadIsAtItsSurfaceDistance) {
  auto request = ReferenceRequest();
  AddActors(&request, kTree, {20.0}, {10.0});
  const World world = BuildWorld(request, ShippedCatalog());
  const EmbreeScene scene(world);
  protocol::LidarSpec spec;
  spec.name = "low";
  spec.mount.offset = {0.0, 0.0, 0.3};  // below the canopy, which starts 0.6 m up
  spec.horizontal_resolution = 360;
  spec.vertical_angles = {0.0};
  const SensorReading reading = LidarSensor(spec, scene).Sample(VehicleAt(10.0, 10.0));
  const auto points = Points(reading);
  // Horizontal rays over flat ground hit only the trunk: radius 0.18 m, 10 m ahead.
  ASSERT_FALSE(points.empty());
  for (const auto& p : points) {
    EXPECT_GT(p.x(), 9.0f);
    EXPECT_NEAR(p.z(), 0.0f, 1e-4);
  }
  // The azimuth-0 ray is the first point and meets the trunk prism's vertex facing the sensor.
  EXPECT_NEAR(points[0].x(), 10.0 - 0.18, 0.02);
  EXPECT_NEAR(points[0].y(), 0.0, 1e-4);
  EXPECT_EQ(reading.header["encoding"], "xyz32f");
  EXPECT_EQ(reading.header["frame_id"], "low");

  // The same sweep with a 5 m range sees nothing.
  spec.range = 5.0;
  EXPECT_EQ(LidarSensor(spec, scene).Sample(VehicleAt(10.0, 10.0)).header["count"], 0);
}

TEST(Lidar, DownwardBeamOnFlatGroundMatchesGeometry) {
  const World world = BuildWorld(ReferenceRequest(), ShippedCatalog());
  const EmbreeScene scene(world);
  protocol::LidarSpec spec;
  spec.name = "roof";  // default mount 1.8 m up
  spec.horizontal_resolution = 36;
  spec.vertical_angles = {-10.0, 5.0};
  const auto points = Points(LidarSensor(spec, scene).Sample(VehicleAt(30.0, 30.0)));
  // Upward beams hit nothing; each downward beam hits the ground at 1.8 / sin(10 deg).
  ASSERT_EQ(points.size(), 36u);
  const double expected = 1.8 / std::sin(10.0 * std::numbers::pi / 180.0);
  for (const auto& p : points) {
    EXPECT_NEAR(p.norm(), expected, 0.02);
    EXPECT_NEAR(p.z(), -1.8, 0.01);
  }
}

TEST(Lidar, RepeatedSweepsGiveIdenticalBytes) {
  auto request = ReferenceRequest();
  AddActors(&request, kTree, {20.0, 25.0, 40.0}, {10.0, 30.0, 20.0});
  const World world = BuildWorld(request, ShippedCatalog());
  const EmbreeScene scene(world);
  protocol::LidarSpec spec;
  spec.name = "roof";
  const LidarSensor lidar(spec, scene);
  const SensorReading first = lidar.Sample(VehicleAt(12.0, 14.0));
  EXPECT_GT(first.header["count"].get<int>(), 360);
  EXPECT_EQ(lidar.Sample(VehicleAt(12.0, 14.0)).data, first.data);
  EXPECT_EQ(LidarSensor(spec, EmbreeScene(world)).Sample(VehicleAt(12.0, 14.0)).data, first.data);
}

TEST(EmbreeScene, RayQueryNamesTheActorOrTheTerrain) {
  auto request = ReferenceRequest();
  AddActors(&request, kTree, {20.0, 40.0}, {10.0, 10.0});
  const World world = BuildWorld(request, ShippedCatalog());
  const EmbreeScene scene(world);
  const SceneHit trunk = scene.Cast({30.0, 10.0, 0.3}, {1.0, 0.0, 0.0}, 50.0);
  EXPECT_EQ(trunk.actor, 1);
  EXPECT_NEAR(trunk.distance, 10.0 - 0.18, 0.02);
  const SceneHit ground = scene.Cast({30.0, 30.0, 2.0}, {0.0, 0.0, -1.0}, 50.0);
  EXPECT_EQ(ground.actor, SceneHit::kTerrain);
  EXPECT_NEAR(ground.distance, 2.0, 1e-4);
  const SceneHit sky = scene.Cast({30.0, 30.0, 2.0}, {0.0, 0.0, 1.0}, 50.0);
  EXPECT_FALSE(sky.Hit());
  EXPECT_DOUBLE_EQ(sky.distance, 50.0);
  // Packets and single rays agree.
  std::vector<SceneRay> rays;
  for (int k = 0; k < 37; ++k) {
    const double a = 2.0 * std::numbers::pi * k / 37;
    rays.push_back({{15.0f, 12.0f, 1.0f},
                    Eigen::Vector3f(std::cos(a), std::sin(a), -0.1f).normalized(),
                    40.0f});
  }
  std::vector<SceneHit> batch(rays.size()), each(rays.size());
  scene.CastBatch(rays, batch);
  scene.CastEach(rays, each);
  for (size_t k = 0; k < rays.size(); ++k) {
    EXPECT_EQ(batch[k].actor, each[k].actor);
    EXPECT_FLOAT_EQ(batch[k].distance, each[k].distance);
  }
}

}  // namespace
}  // namespace asg::scene
