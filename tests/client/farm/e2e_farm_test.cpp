// End-to-end tests of asg-client and asg-worker (client/farm/farm.h, worker/worker_session.h): the
// real executables over loopback, a mixed batch, determinism across worker counts, replaying a
// scenario with asg-worker --run-scenario, and the command-line exits.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

Json MixedScenarios() {
  Json tree_in_path = {
      {"scene_description", {{"ssa_array", {testing::Actors(testing::kTree, {20.0}, {20.0})}}}}};
  Json idle = {{"sim_timeout_period", 3.0}, {"driver", {{"type", "idle"}}}};
  Json bad_arrays = {
      {"scene_description",
       {{"ssa_array", {testing::Actors(testing::kTree, {5.0, 30.0}, {30.0, 5.0})}}}}};
  bad_arrays["scene_description"]["ssa_array"][0]["x"] = {5.0};
  Json unknown_actor = {{"scene_description",
                         {{"ssa_array", {testing::Actors("/Game/No_Such_Actor", {30.0}, {5.0})}}}}};
  Json capture_only = {{"scene_capture_only", true},
                       {"take_scene_capture", true},
                       {"scene_capture_settings",
                        {{"image_size", 32}, {"ortho_aerial", true}, {"aerial_padding", {0}}}}};
  // Captures over the 4096 px cap: the run is done, the capture failure is in its result.
  Json oversized_capture = {
      {"take_scene_capture", true},
      {"scene_capture_settings",
       {{"image_size", 5000}, {"ortho_aerial", true}, {"aerial_padding", {0}}}}};
  return Json::array({Json::object(), tree_in_path, idle, bad_arrays, unknown_actor, capture_only,
                      oversized_capture});
}

/// A batch whose scenarios scatter 0..3 trees at random (some runs collide, some succeed).
Json GeneratedBatch(int count) {
  Json batch = SmallBatch("generated", Json::array());
  batch.erase("scenarios");
  batch["generate"] = {
      {"count", count},
      {"actors",
       {{{"path_name", testing::kTree}, {"count", {0, 3}}, {"x", {0, 40}}, {"y", {0, 40}}}}},
      {"start_clearance", 4},
      {"goal_clearance", 4}};
  return batch;
}

TEST(FarmEndToEnd, MixedBatchLandsInTheRightFoldersWithTheRightStatuses) {
  TempDir dir;
  WriteJson(dir.path() / "mixed.json", SmallBatch("mixed", MixedScenarios()));
  const auto out = dir.path() / "out";
  const int code = RunToEnd(Executable("asg-client"),
                            {"run", (dir.path() / "mixed.json").string(), "--out", out.string(),
                             "--workers", "2", "--allow-invalid"},
                            dir.path() / "client.txt");
  ASSERT_EQ(code, 0) << ReadText(dir.path() / "client.txt");

  EXPECT_EQ(Result(out, 1)["status"], "done");
  EXPECT_EQ(Result(out, 1)["termination_reason_name"], "REASON_SUCCESS");
  EXPECT_EQ(Result(out, 2)["termination_reason_name"], "REASON_VEHICLE_COLLISION");
  EXPECT_EQ(Result(out, 3)["termination_reason_name"], "REASON_SIM_TIMEOUT");
  EXPECT_EQ(Result(out, 4)["status"], "invalid");
  EXPECT_NE(Result(out, 4)["error"].get<std::string>().find("scenarios[3]"), std::string::npos);
  EXPECT_EQ(Result(out, 5)["status"], "invalid");
  EXPECT_NE(Result(out, 5)["error"].get<std::string>().find("/Game/No_Such_Actor"),
            std::string::npos);

  // scene_capture_only: SUCCESS without running, its capture carried back to the client.
  EXPECT_EQ(Result(out, 6)["termination_reason_name"], "REASON_SUCCESS");
  EXPECT_EQ(Result(out, 6)["vehicle_sim_time"], 0.0);
  EXPECT_EQ(Result(out, 6)["captures"], Json::array({"ortho_aerial_pad0.png"}));
  EXPECT_EQ(ReadText(out / "scenario_0006" / "captures" / "ortho_aerial_pad0.png").substr(1, 3),
            "PNG");
  EXPECT_EQ(ReadText(out / "scenario_0006" / "trajectory.csv").find('\n'),
            ReadText(out / "scenario_0006" / "trajectory.csv").size() - 1);  // header only

  // An image size past 4096 px is found before the run, naming the field.
  EXPECT_EQ(Result(out, 7)["status"], "invalid");
  EXPECT_NE(Result(out, 7)["error"].get<std::string>().find(
                "scenarios[6].scene_capture_settings.image_size: must be in [1, 4096], got 5000"),
            std::string::npos)
      << Result(out, 7).dump();
  EXPECT_FALSE(Result(out, 1).contains("capture_error"));

  const Json summary = Json::parse(ReadText(out / "summary.json"));
  EXPECT_EQ(summary["status_counts"]["done"], 4);
  EXPECT_EQ(summary["status_counts"]["invalid"], 3);
  EXPECT_EQ(summary["status_counts"]["failed"], 0);
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_NE(log.find("] [INFO] worker 1 (pid"), std::string::npos);
  EXPECT_NE(log.find("scenario 2 done on worker"), std::string::npos);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("REASON_VEHICLE_COLLISION"),
            std::string::npos);
}

