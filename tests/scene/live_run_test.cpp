// Tests for scene/live_run.h: a scenario stepped by hand, its entities, edits and resets.
#include "scene/live_run.h"

#include <gtest/gtest.h>

#include "protocol/messages_json.h"
#include "scene/scenario_runner.h"
#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::AddActors;
using testing::kBush;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;

/// The reference workload with two trees and a bush, driven by the planner.
protocol::RunScenarioRequest ForestRequest() {
  protocol::RunScenarioRequest request = ReferenceRequest();
  AddActors(&request, kTree, {30.0, 22.0}, {30.0, 40.0});
  AddActors(&request, kBush, {40.0}, {20.0});
  request.driver.type = protocol::DriverSpec::Type::kPlanner;
  return request;
}

TEST(LiveRunTest, SteppedToTheEndGivesTheRunnersResultBitForBit) {
  for (const auto type :
       {protocol::DriverSpec::Type::kStraight, protocol::DriverSpec::Type::kPlanner}) {
    protocol::RunScenarioRequest request = ForestRequest();
    request.driver.type = type;
    ScenarioRunner runner(ShippedCatalog());
    runner.Build(request);
    const RunResult farm = runner.Run();

    LiveRun live(ShippedCatalog());
    live.Load(request);
    long steps = 0;
    while (!live.Step()) ++steps;
    ASSERT_TRUE(live.ended());
    const auto* result = std::get_if<RunResult>(&*live.outcome());
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(json::Json(result->analysis).dump(), json::Json(farm.analysis).dump());
    EXPECT_EQ(steps, static_cast<long>(farm.analysis.counters.physics_steps));
  }
}

TEST(LiveRunTest, NamesAndDescribesEveryEntity) {
  LiveRun live(ShippedCatalog());
  live.Load(ForestRequest());
  const std::vector<std::string> names = live.EntityNames();
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0], "vehicle");
  const std::optional<EntityInfo> tree = live.Info(names[1]);
  ASSERT_TRUE(tree.has_value());
  EXPECT_EQ(names[1].substr(names[1].size() - 4), "_0_0");
  EXPECT_EQ(names[3].substr(names[3].size() - 4), "_1_0");
  EXPECT_EQ(tree->category, EntityCategory::kStaticObject);
  EXPECT_NE(std::find(tree->tags.begin(), tree->tags.end(), "scenario"), tree->tags.end());
  EXPECT_NE(std::find(tree->tags.begin(), tree->tags.end(), "obstacle"), tree->tags.end());
  EXPECT_TRUE(tree->bounds.contains(Eigen::Vector3d(30.0, 30.0, tree->bounds.min().z() + 0.5)));
  const std::optional<EntityInfo> vehicle = live.Info("vehicle");
  ASSERT_TRUE(vehicle.has_value());
  EXPECT_EQ(vehicle->category, EntityCategory::kRobot);
  EXPECT_TRUE(vehicle->bounds.contains(live.Kinematics("vehicle")->position));
  EXPECT_FALSE(live.Info("nothing").has_value());
  EXPECT_FALSE(live.Kinematics("nothing").has_value());
}

TEST(LiveRunTest, SetStateTeleportsTheVehicleAndMovesActorsOnTheGround) {
  LiveRun live(ShippedCatalog());
  live.Load(ForestRequest());
  EntityStateChange change;
  change.position = Eigen::Vector3d(20.0, 15.0, 3.0);
  change.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()));
  change.linear_velocity = Eigen::Vector3d(1.0, 2.0, 0.0);
  EXPECT_EQ(live.SetState("vehicle", change).status, EntityStatus::kOk);
  const EntityKinematics vehicle = *live.Kinematics("vehicle");
  EXPECT_NEAR((vehicle.position - *change.position).norm(), 0.0, 1e-5);
  EXPECT_NEAR(vehicle.orientation.angularDistance(*change.orientation), 0.0, 1e-5);
  EXPECT_NEAR((vehicle.linear_velocity - *change.linear_velocity).norm(), 0.0, 1e-5);

  const std::string tree = live.EntityNames()[1];
  EntityStateChange move;
  move.position = Eigen::Vector3d(12.0, 44.0, 99.0);
  EXPECT_EQ(live.SetState(tree, move).status, EntityStatus::kOk);
  const EntityKinematics moved = *live.Kinematics(tree);
  EXPECT_DOUBLE_EQ(moved.position.x(), 12.0);
  EXPECT_DOUBLE_EQ(moved.position.z(), live.world().landscape->HeightAt(12.0, 44.0));
  EntityStateChange push;
  push.linear_velocity = Eigen::Vector3d(1.0, 0.0, 0.0);
  EXPECT_EQ(live.SetState(tree, push).status, EntityStatus::kOperationFailed);
  EntityStateChange off;
  off.position = Eigen::Vector3d(500.0, 0.0, 0.0);
  EXPECT_EQ(live.SetState(tree, off).status, EntityStatus::kInvalidPose);
  off.position = Eigen::Vector3d(std::nan(""), 0.0, 0.0);
  EXPECT_EQ(live.SetState("vehicle", off).status, EntityStatus::kInvalidPose);
  EXPECT_EQ(live.SetState("nothing", move).status, EntityStatus::kNotFound);

  live.ResetState();
  EXPECT_NEAR(live.Kinematics(tree)->position.x(), 30.0, 1e-9);
  EXPECT_NEAR(live.Kinematics("vehicle")->position.x(), 10.0, 0.05);
  EXPECT_NEAR(live.Kinematics("vehicle")->linear_velocity.norm(), 0.0, 1e-9);
}

