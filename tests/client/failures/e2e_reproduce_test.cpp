// Tests for client/failures/reproduction.h end to end: the real asg-client and asg-worker run a
// small batch whose failures are a wall of trees driven into head-on and a tree grazed at the
// side, then run each representative again with its start jittered (failures.reproduce), with 1
// and 2 workers, after an interruption and --resume, and without reproduction runs;
// `asg-client failures` rebuilds the files from the folders; a resumed search runs again what
// its representative's folder holds.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

// The straight driver from (8, 8) to (32, 32): scenario 1 into a wall of nine trees across its
// path (x + y = 40), scenario 2 past a tree whose centre is 1.095 m beside its path, which the
// nominal run grazes and a start moved by the jitter of RunVariation may miss, scenario 3 on open
// ground. Batch seed 7: the grazed tree is hit again in 1 of the 5 jittered runs.
Json ReproducingBatch(uint32_t reproduce) {
  std::vector<double> wall_x, wall_y;
  for (int i = 0; i <= 8; ++i) {
    wall_x.push_back(16.0 + i);
    wall_y.push_back(24.0 - i);
  }
  const double side = 1.095 / std::sqrt(2.0);
  const Json wall = {
      {"scene_description", {{"ssa_array", {testing::Actors(testing::kTree, wall_x, wall_y)}}}}};
  const Json graze = {
      {"scene_description",
       {{"ssa_array", {testing::Actors(testing::kTree, {20.0 + side}, {20.0 - side})}}}}};
  Json batch = testing::SmallBatch("reproduce", Json::array({wall, graze, Json::object()}));
  batch["seed"] = 7;
  batch["failures"] = {{"reproduce", reproduce}};
  return batch;
}

// A file of reproduction run `run` of scenario `representative` under `out`.
fs::path RunFile(const fs::path& out, int representative, int run, const std::string& file) {
  char folder[48];
  std::snprintf(folder, sizeof folder, "scenario_%04d_run_%d", representative, run);
  return out / "reproduce" / folder / file;
}

// A batch written to `dir`/batch.json with `reproduce` runs per failure.
fs::path WriteBatch(const fs::path& dir, uint32_t reproduce) {
  const fs::path batch = dir / "batch.json";
  testing::WriteJson(batch, ReproducingBatch(reproduce));
  return batch;
}