TEST(FarmEndToEnd, OneAndTwoWorkersAndARerunGiveByteIdenticalResults) {
  TempDir dir;
  const auto batch = dir.path() / "generated.json";
  WriteJson(batch, GeneratedBatch(12));
  for (const char* workers : {"1", "2"}) {
    const auto out = dir.path() / (std::string("out") + workers);
    ASSERT_EQ(RunToEnd(Executable("asg-client"),
                       {"run", batch.string(), "--out", out.string(), "--workers", workers, "-q"},
                       dir.path() / "client.txt"),
              0)
        << ReadText(dir.path() / "client.txt");
  }
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", (dir.path() / "again").string(), "--workers",
                      "2", "-q"},
                     dir.path() / "client.txt"),
            0);
  testing::ExpectSameResults(dir.path() / "out1", dir.path() / "out2");
  testing::ExpectSameResults(dir.path() / "out1", dir.path() / "again");
  // The batch is not trivial: both outcomes occur.
  const std::string summary = ReadText(dir.path() / "out1" / "summary.csv");
  EXPECT_NE(summary.find("REASON_SUCCESS"), std::string::npos);
  EXPECT_NE(summary.find("REASON_VEHICLE_COLLISION"), std::string::npos);
}

TEST(FarmEndToEnd, TwoVariantsOfTwentyGeneratedLayoutsRunOnIdenticalScenesAndAreCompared) {
  TempDir dir;
  Json batch = GeneratedBatch(20);
  batch["variants"] = {{{"name", "straight"}},
                       {{"name", "planner"}, {"driver", {{"type", "planner"}, {"speed", 5.0}}}}};
  WriteJson(dir.path() / "variants.json", batch);
  const auto out = dir.path() / "out";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", (dir.path() / "variants.json").string(), "--out", out.string(),
                      "--workers", "2"},
                     dir.path() / "client.txt"),
            0)
      << ReadText(dir.path() / "client.txt");
  for (int layout = 1; layout <= 20; ++layout) {
    const int straight = 2 * layout - 1, planner = 2 * layout;
    char a[64], b[64];
    std::snprintf(a, sizeof a, "scenario_%04d_straight/request.json", straight);
    std::snprintf(b, sizeof b, "scenario_%04d_planner/request.json", planner);
    const Json request_a = Json::parse(ReadText(out / a));
    const Json request_b = Json::parse(ReadText(out / b));
    EXPECT_EQ(request_a["scene_description"], request_b["scene_description"]) << layout;
    EXPECT_EQ(request_a["seed"], request_b["seed"]) << layout;
    EXPECT_EQ(request_a["driver"]["type"], "straight");
    EXPECT_EQ(request_b["driver"]["type"], "planner");
    EXPECT_EQ(Result(out, straight, "straight")["variant"], "straight");
    EXPECT_EQ(Result(out, planner, "planner")["variant"], "planner");
    EXPECT_EQ(Result(out, planner, "planner")["layout"], layout);
  }
  // Every folder is named after its variant; none without.
  size_t folders = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("scenario_")) continue;
    ++folders;
    EXPECT_TRUE(name.ends_with("_straight") || name.ends_with("_planner")) << name;
  }
  EXPECT_EQ(folders, 40u);
  // The summary compares the variants side by side, in summary.json and on the terminal.
  const Json summary = Json::parse(ReadText(out / "summary.json"));
  ASSERT_EQ(summary["variants"].size(), 2u);
  EXPECT_EQ(summary["variants"][0]["name"], "straight");
  EXPECT_EQ(summary["variants"][0]["total"], 20);
  EXPECT_EQ(summary["variants"][1]["total"], 20);
  EXPECT_EQ(summary["layouts"], 20);
  // The straight driver runs into trees the planner drives around: some layouts differ.
  EXPECT_GT(summary["variant_differences"].size(), 0u) << summary.dump();
  for (const Json& difference : summary["variant_differences"]) {
    EXPECT_NE(difference["outcomes"]["straight"], difference["outcomes"]["planner"]);
  }
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("variants, side by side over 20 layouts"),
            std::string::npos);
  EXPECT_NE(ReadText(out / "summary.csv").find(",straight,1,"), std::string::npos);

  // --resume finds the variant folders complete and runs nothing again; replay finds them too.
  const std::string summary_before = ReadText(out / "summary.json");
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", (dir.path() / "variants.json").string(), "--out", out.string(),
                      "--workers", "2", "--resume"},
                     dir.path() / "resume.txt"),
            0)
      << ReadText(dir.path() / "resume.txt");
  EXPECT_NE(ReadText(out / "asg_log.txt").find("resume: 40 scenarios already complete"),
            std::string::npos);
  const auto replay = dir.path() / "replay";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"replay", out.string(), "--out", replay.string(), "--top-runs", "2", "--runs",
                      "1", "--workers", "1"},
                     dir.path() / "replay.txt"),
            0)
      << ReadText(dir.path() / "replay.txt");
  const Json record = Json::parse(ReadText(replay / "replay.json"));
  ASSERT_EQ(record["scenarios"].size(), 2u);
  EXPECT_TRUE(record["scenarios"][0].contains("source_variant")) << record.dump();
}

