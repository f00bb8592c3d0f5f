// Tests for client/batch/autoscenegen_import.h end to end: a RunScenario request built as
// AutoSceneGen's scenario builder builds one, run as a batch in AutoSceneGen's units, imported
// then run, and written by hand in the farm's metres, gives the same scenario folder.
#include <gtest/gtest.h>

#include "tests/client/e2e_test.h"
#include "tests/protocol/autoscenegen_builder.h"

namespace asg::client::testing {
namespace {

// The scenario as AutoSceneGenScenarioBuilder holds it (create_default_run_scenario_request):
// metres in north-west-up, yaw counter-clockwise. Every value is a multiple of 1/4, so that x * 100
// and its conversion back are exact and the hand-written metres are the same numbers.
Json BuilderRequest() {
  return {{"scenario_number", 1},
          {"sim_timeout_period", 12.0},
          {"vehicle_idling_timeout_period", 3.0},
          {"vehicle_stuck_timeout_period", 3.0},
          {"max_vehicle_roll", 70.0},
          {"max_vehicle_pitch", 70.0},
          {"allow_collisions", false},
          {"vehicle_start_location", {{"x", 8.5}, {"y", 8.25}, {"z", 0.0}}},
          {"vehicle_start_yaw", 37.5},
          {"vehicle_goal_location", {{"x", 31.5}, {"y", 32.75}, {"z", 0.0}}},
          {"goal_radius", 3.75},
          {"scene_description",
           {{"landscape", {{"nominal_size", 40.0}, {"subdivisions", 4}, {"border", 2.5}}},
            {"sunlight_inclination", 30.0},
            {"sunlight_yaw_angle", 60.0},
            {"ssa_array", Json::array({Actors(kTree, {20.5, 4.25}, {12.25, 30.5})})}}},
          {"take_scene_capture", true},
          {"scene_capture_only", false},
          {"scene_capture_settings",
           {{"image_size", 64},
            {"draw_annotations", true},
            {"goal_sphere_thickness", 0.25},  // [m] here; SceneCaptureSettings.msg gives it in [cm]
            {"goal_sphere_color", {{"r", 0.0}, {"g", 1.0}, {"b", 0.0}, {"a", 1.0}}},
            {"ortho_aerial", true},
            {"perspective_aerial", false},
            {"aerial_padding", {5}},  // [m] in AutoSceneGen too
            {"front_aerial", false},
            {"left_front_aerial", false},
            {"left_aerial", false},
            {"left_rear_aerial", false},
            {"rear_aerial", false},
            {"right_rear_aerial", false},
            {"right_aerial", false},
            {"right_front_aerial", false},
            {"vehicle_start_pov", false},
            {"vehicle_start_rear_aerial", false}}},
          {"driver", {{"type", "straight"}, {"speed", 5.0}}}};  // the farm's extension, farm units
}

// One batch file "scene.json" in dir/`name`/ (the batch's name is the file's stem in each).
fs::path WriteBatch(const TempDir& dir, const std::string& name, const Json& batch) {
  fs::create_directories(dir.path() / name);
  const fs::path file = dir.path() / name / "scene.json";
  WriteJson(file, batch);
  return file;
}

TEST(ImportEndToEnd, AnAutoSceneGenRequestRunsAsTheSameScenarioWrittenInMetres) {
  TempDir dir;
  Json builder = BuilderRequest();
  builder["scene_description"]["ssa_array"][0]["yaw"] = {15.0, -120.5};
  const Json sent = protocol::testing::AsTheBuilderSendsIt(builder);
  ASSERT_EQ(sent["vehicle_start_location"]["y"], -825.0);
  ASSERT_EQ(sent["scene_capture_settings"]["goal_sphere_thickness"], 25.0);
  const fs::path by_hand = WriteBatch(dir, "metres", {{"scenarios", {builder}}});
  const fs::path in_units =
      WriteBatch(dir, "units", {{"units", "autoscenegen"}, {"scenarios", {sent}}});
  WriteJson(dir.path() / "request.json", sent);
  fs::create_directories(dir.path() / "imported");
  const fs::path imported = dir.path() / "imported" / "scene.json";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"import", (dir.path() / "request.json").string(), "--out", imported.string()},
                     dir.path() / "import.txt"),
            0)
      << ReadText(dir.path() / "import.txt");
  EXPECT_EQ(ReadText(imported).find("units"), std::string::npos) << ReadText(imported);
  // Without --out the batch goes to standard output, the same bytes.
  ASSERT_EQ(RunToEnd(Executable("asg-client"), {"import", (dir.path() / "request.json").string()},
                     dir.path() / "stdout.txt"),
            0);
  EXPECT_EQ(ReadText(dir.path() / "stdout.txt"), ReadText(imported));
  ASSERT_EQ(
      RunToEnd(Executable("asg-client"), {"check", imported.string()}, dir.path() / "check.txt"), 0)
      << ReadText(dir.path() / "check.txt");

  for (const fs::path& batch : {by_hand, in_units, imported}) {
    EXPECT_EQ(RunBatch(batch, batch.parent_path() / "out", 1, batch.parent_path() / "run.txt"), 0)
        << ReadText(batch.parent_path() / "run.txt");
  }
  const Json result = Result(dir.path() / "metres" / "out", 1);
  EXPECT_EQ(result["termination_reason_name"], "REASON_SUCCESS") << result.dump();
  const std::string request = ReadText(dir.path() / "metres/out/scenario_0001/request.json");
  EXPECT_TRUE(request.find("\"goal_sphere_thickness\": 0.25") != std::string::npos) << request;
  ExpectSameResults(dir.path() / "metres" / "out", dir.path() / "units" / "out");
  ExpectSameResults(dir.path() / "metres" / "out", dir.path() / "imported" / "out");
  // The annotated capture draws the goal sphere goal_sphere_thickness thick.
  const std::string capture = "out/scenario_0001/captures/ortho_aerial_pad5_annotated.png";
  ASSERT_FALSE(ReadText(dir.path() / "metres" / capture).empty());
  EXPECT_TRUE(ReadText(dir.path() / "metres" / capture) ==
              ReadText(dir.path() / "units" / capture));
  EXPECT_TRUE(ReadText(dir.path() / "metres" / capture) ==
              ReadText(dir.path() / "imported" / capture));
}

}  // namespace
}  // namespace asg::client::testing
