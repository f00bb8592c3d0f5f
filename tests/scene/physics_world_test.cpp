// Tests for scene/physics_world.h.
#include "scene/physics_world.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::AddActors;
using testing::kBush;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

protocol::RunScenarioRequest NoisyRequest() {
  auto request = ReferenceRequest(60.0, 6);
  request.scene_description.landscape.border = 4.0;
  protocol::ReliefFeature noise;
  noise.type = protocol::ReliefFeature::Type::kNoise;
  noise.amplitude = 3.0;
  noise.wavelength = 12.0;
  noise.octaves = 4;
  noise.seed = 11;
  request.scene_description.landscape.relief.push_back(noise);
  request.scene_description.landscape.relief.push_back(testing::Hill(30, 30, 10, 5));
  return request;
}

TEST(PhysicsWorldTest, DownwardRaysHitTheHeightfieldAtLandscapeHeightAt) {
  const World world = BuildWorld(NoisyRequest(), ShippedCatalog());
  const terrain::Landscape& landscape = *world.landscape;
  ASSERT_GT(landscape.max_height() - landscape.min_height(), 3.0);
  const TerrainCollision terrain(world.landscape);
  const PhysicsWorld physics(world, terrain);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> coordinate(landscape.min_xy() + 1e-3,
                                                    landscape.max_xy() - 1e-3);
  double worst = 0.0;
  for (int i = 0; i < 2000; ++i) {
    const double x = coordinate(random);
    const double y = coordinate(random);
    const double top = landscape.max_height() + 10.0;
    const RayHit hit = physics.Cast({x, y, top}, {0, 0, -1}, 100.0);
    ASSERT_TRUE(hit.hit) << x << ", " << y;
    EXPECT_FALSE(hit.obstacle);
    worst = std::max(worst, std::abs((top - hit.distance) - landscape.HeightAt(x, y)));
  }
  EXPECT_LT(worst, 1e-3);
}

TEST(PhysicsWorldTest, RaysReportNonTraversableActorsAsObstaclesOnly) {
  auto request = ReferenceRequest();
  AddActors(&request, kTree, {30.0}, {10.0});
  AddActors(&request, kBush, {30.0}, {20.0}, 0.2);  // traversable: transparent
  const World world = BuildWorld(request, ShippedCatalog());
  const TerrainCollision terrain(world.landscape);
  const PhysicsWorld physics(world, terrain);
  EXPECT_EQ(physics.collision_actor_count(), 1);
  const RayHit tree = physics.Cast({20.0, 10.0, 1.0}, {1, 0, 0}, 20.0);
  EXPECT_TRUE(tree.hit);
  EXPECT_TRUE(tree.obstacle);
  EXPECT_NEAR(tree.distance, 10.0 - 0.3, 0.05);  // trunk collision radius 0.3 m
  const RayHit bush = physics.Cast({20.0, 20.0, 0.1}, {1, 0, 0}, 20.0);
  EXPECT_FALSE(bush.hit);
  EXPECT_DOUBLE_EQ(bush.distance, 20.0);
}

}  // namespace
}  // namespace asg::scene