TEST(FarmEndToEnd, WorkerRunScenarioReplaysAFarmScenarioIdentically) {
  TempDir dir;
  WriteJson(dir.path() / "mixed.json", SmallBatch("mixed", MixedScenarios()));
  const auto out = dir.path() / "out";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", (dir.path() / "mixed.json").string(), "--out", out.string(),
                      "--workers", "1", "-q", "--allow-invalid"},
                     dir.path() / "client.txt"),
            0);
  const auto replay = dir.path() / "replay";
  ASSERT_EQ(RunToEnd(Executable("asg-worker"),
                     {"--run-scenario", (out / "scenario_0002" / "request.json").string(), "--out",
                      replay.string()},
                     dir.path() / "worker.txt"),
            0)
      << ReadText(dir.path() / "worker.txt");
  for (const char* file : {"trajectory.csv", "request.json"}) {
    EXPECT_EQ(ReadText(out / "scenario_0002" / file), ReadText(replay / "scenario_0002" / file))
        << file;
  }
  // The same result, but for the batch's failure_id: which distinct failure of the batch the
  // collision is, a fact of the batch and not of the run.
  auto result = nlohmann::ordered_json::parse(ReadText(out / "scenario_0002" / "result.json"));
  EXPECT_EQ(result["failure_id"], 1);
  result.erase("failure_id");
  EXPECT_EQ(result.dump(2) + "\n", ReadText(replay / "scenario_0002" / "result.json"));
  // A scene that cannot be created is recorded as invalid, and the exit code says so.
  EXPECT_EQ(RunToEnd(Executable("asg-worker"),
                     {"--run-scenario", (out / "scenario_0005" / "request.json").string(), "--out",
                      replay.string()},
                     dir.path() / "worker.txt"),
            1);
  EXPECT_EQ(Result(replay, 5)["status"], "invalid");
}

