// Tests for worker/serve/interventions.h.
#include "worker/serve/interventions.h"

#include <gtest/gtest.h>

#include "tests/scene/scene_test_util.h"
#include "tests/worker/small_request.h"

namespace asg::worker::serve {
namespace {

results::Intervention Entry(double time, const std::string& kind) {
  results::Intervention entry;
  entry.sim_time_s = time;
  entry.service = "SetEntityState";
  entry.entity = "vehicle";
  entry.kind = kind;
  return entry;
}

TEST(InterventionLogTest, JumpsAreTheTeleportsAndTheResetsThatMovedTheVehicle) {
  InterventionLog log;
  log.Add(Entry(0.5, "teleport"));
  log.Add(Entry(0.75, "velocity"));
  results::Intervention reset = Entry(1.0, "reset");
  log.Add(reset);  // SCOPE_SPAWNED: the vehicle stays
  reset.sim_time_s = 1.5;
  reset.from = {{1.0, 2.0, 3.0}};
  reset.to = {{4.0, 5.0, 6.0}};
  log.Add(reset);  // SCOPE_STATE
  EXPECT_EQ(log.Jumps(), (std::vector<double>{0.5, 1.5}));
  log.ClockRestarted();
  EXPECT_EQ(log.Jumps(), (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(log.entries().size(), 4u);
  log.Clear();
  EXPECT_TRUE(log.entries().empty());
}

TEST(InterventionLogTest, StateChangesAreRecordedByWhatTheyChanged) {
  scene::LiveRun live(scene::testing::ShippedCatalog());
  protocol::RunScenarioRequest request = testing::SmallRequest(3);
  scene::testing::AddActors(&request, scene::testing::kTree, {20.0}, {30.0});
  live.Load(request);
  InterventionLog log;
  const std::string tree = live.EntityNames()[1];

  scene::EntityStateChange twist_only;  // an actor given a zero twist: nothing changed
  twist_only.linear_velocity = Eigen::Vector3d::Zero();
  RecordStateChange(live, "SetEntityState", tree, twist_only, *live.Kinematics(tree), &log);
  EXPECT_TRUE(log.entries().empty());

  scene::EntityStateChange move;
  move.position = Eigen::Vector3d(25.0, 30.0, 0.0);
  const scene::EntityKinematics before = *live.Kinematics(tree);
  ASSERT_EQ(live.SetState(tree, move).status, scene::EntityStatus::kOk);
  RecordStateChange(live, "SetRuntimeActors", tree, move, before, &log);
  ASSERT_EQ(log.entries().size(), 1u);
  EXPECT_EQ(log.entries()[0].kind, "entity_moved");
  EXPECT_EQ(log.entries()[0].service, "SetRuntimeActors");
  EXPECT_EQ((*log.entries()[0].from)[0], 20.0);
  EXPECT_EQ((*log.entries()[0].to)[0], 25.0);

  scene::EntityStateChange both;  // the vehicle's pose and twist: two entries
  both.position = live.Kinematics("vehicle")->position;
  both.orientation = Eigen::Quaterniond::Identity();
  both.linear_velocity = Eigen::Vector3d(1.0, 0.0, 0.0);
  const scene::EntityKinematics vehicle = *live.Kinematics("vehicle");
  ASSERT_EQ(live.SetState("vehicle", both).status, scene::EntityStatus::kOk);
  RecordStateChange(live, "SetEntityState", "vehicle", both, vehicle, &log);
  ASSERT_EQ(log.entries().size(), 3u);
  EXPECT_EQ(log.entries()[1].kind, "teleport");
  EXPECT_EQ(log.entries()[2].kind, "velocity");
  EXPECT_NEAR((*log.entries()[2].linear_velocity)[0], 1.0, 1e-9);
}

}  // namespace
}  // namespace asg::worker::serve