TEST(LiveRunTest, SpawnsRenamesAndDeletesActors) {
  LiveRun live(ShippedCatalog());
  live.Load(ForestRequest());
  SpawnRequest spawn;
  spawn.name = "rock_a";
  spawn.uri = "asg://actor/rock";
  spawn.position = Eigen::Vector3d(25.0, 25.0, 0.0);
  EXPECT_EQ(live.Spawn(spawn).status, EntityStatus::kOk);
  EXPECT_EQ(live.EntityNames().back(), "rock_a");
  EXPECT_EQ(live.Spawn(spawn).status, EntityStatus::kNameNotUnique);
  spawn.allow_renaming = true;
  EXPECT_EQ(live.Spawn(spawn).name, "rock_a_1");
  spawn.uri = "asg://actor/unicorn";
  EXPECT_EQ(live.Spawn(spawn).status, EntityStatus::kNotFound);
  spawn.uri = "file:///tmp/x.sdf";
  EXPECT_EQ(live.Spawn(spawn).status, EntityStatus::kUnsupportedFormat);
  spawn.uri = "asg://vehicle";
  EXPECT_EQ(live.Spawn(spawn).status, EntityStatus::kOperationFailed);
  spawn.uri = "";
  EXPECT_EQ(live.Spawn(spawn).status, EntityStatus::kNoResource);
  spawn.uri = "asg://actor/rock";
  spawn.name = "";
  spawn.allow_renaming = false;
  EXPECT_EQ(live.Spawn(spawn).status, EntityStatus::kNameInvalid);
  spawn.name = "x";
  spawn.position = Eigen::Vector3d(-5.0, 1.0, 0.0);
  EXPECT_EQ(live.Spawn(spawn).status, EntityStatus::kInvalidPose);
  EXPECT_EQ(live.EntityNames().size(), 6u);
  EXPECT_TRUE(live.Info("rock_a")->spawned);

  EXPECT_EQ(live.Delete("vehicle").status, EntityStatus::kOperationFailed);
  EXPECT_EQ(live.Delete(live.EntityNames()[1]).status, EntityStatus::kOk);
  EXPECT_EQ(live.EntityNames().size(), 5u);
  live.DeleteSpawned();
  EXPECT_EQ(live.EntityNames().size(), 3u);
  live.Reload();
  EXPECT_EQ(live.EntityNames().size(), 4u);
}

TEST(LiveRunTest, ASpawnedTreeInThePathEndsTheStraightRunByCollision) {
  protocol::RunScenarioRequest request = ReferenceRequest();
  request.driver.type = protocol::DriverSpec::Type::kStraight;
  request.allow_collisions = false;
  LiveRun live(ShippedCatalog());
  live.Load(request);
  SpawnRequest spawn;
  spawn.name = "blocker";
  spawn.uri = "asg://actor/tree";
  spawn.position = Eigen::Vector3d(25.0, 25.0, 0.0);
  ASSERT_EQ(live.Spawn(spawn).status, EntityStatus::kOk);
  while (!live.Step()) {
  }
  const auto& result = std::get<RunResult>(*live.outcome());
  EXPECT_EQ(result.reason(), protocol::TerminationReason::REASON_VEHICLE_COLLISION);
}

TEST(LiveRunTest, ResetTimeRestartsTheClockWhereTheVehicleIs) {
  LiveRun live(ShippedCatalog());
  live.Load(ForestRequest());
  for (int i = 0; i < 200; ++i) ASSERT_FALSE(live.Step());
  EXPECT_NEAR(live.time(), 2.0, 1e-9);
  const double x = live.Kinematics("vehicle")->position.x();
  live.ResetTime();
  EXPECT_EQ(live.steps(), 0);
  EXPECT_DOUBLE_EQ(live.time(), 0.0);
  EXPECT_DOUBLE_EQ(live.Kinematics("vehicle")->position.x(), x);
  ASSERT_FALSE(live.Step());
}

TEST(LiveRunTest, BrakingGivesADeceleratingAcceleration) {
  protocol::RunScenarioRequest request = ReferenceRequest();
  request.driver.type = protocol::DriverSpec::Type::kStraight;
  LiveRun live(ShippedCatalog());
  live.Load(request);
  for (int i = 0; i < 300; ++i) ASSERT_FALSE(live.Step());
  const EntityKinematics moving = *live.Kinematics("vehicle");
  ASSERT_GT(moving.linear_velocity.norm(), 2.0);
  protocol::PhysXControl brake;
  brake.longitudinal_velocity = 0.0;
  live.SetManualControl(brake);
  ASSERT_FALSE(live.Step());
  const EntityKinematics braking = *live.Kinematics("vehicle");
  EXPECT_LT(braking.linear_acceleration.dot(braking.linear_velocity.normalized()), -1.0);
}

TEST(LiveRunTest, AFailedLoadKeepsTheScenarioLoaded) {
  LiveRun live(ShippedCatalog());
  live.Load(ForestRequest());
  for (int i = 0; i < 10; ++i) ASSERT_FALSE(live.Step());
  protocol::RunScenarioRequest bad = ForestRequest();
  bad.scene_description.ssa_array[0].path_name = "/Game/Nothing";
  EXPECT_THROW(live.Load(bad), SceneError);
  EXPECT_EQ(live.steps(), 10);
  EXPECT_EQ(live.EntityNames().size(), 4u);
}

}  // namespace
}  // namespace asg::scene