TEST(FarmEndToEnd, UnusableBatchOrCommandLineStopsBeforeAnythingRuns) {
  TempDir dir;
  std::ofstream(dir.path() / "broken.json") << "{\"scenarios\": [";
  const auto out = dir.path() / "out";
  EXPECT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", (dir.path() / "broken.json").string(), "--out", out.string()},
                     dir.path() / "client.txt"),
            2);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("broken.json:1:"), std::string::npos)
      << ReadText(dir.path() / "client.txt");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", (dir.path() / "broken.json").string(), "--out", out.string(),
                      "--listen", "0.0.0.0:0"},
                     dir.path() / "client.txt"),
            2);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("--token"), std::string::npos);
  EXPECT_EQ(RunToEnd(Executable("asg-worker"), {"--id", "65536", "--connect", "127.0.0.1:1"},
                     dir.path() / "worker.txt"),
            2);
  EXPECT_EQ(RunToEnd(Executable("asg-client"), {"--version"}, dir.path() / "client.txt"), 0);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("asg-client "), std::string::npos);
}

TEST(FarmEndToEnd, BadVehicleNodesSettingExitsTwoBeforeCreatingAnything) {
  TempDir dir;
  Json batch = SmallBatch("bad nodes", testing::PlainScenarios(1));
  batch["vehicle_nodes"] = {{"count", 1}, {"max_reruns", "x"}};
  WriteJson(dir.path() / "nodes.json", batch);
  const auto out = dir.path() / "out";
  EXPECT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", (dir.path() / "nodes.json").string(), "--out", out.string()},
                     dir.path() / "client.txt"),
            2);
  const std::string text = ReadText(dir.path() / "client.txt");
  EXPECT_NE(text.find("nodes.json: vehicle_nodes.max_reruns: expected an unsigned integer, got "
                      "string \"x\""),
            std::string::npos)
      << text;
  EXPECT_FALSE(std::filesystem::exists(out));  // no folder, so no asg_log.txt either

  batch["vehicle_nodes"] = {{"save_minimal", "yes"}};
  WriteJson(dir.path() / "nodes.json", batch);
  EXPECT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", (dir.path() / "nodes.json").string(), "--out", out.string()},
                     dir.path() / "client.txt"),
            2);
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("vehicle_nodes.save_minimal"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(FarmEndToEnd, WorkerWithoutEglRunsItsScenariosAndReportsTheCaptureError) {
  TempDir dir;
  Json with_capture = {{"take_scene_capture", true},
                       {"scene_capture_settings",
                        {{"image_size", 32}, {"ortho_aerial", true}, {"aerial_padding", {0}}}}};
  WriteJson(dir.path() / "captures.json",
            SmallBatch("captures", Json::array({with_capture, with_capture})));
  const auto out = dir.path() / "out";
  // libglvnd finds no EGL vendor library: the workers, launched by the client, inherit this.
  ::setenv("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/asg_no_vendor.json", 1);
  const int code = RunToEnd(
      Executable("asg-client"),
      {"run", (dir.path() / "captures.json").string(), "--out", out.string(), "--workers", "1"},
      dir.path() / "client.txt");
  ::unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");
  ASSERT_EQ(code, 0) << ReadText(dir.path() / "client.txt");
  for (int number : {1, 2}) {
    const Json result = Result(out, number);
    EXPECT_EQ(result["status"], "done");
    EXPECT_EQ(result["termination_reason_name"], "REASON_SUCCESS");
    EXPECT_EQ(result["captures"], Json::array());
    EXPECT_NE(result["capture_error"].get<std::string>().find("EGL"), std::string::npos)
        << result.dump();
  }
}

}  // namespace
}  // namespace asg::client::testing