TEST(ReproduceEndToEnd, AWallReproducesEveryTimeAndAGrazedTreeOnlySometimes) {
  TempDir dir;
  const fs::path batch = WriteBatch(dir.path(), 5);
  const fs::path one = dir.path() / "one";
  const fs::path two = dir.path() / "two";
  ASSERT_EQ(RunBatch(batch, one, 1, dir.path() / "one.txt"), 0) << ReadText(dir.path() / "one.txt");
  ASSERT_EQ(RunBatch(batch, two, 2, dir.path() / "two.txt"), 0) << ReadText(dir.path() / "two.txt");

  const Json failures = Json::parse(ReadText(two / "failures.json"));
  ASSERT_EQ(failures["failures"].size(), 2u) << failures.dump(2);
  const Json& wall = failures["failures"][0];
  const Json& graze = failures["failures"][1];
  EXPECT_EQ(wall["representative"], 1);
  EXPECT_EQ(wall["reproduced"], 5);
  EXPECT_EQ(wall["runs"], 5);
  EXPECT_EQ(graze["representative"], 2);
  EXPECT_EQ(graze["runs"], 5);
  EXPECT_GT(graze["reproduced"].get<int>(), 0) << graze.dump(2);
  EXPECT_LT(graze["reproduced"].get<int>(), 5) << graze.dump(2);
  const int reliable = 1 + (graze["reproduced"].get<int>() >= 3 ? 1 : 0);
  EXPECT_EQ(failures["reproduce"], 5);
  EXPECT_EQ(failures["reliable_failures"], reliable);
  EXPECT_EQ(failures["reproduction_runs"], 10);
  EXPECT_EQ(wall["reproduction_folders"][4], "reproduce/scenario_0001_run_5");
  EXPECT_TRUE(ReadText(two / "failures.csv")
                  .starts_with("failure_id,kind,representative,members,first_found,x,y,"
                               "max_regret,reproduced,runs\n"))
      << ReadText(two / "failures.csv");

  // Each run is the representative's request with its own number and variation.run: the same
  // seed and scene. Numbers follow the batch's: failure 1's runs are 4..8, failure 2's 9..13.
  const Json representative = Json::parse(ReadText(two / "scenario_0002" / "request.json"));
  for (int run = 1; run <= 5; ++run) {
    Json request = Json::parse(ReadText(RunFile(two, 2, run, "request.json")));
    EXPECT_EQ(request["scenario_number"], 8 + run);
    EXPECT_EQ(request["variation"]["run"], run);
    EXPECT_EQ(Json::parse(ReadText(RunFile(two, 2, run, "result.json")))["scenario_number"],
              8 + run);
    request["scenario_number"] = representative["scenario_number"];
    request["variation"]["run"] = 0;
    EXPECT_EQ(request, representative) << run;
  }
  // The runs are not the batch's scenarios: not counted, not failures of the batch.
  EXPECT_EQ(failures["failing_scenarios"], 2);
  const Json summary = Json::parse(ReadText(two / "summary.json"));
  EXPECT_EQ(summary["total"], 3);
  EXPECT_EQ(summary["scenarios"].size(), 3u);
  EXPECT_EQ(summary["distinct_failures"], 2);
  EXPECT_EQ(summary["reliable_failures"], reliable);
  EXPECT_EQ(summary["reproduction_runs"], 10);
  const std::string output = ReadText(dir.path() / "two.txt");
  EXPECT_NE(output.find("2 distinct, " + std::to_string(reliable) + " reliable (failures.csv)"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("reproduction runs 10, beside the 3 scenarios"), std::string::npos)
      << output;
  EXPECT_FALSE(fs::exists(two / "scenario_0004"));

  // The same bytes with one worker or two.
  EXPECT_EQ(FailureFiles(one), FailureFiles(two));
  testing::ExpectSameResults(one / "reproduce", two / "reproduce");

  // `asg-client failures` judges the runs again from the folders alone: the same bytes.
  const std::string written = FailureFiles(two);
  Json tampered = failures;
  tampered["failures"][1]["reproduced"] = 0;
  testing::WriteJson(two / "failures.json", tampered);
  fs::remove(two / "failures.csv");
  ASSERT_EQ(
      RunToEnd(Executable("asg-client"), {"failures", two.string()}, dir.path() / "failures.txt"),
      0)
      << ReadText(dir.path() / "failures.txt");
  EXPECT_EQ(FailureFiles(two), written);
  EXPECT_NE(ReadText(dir.path() / "failures.txt").find("reproduced in at least 3 of 5 runs"),
            std::string::npos)
      << ReadText(dir.path() / "failures.txt");
}

TEST(ReproduceEndToEnd, AResumedBatchKeepsTheReproductionRunsAlreadyComplete) {
  TempDir dir;
  const fs::path batch = WriteBatch(dir.path(), 5);
  const fs::path straight = dir.path() / "straight";
  ASSERT_EQ(RunBatch(batch, straight, 2, dir.path() / "straight.txt"), 0);
  // Interrupted once the grazed tree's first run (scenario 9) runs: the wall's five are done.
  const fs::path resumed = dir.path() / "resumed";
  std::string first_output;
  ASSERT_EQ(testing::RunInterruptedAt(batch, resumed, 9, dir.path() / "first.txt", &first_output),
            130)
      << first_output;
  EXPECT_NE(first_output.find("interrupted: 0 scenarios and 5 reproduction runs not run"),
            std::string::npos)
      << first_output;
  const Json partial = Json::parse(ReadText(resumed / "failures.json"));
  EXPECT_EQ(partial["failures"][0]["runs"], 5);
  EXPECT_FALSE(partial["failures"][1].contains("runs"));  // none of its runs ran
  const std::string kept_timing = ReadText(RunFile(resumed, 1, 3, "timing.json"));
  ASSERT_FALSE(kept_timing.empty());

  ASSERT_EQ(RunBatch(batch, resumed, 2, dir.path() / "second.txt", {"--resume"}), 0)
      << ReadText(dir.path() / "second.txt");
  EXPECT_EQ(ReadText(RunFile(resumed, 1, 3, "timing.json")), kept_timing);  // not run again
  EXPECT_EQ(FailureFiles(resumed), FailureFiles(straight));
  testing::ExpectSameResults(straight, resumed);
  testing::ExpectSameResults(straight / "reproduce", resumed / "reproduce");
}

// A grid search of two candidates with the straight driver, each holding a tree at (20, 20) on
// the straight path (every run drives into it, one distinct failure) and a bush swept along
// x = 30 (y 5 and 35).
Json TreeOnThePathSearch() {
  Json batch = testing::SmallBatch("tree-search", Json::array());
  batch.erase("scenarios");
  batch["failures"] = {{"reproduce", 1}};
  batch["search"] = {
      {"strategy", "grid"},
      {"budget", {{"scenarios", 2}}},
      {"strategy_settings",
       {{"actor_class", testing::kBush},
        {"x_count", 1},
        {"y_count", 2},
        {"fixed", {{{"class", testing::kTree}, {"x", 20.0}, {"y", 20.0}}}}}},
      {"space",
       {{"classes",
         {{{"path_name", testing::kTree}, {"max_count", 1}, {"x", {0, 40}}, {"y", {0, 40}}},
          {{"path_name", testing::kBush}, {"max_count", 1}, {"x", {30, 30}}, {"y", {5, 35}}}}},
        {"start_clearance", 6},
        {"goal_clearance", 6},
        {"path_clearance", 2}}}};
  return batch;
}

TEST(ReproduceEndToEnd, AResumedSearchRunsAgainWhatTheRepresentativesFolderHolds) {
  // A resumed search replays its strategy and keeps the complete folders; a replay that
  // proposes other candidates (map-elites resumed with another failures.regret_threshold) leaves
  // the folders as they were run, and failures.csv is judged on them, so the reproduction runs
  // run the representative's folder, not the replayed plan. Here the folder is edited: its bush
  // moved 1 m, which the replayed plan does not have.
  TempDir dir;
  const fs::path batch = dir.path() / "batch.json";
  testing::WriteJson(batch, TreeOnThePathSearch());
  const fs::path out = dir.path() / "out";
  ASSERT_EQ(RunBatch(batch, out, 2, dir.path() / "first.txt"), 0)
      << ReadText(dir.path() / "first.txt");
  const Json first = Json::parse(ReadText(out / "failures.json"));
  ASSERT_EQ(first["failures"].size(), 1u) << first.dump(2);
  const int representative = first["failures"][0]["representative"];
  char folder[32];
  std::snprintf(folder, sizeof folder, "scenario_%04d", representative);
  Json edited = Json::parse(ReadText(out / folder / "request.json"));
  Json& bush_x = edited["scene_description"]["ssa_array"][1]["x"][0];
  ASSERT_EQ(edited["scene_description"]["ssa_array"][1]["path_name"], testing::kBush);
  bush_x = bush_x.get<double>() - 1.0;
  testing::WriteJson(out / folder / "request.json", edited);
  fs::remove_all(out / "reproduce");

  ASSERT_EQ(RunBatch(batch, out, 2, dir.path() / "second.txt", {"--resume"}), 0)
      << ReadText(dir.path() / "second.txt");
  Json run = Json::parse(ReadText(RunFile(out, representative, 1, "request.json")));
  EXPECT_EQ(run["variation"]["run"], 1);
  EXPECT_EQ(run["take_scene_capture"], false);
  run["scenario_number"] = edited["scenario_number"];
  run["variation"] = edited["variation"];
  run["take_scene_capture"] = edited["take_scene_capture"];
  EXPECT_EQ(run, edited);
}

TEST(ReproduceEndToEnd, NoRunIsReproducedWhenReproduceIsZero) {
  TempDir dir;
  const fs::path batch = WriteBatch(dir.path(), 0);
  const fs::path out = dir.path() / "out";
  ASSERT_EQ(RunBatch(batch, out, 2, dir.path() / "out.txt"), 0) << ReadText(dir.path() / "out.txt");
  EXPECT_FALSE(fs::exists(out / "reproduce"));
  EXPECT_TRUE(ReadText(out / "failures.csv")
                  .starts_with("failure_id,kind,representative,members,first_found,x,y,"
                               "max_regret\n1,"))
      << ReadText(out / "failures.csv");
  const Json failures = Json::parse(ReadText(out / "failures.json"));
  EXPECT_EQ(failures["reproduce"], 0);
  EXPECT_FALSE(failures.contains("reliable_failures"));
  EXPECT_FALSE(failures["failures"][0].contains("reproduced"));
  const Json summary = Json::parse(ReadText(out / "summary.json"));
  EXPECT_FALSE(summary.contains("reliable_failures"));
  EXPECT_FALSE(summary.contains("reproduction_runs"));
  EXPECT_EQ(ReadText(dir.path() / "out.txt").find("reliable"), std::string::npos);
  EXPECT_EQ(ReadText(out / "asg_log.txt").find("scenario 4 "), std::string::npos);
}

}  // namespace
}  // namespace asg::client::testing
