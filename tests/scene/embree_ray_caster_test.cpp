// Tests for scene/embree_ray_caster.h.
#include "scene/embree_ray_caster.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "scene/physics_world.h"
#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::AddActors;
using testing::kBush;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

constexpr double kDegToRad = M_PI / 180.0;
const char* const kGrass = "/Game/Blueprints/BP_SSA_Grass_Tuft_Field_Desktop";

// A 60 m landscape with a 4 m hill at (30, 30), trees and bushes on and around it, and grass.
protocol::RunScenarioRequest HillRequest() {
  protocol::RunScenarioRequest request = ReferenceRequest(60.0, 6);
  request.scene_description.landscape.relief.push_back(testing::Hill(30, 30, 12, 4));
  AddActors(&request, kTree, {22, 26, 31, 20}, {18, 27, 22, 30});
  AddActors(&request, kBush, {24, 29, 18}, {22, 31, 24});
  AddActors(&request, kGrass, {21, 25}, {21, 19});
  return request;
}

// Unit direction at azimuth and elevation [deg] (azimuth CCW from +x, elevation up).
Eigen::Vector3d Direction(double azimuth, double elevation) {
  const double a = azimuth * kDegToRad, e = elevation * kDegToRad;
  return {std::cos(e) * std::cos(a), std::cos(e) * std::sin(a), std::sin(e)};
}

TEST(EmbreeRayCasterTest, FanAgreesWithBulletsRayCaster) {
  const World world = BuildWorld(HillRequest(), ShippedCatalog());
  const TerrainCollision terrain(world.landscape);
  const PhysicsWorld bullet(world, terrain);
  const EmbreeRayCaster embree(world);
  // The planner's fan from 2.3 m above (12, 12), looking towards the hill.
  const Eigen::Vector3d origin(12.0, 12.0, world.landscape->HeightAt(12.0, 12.0) + 2.3);
  std::vector<Eigen::Vector3d> directions;
  for (double elevation : {-2.0, -3.0, -7.0, -12.0}) {
    for (double azimuth = 0.0; azimuth <= 90.0; azimuth += 0.5) {
      directions.push_back(Direction(azimuth, elevation));
    }
  }
  std::vector<RayHit> hits(directions.size());
  embree.CastFan(origin, directions, 30.0, hits);
  int terrain_hits = 0, obstacle_hits = 0, obstacle_within_1cm = 0, disagreements = 0;
  for (size_t k = 0; k < directions.size(); ++k) {
    const RayHit expected = bullet.Cast(origin, directions[k], 30.0);
    // Bullet's ray-versus-convex cast stops up to 1 cm short of a convex surface (measured along
    // its normal, so more along an oblique ray), and a ray that grazes an actor's rim can hit in
    // Bullet and miss here: count those, compare the rest.
    if (expected.hit != hits[k].hit || expected.obstacle != hits[k].obstacle) {
      ++disagreements;
      continue;
    }
    if (!expected.hit) continue;
    const double difference = hits[k].distance - expected.distance;
    if (!expected.obstacle) {
      ++terrain_hits;
      EXPECT_NEAR(difference, 0.0, 0.002) << "terrain ray " << k;
      continue;
    }
    ++obstacle_hits;
    obstacle_within_1cm += std::abs(difference) <= 0.01 ? 1 : 0;
    EXPECT_GE(difference, -0.002) << "obstacle ray " << k << " hits before Bullet's";
    EXPECT_LE(difference, 0.03) << "obstacle ray " << k;
  }
  EXPECT_GT(terrain_hits, 400);
  EXPECT_GT(obstacle_hits, 20);
  EXPECT_GE(obstacle_within_1cm, 0.9 * obstacle_hits);
  EXPECT_LE(disagreements, 3);
}

TEST(EmbreeRayCasterTest, TrunkTenMetresAheadIsHitAtItsSurface) {
  protocol::RunScenarioRequest request = ReferenceRequest(60.0, 6);
  AddActors(&request, kTree, {30.0}, {20.0});  // collision cylinder of radius 0.3 m
  const World world = BuildWorld(request, ShippedCatalog());
  const EmbreeRayCaster embree(world);
  const RayHit hit = embree.Cast({20.0, 20.0, 1.0}, Eigen::Vector3d::UnitX(), 20.0);
  EXPECT_TRUE(hit.hit);
  EXPECT_TRUE(hit.obstacle);
  EXPECT_NEAR(hit.distance, 10.0 - 0.3, 0.002);
  // Looking down at 45 degrees from 2 m up on flat ground: terrain 2 sqrt(2) m away.
  const RayHit ground = embree.Cast({20.0, 20.0, 2.0}, Direction(-90.0, -45.0), 20.0);
  EXPECT_TRUE(ground.hit);
  EXPECT_FALSE(ground.obstacle);
  EXPECT_NEAR(ground.distance, 2.0 * std::sqrt(2.0), 1e-4);
}

TEST(EmbreeRayCasterTest, TraversableActorsAreTransparent) {
  protocol::RunScenarioRequest request = ReferenceRequest(60.0, 6);
  AddActors(&request, kGrass, {25.0}, {20.0});      // always traversable
  AddActors(&request, kBush, {30.0}, {20.0}, 0.2);  // 0.18 m tall: traversable
  const World world = BuildWorld(request, ShippedCatalog());
  const EmbreeRayCaster embree(world);
  const RayHit hit = embree.Cast({20.0, 20.0, 0.1}, Eigen::Vector3d::UnitX(), 20.0);
  EXPECT_FALSE(hit.hit);
  EXPECT_EQ(hit.distance, 20.0);
}

TEST(EmbreeRayCasterTest, BuildsItsSceneAtTheFirstCast) {
  const World world = BuildWorld(HillRequest(), ShippedCatalog());
  const EmbreeRayCaster embree(world);
  EXPECT_FALSE(embree.built());
  embree.Cast({12.0, 12.0, 3.0}, Eigen::Vector3d::UnitX(), 20.0);
  EXPECT_TRUE(embree.built());
}

TEST(EmbreeRayCasterTest, FanGivesWhatSingleCastsGive) {
  const World world = BuildWorld(HillRequest(), ShippedCatalog());
  const EmbreeRayCaster embree(world);
  const Eigen::Vector3d origin(12.0, 12.0, world.landscape->HeightAt(12.0, 12.0) + 2.3);
  std::vector<Eigen::Vector3d> directions;
  for (double azimuth = 0.0; azimuth <= 90.0; azimuth += 3.0) {
    directions.push_back(Direction(azimuth, -3.0));
  }
  std::vector<RayHit> hits(directions.size());
  embree.CastFan(origin, directions, 30.0, hits);
  int obstacles = 0;
  for (size_t k = 0; k < directions.size(); ++k) {
    const RayHit single = embree.Cast(origin, directions[k], 30.0);
    EXPECT_EQ(hits[k].hit, single.hit) << "ray " << k;
    EXPECT_EQ(hits[k].obstacle, single.obstacle) << "ray " << k;
    EXPECT_NEAR(hits[k].distance, single.distance, 1e-4) << "ray " << k;
    obstacles += single.obstacle ? 1 : 0;
  }
  EXPECT_GT(obstacles, 0);
}

}  // namespace
}  // namespace asg::scene
