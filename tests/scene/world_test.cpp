// Tests for scene/world.h.
#include "scene/world.h"

#include <gtest/gtest.h>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::AddActors;
using testing::kBush;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

std::string BuildError(const protocol::RunScenarioRequest& request) {
  try {
    BuildWorld(request, ShippedCatalog());
  } catch (const SceneError& error) {
    return error.what();
  }
  return "no error";
}

TEST(WorldTest, PlacesActorsOnTheGroundAndTiltsOnlyNonUprightKinds) {
  auto request = ReferenceRequest();
  request.scene_description.landscape.relief.push_back(testing::Hill(30, 30, 15, 5));
  AddActors(&request, kTree, {25.0}, {30.0});
  AddActors(&request, kBush, {25.0, 40.0}, {30.0, 40.0}, 0.2);
  request.scene_description.ssa_array[1].yaw = {90.0, 0.0};
  request.scene_description.ssa_array[1].visible = {true, false};
  request.scene_description.sunlight_inclination = 40.0;
  const World world = BuildWorld(request, ShippedCatalog());
  ASSERT_EQ(world.actors.size(), 2u);  // the invisible bush is absent
  const ActorInstance& tree = world.actors[0];
  const ActorInstance& bush = world.actors[1];
  EXPECT_DOUBLE_EQ(tree.position.z(), world.landscape->HeightAt(25.0, 30.0));
  EXPECT_GT(tree.position.z(), 1.0);
  EXPECT_FALSE(tree.traversable);
  EXPECT_NEAR((tree.orientation * Eigen::Vector3d::UnitZ() - Eigen::Vector3d::UnitZ()).norm(), 0,
              1e-12);
  EXPECT_EQ(bush.ssa_index, 1);
  EXPECT_EQ(bush.instance_index, 0);
  EXPECT_TRUE(bush.traversable);
  EXPECT_NEAR(bush.Height(), 0.18, 1e-12);
  const Eigen::Vector3d normal = world.landscape->NormalAt(25.0, 30.0);
  EXPECT_NEAR((bush.orientation * Eigen::Vector3d::UnitZ() - normal).norm(), 0.0, 1e-9);
  EXPECT_GT(normal.z(), 0.0);
  EXPECT_LT(normal.z(), 0.95);  // a real tilt
  EXPECT_DOUBLE_EQ(world.sun_inclination, 40.0);
  EXPECT_DOUBLE_EQ(world.start.z(), world.landscape->HeightAt(10.0, 10.0));
  EXPECT_DOUBLE_EQ(world.goal_radius, 5.0);
}

TEST(WorldTest, ReusesACachedLandscapeOnlyWhenTheDescriptionMatches) {
  auto request = ReferenceRequest();
  const World first = BuildWorld(request, ShippedCatalog());
  const World second = BuildWorld(request, ShippedCatalog(), first.landscape);
  EXPECT_EQ(second.landscape.get(), first.landscape.get());
  request.scene_description.landscape.border = 2.0;
  const World third = BuildWorld(request, ShippedCatalog(), first.landscape);
  EXPECT_NE(third.landscape.get(), first.landscape.get());
  EXPECT_LT(third.landscape->min_xy(), 0.0);
}

TEST(WorldTest, UnknownPathNameNamesTheLayout) {
  auto request = ReferenceRequest();
  AddActors(&request, kTree, {20.0}, {20.0});
  AddActors(&request, "/Game/Foo", {20.0}, {20.0});
  EXPECT_EQ(BuildError(request),
            "ssa_array[1] \"/Game/Foo\": path_name is not in the actor catalog");
}

TEST(WorldTest, ActorOffTheLandscapeNamesTheInstanceAndValue) {
  auto request = ReferenceRequest();
  AddActors(&request, kBush, {20.0, 20.0, 30.0, 75.0}, {20.0, 25.0, 30.0, 30.0});
  EXPECT_EQ(BuildError(request), "ssa_array[0] \"" + std::string(kBush) +
                                     "\" instance 3: x = 75 is outside the landscape [0, 60]");
}

TEST(WorldTest, NonPositiveScaleNamesTheInstanceAndValue) {
  auto request = ReferenceRequest();
  AddActors(&request, "tree", {20.0, 30.0}, {20.0, 30.0});
  request.scene_description.ssa_array[0].scale[1] = 0.0;
  EXPECT_EQ(BuildError(request),
            "ssa_array[0] \"tree\" instance 1: scale = 0 must be finite and > 0");
  request.scene_description.ssa_array[0].scale[1] = std::nan("");
  EXPECT_EQ(BuildError(request),
            "ssa_array[0] \"tree\" instance 1: scale = nan must be finite and > 0");
}

TEST(WorldTest, ArrayLengthMismatchAndBadStartAreErrors) {
  auto request = ReferenceRequest();
  AddActors(&request, "tree", {20.0, 30.0}, {20.0, 30.0});
  request.scene_description.ssa_array[0].yaw.pop_back();
  EXPECT_EQ(BuildError(request), "ssa_array[0] \"tree\": yaw has 1 values but num_instances is 2");
  request = ReferenceRequest();
  request.vehicle_start_location.y = -3.0;
  EXPECT_EQ(BuildError(request), "vehicle_start_location: y = -3 is outside the landscape [0, 60]");
}

}  // namespace
}  // namespace asg::scene
