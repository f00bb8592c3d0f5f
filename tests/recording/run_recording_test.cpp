// Tests for recording/run_recording.h.
#include "recording/run_recording.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "json/json.h"
#include "recording/run_messages.h"
#include "results/trajectory_csv.h"

namespace asg::recording {
namespace {

/// A done run of three samples 0.05 s apart driving north-east, with one tree of scale 2.
results::ScenarioRecord ThreeSampleRun() {
  results::ScenarioRecord record;
  record.request = json::Json::parse(R"({"scenario_number": 4, "goal_radius": 5.0,
      "vehicle_start_location": {"x": 10.0, "y": 10.0, "z": 0.0}, "vehicle_start_yaw": 45.0,
      "vehicle_goal_location": {"x": 50.0, "y": 50.0, "z": 0.0},
      "scene_description": {"ssa_array": [{"path_name": "tree", "x": [30.0], "y": [20.0],
                                           "scale": [2.0]}]}})");
  record.result.scenario_number = 4;
  record.result.status = results::ScenarioStatus::kDone;
  record.result.seed = 18446744073709551615u;
  record.result.vehicle_sim_time = 0.125;
  for (int i = 0; i < 3; ++i) {
    protocol::OdometryWithoutCovariance sample;
    sample.header.stamp = protocol::Time::FromSeconds(0.05 * i);
    sample.pose.position = {10.0 + i, 10.0 + i, 0.5};
    sample.pose.orientation = {0.0, 0.0, std::sin(std::numbers::pi / 8),
                               std::cos(std::numbers::pi / 8)};
    sample.twist.linear = {3.0, 4.0, 0.0};
    record.trajectory.push_back(sample);
  }
  return record;
}

TEST(RunMessagesTest, EulerAnglesGiveTheUnitQuaternionOfTheirRotation) {
  const json::Json yaw = QuaternionOfEuler(0, 0, 90);
  EXPECT_NEAR(yaw["z"].get<double>(), std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(yaw["w"].get<double>(), std::sqrt(0.5), 1e-12);
  const json::Json roll = QuaternionOfEuler(180, 0, 0);
  EXPECT_NEAR(roll["x"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(roll["w"].get<double>(), 0.0, 1e-12);
}

TEST(RunMessagesTest, SimTimeIsWholeNanosecondsAsFoxgloveTime) {
  EXPECT_EQ(SimTimeNanoseconds(10.85), 10'850'000'000u);
  EXPECT_EQ(SimTimeNanoseconds(-1.0), 0u);
  EXPECT_EQ(FoxgloveTime(10'850'000'000u), (json::Json{{"sec", 10}, {"nsec", 850'000'000}}));
}

TEST(RunMessagesTest, OdometryHasSpeedAndTheSampleInItsUnits) {
  results::TrajectoryRow row;
  row.t = 1.5;
  row.vx = 3.0;
  row.vy = 4.0;
  row.yaw = 45.0;
  const json::Json odometry = VehicleOdometry(row);
  EXPECT_EQ(odometry["speed"], 5.0);
  EXPECT_EQ(odometry["yaw"], 45.0);
  EXPECT_EQ(odometry["timestamp"]["nsec"], 500'000'000);
  const json::Json transform = VehicleTransform(row);
  EXPECT_EQ(transform["parent_frame_id"], "world");
  EXPECT_EQ(transform["child_frame_id"], "base_link");
}

TEST(RunRecordingTest, RecordedFromARecordAsFromItsFolderAndTheSameEachTime) {
  const results::ScenarioRecord record = ThreeSampleRun();
  const results::StoredScenario stored = results::StoredScenarioOf(record);
  // The rows trajectory.csv reads back as.
  const auto rows = results::TrajectoryFromCsv(results::TrajectoryToCsv(record.trajectory), "t");
  ASSERT_EQ(stored.trajectory.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(stored.trajectory[i].t, rows[i].t);
    EXPECT_EQ(stored.trajectory[i].yaw, rows[i].yaw);
  }
  const std::string bytes = RecordRun(stored, nullptr);
  EXPECT_EQ(bytes.substr(0, 8), kMcapMagic);
  EXPECT_EQ(bytes, RecordRun(results::StoredScenarioOf(record), nullptr));  // deterministic
  // The 64-bit seed and the topics are in the file as written.
  EXPECT_NE(bytes.find("18446744073709551615"), std::string::npos);
  for (const RecordingChannel& channel : kRecordingChannels) {
    EXPECT_NE(bytes.find(channel.topic), std::string::npos) << channel.topic;
  }
}

TEST(RunRecordingTest, SceneHasStartGoalPathsAndEachObstacle) {
  const results::StoredScenario stored = results::StoredScenarioOf(ThreeSampleRun());
  const json::Json scene = SceneUpdate(stored, nullptr, 0);
  std::vector<std::string> ids;
  for (const json::Json& entity : scene["entities"]) ids.push_back(entity["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"goal", "start", "actor_0_0", "reference_path",
                                           "driven_path"}));
  const json::Json& goal = scene["entities"][0]["spheres"][0];
  EXPECT_EQ(goal["size"]["x"], 10.0);  // twice goal_radius
  const json::Json& tree = scene["entities"][2]["cylinders"][0];
  EXPECT_EQ(tree["pose"]["position"]["x"], 30.0);
  EXPECT_EQ(tree["size"]["z"], 2.0);  // 1 m by default, scale 2
  EXPECT_EQ(scene["entities"][4]["lines"][0]["points"].size(), 3u);
}

TEST(RunRecordingTest, TheTerrainIsATriangleGridWithItsReliefAndObstaclesStandOnIt) {
  results::ScenarioRecord record = ThreeSampleRun();
  record.request["scene_description"]["landscape"] = json::Json::parse(
      R"({"nominal_size": 60.0, "subdivisions": 6, "border": 0.0,
          "relief": [{"type": "hill", "x": 30.0, "y": 20.0, "radius": 10.0, "height": 3.0}]})");
  const json::Json scene = SceneUpdate(results::StoredScenarioOf(record), nullptr, 0);
  const json::Json& terrain = scene["entities"][0];
  ASSERT_EQ(terrain["id"], "terrain");
  const json::Json& triangles = terrain["triangles"][0];
  EXPECT_EQ(triangles["points"].size(), 33u * 33u);  // 32 cells a side over 64
  EXPECT_EQ(triangles["indices"].size(), 32u * 32u * 6);
  // The highest vertex is next to the hill's top (30, 20), nearly 3 m up; the tree there stands
  // on the hill's top (within the landscape's 0.94 m grid), its 2 m cylinder (scale 2) centred
  // 1 m above it.
  json::Json top = triangles["points"][0];
  for (const json::Json& point : triangles["points"]) {
    if (point["z"].get<double>() > top["z"].get<double>()) top = point;
  }
  EXPECT_NEAR(top["x"].get<double>(), 30.0, 1.9);
  EXPECT_NEAR(top["y"].get<double>(), 20.0, 1.9);
  EXPECT_GT(top["z"].get<double>(), 2.5);
  EXPECT_LE(top["z"].get<double>(), 3.0);
  const json::Json& tree = scene["entities"][3]["cylinders"][0];
  EXPECT_NEAR(tree["pose"]["position"]["z"].get<double>(), 3.0 + 1.0, 0.05);
}

TEST(RunRecordingTest, EverySchemaIsEmbeddedUnderItsTitle) {
  for (const RecordingChannel& channel : kRecordingChannels) {
    const std::string_view text = RecordingSchema(channel.schema);
    ASSERT_FALSE(text.empty()) << channel.schema;
    EXPECT_EQ(json::Json::parse(text)["title"], channel.schema);
  }
  EXPECT_TRUE(RecordingSchema("foxglove.Nothing").empty());
}

}  // namespace
}  // namespace asg::recording
