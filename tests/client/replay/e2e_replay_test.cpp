// End-to-end tests of `asg-client replay` (client/replay/replay_run.h): the real asg-client and
// asg-worker run a small search, then replay its top scenarios with captures into a new folder.
#include <gtest/gtest.h>

#include "tests/client/e2e_test.h"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb/stb_image.h>

namespace asg::client::testing {
namespace {

// The small test batch with a bacre search of 30 candidates, 10 per generation, over up to 3 trees
// and 3 bushes.
Json SearchBatch() {
  Json batch = testing::SmallBatch("search", Json::array());
  batch.erase("scenarios");
  batch["search"] = {
      {"strategy", "bacre"},
      {"budget", {{"scenarios", 30}}},
      {"generation_size", 10},
      {"strategy_settings", {{"seed_count", 10}}},
      {"space",
       {{"classes",
         {{{"path_name", testing::kTree}, {"max_count", 3}, {"x", {0, 40}}, {"y", {0, 40}}},
          {{"path_name", kBush}, {"max_count", 3}, {"x", {0, 40}}, {"y", {0, 40}}}}},
        {"start_clearance", 6},
        {"goal_clearance", 6},
        {"path_clearance", 2}}}};
  return batch;
}

std::filesystem::path Folder(const std::filesystem::path& out, int number) {
  char folder[32];
  std::snprintf(folder, sizeof folder, "scenario_%04d", number);
  return out / folder;
}

// The scenarios of `out` sorted by regret, highest first, ties by number.
std::vector<int> RankedNumbers(const std::filesystem::path& out, int count) {
  std::vector<std::pair<double, int>> ranked;
  for (int number = 1; number <= count; ++number) {
    const Json result = testing::Result(out, number);
    if (result.contains("regret"))
      ranked.push_back({-result["regret"]["regret"].get<double>(), number});
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<int> numbers;
  for (const auto& [regret, number] : ranked) numbers.push_back(number);
  return numbers;
}

// Cells in the scenario's first-parent lineage, itself included.
size_t LineageLength(const std::filesystem::path& out, int number) {
  size_t length = 1;
  while (true) {
    const Json record = Json::parse(ReadText(Folder(out, number) / "search.json"));
    if (record["parents"].empty()) return length;
    number = record["parents"][0].get<int>();
    ++length;
  }
}

// Expects the replay of the top-runs ranking: runs 0 and 1 of the two highest-regret scenarios
// of `search`, each the source's scene, in `replay`.
void ExpectTopRunsReplayed(const fs::path& search, const fs::path& replay,
                           const std::vector<int>& ranked) {
  EXPECT_EQ(Json::parse(ReadText(replay / "summary.json"))["total"], 4);
  EXPECT_FALSE(std::filesystem::exists(Folder(replay, 5)));
  const Json record = Json::parse(ReadText(replay / "replay.json"));
  EXPECT_EQ(record["ranking"], "runs");
  ASSERT_EQ(record["scenarios"].size(), 4u);
  for (int number = 1; number <= 4; ++number) {
    const int source = ranked[(number - 1) / 2];
    const Json& entry = record["scenarios"][number - 1];
    EXPECT_EQ(entry["scenario_number"], number);
    EXPECT_EQ(entry["source_scenario"], source);
    EXPECT_EQ(entry["run"], (number - 1) % 2);
    const Json request = Json::parse(ReadText(Folder(replay, number) / "request.json"));
    const Json original = Json::parse(ReadText(Folder(search, source) / "request.json"));
    EXPECT_EQ(request["scene_description"], original["scene_description"]) << number;
    EXPECT_EQ(request["seed"], original["seed"]) << number;
    EXPECT_EQ(request["variation"]["run"], (number - 1) % 2) << number;
    EXPECT_TRUE(std::filesystem::exists(Folder(replay, number) / "captures" /
                                        "ortho_aerial_pad5_annotated.png"))
        << number;
    EXPECT_EQ(testing::Result(replay, number)["status"], "done") << number;
  }
  // Run 0 repeats the source run exactly.
  EXPECT_EQ(testing::Result(replay, 1)["regret"], testing::Result(search, ranked[0])["regret"]);
  // The batch file written is an ordinary batch of full requests.
  const Json replay_batch = Json::parse(ReadText(replay / "replay_batch.json"));
  EXPECT_EQ(replay_batch["scenarios"].size(), 4u);
}

// Expects the mosaic of `replay`: one row per top scenario, as many columns as the longest
// lineage in `search`.
void ExpectFamilyTrees(const fs::path& search, const fs::path& replay,
                       const std::vector<int>& ranked) {
  const std::string png = ReadText(replay / "family_trees.png");
  int width = 0;
  int height = 0;
  int channels = 0;
  stbi_uc* pixels =
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()),
                            static_cast<int>(png.size()), &width, &height, &channels, 3);
  ASSERT_NE(pixels, nullptr);
  stbi_image_free(pixels);
  const size_t columns =
      std::max(LineageLength(search, ranked[0]), LineageLength(search, ranked[1]));
  EXPECT_EQ(width, static_cast<int>(4 + columns * (256 + 4)));
  EXPECT_EQ(height, 4 + 2 * (12 + 256 + 4));
  const Json layout = Json::parse(ReadText(replay / "family_trees.json"));
  EXPECT_EQ(layout["rows"].size(), 2u);
  EXPECT_EQ(layout["rows"][0].back()["scenario_number"], ranked[0]);
}

// Replays `search` with the default ranking into `dir`/distinct and expects the top distinct
// failures: one representative each, the highest max_regret first, never two copies of one.
void ExpectDistinctFailuresReplayed(const fs::path& dir, const fs::path& search) {
  const Json failures = Json::parse(ReadText(search / "failures.json"))["failures"];
  ASSERT_GE(failures.size(), 1u);
  std::vector<std::pair<double, int>> by_regret;  // (-max_regret, failure_id)
  for (const Json& failure : failures) {
    // A failure without a measured regret ranks after every one with one.
    by_regret.push_back({-failure.value("max_regret", -1.0), failure["failure_id"].get<int>()});
  }
  std::sort(by_regret.begin(), by_regret.end());
  const auto distinct = dir / "distinct";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"replay", search.string(), "--top", "2", "--runs", "1", "--out",
                      distinct.string(), "--workers", "2", "-q"},
                     dir / "distinct.txt"),
            0)
      << ReadText(dir / "distinct.txt");
  const Json distinct_record = Json::parse(ReadText(distinct / "replay.json"));
  EXPECT_EQ(distinct_record["ranking"], "distinct_failures");
  const size_t count = std::min<size_t>(2, failures.size());
  ASSERT_EQ(distinct_record["scenarios"].size(), count);
  for (size_t i = 0; i < count; ++i) {
    const Json& failure = failures[by_regret[i].second - 1];
    EXPECT_EQ(distinct_record["scenarios"][i]["source_scenario"], failure["representative"]) << i;
  }
}

TEST(FarmReplay, ReplaysTheTopScenariosWithCapturesAndDrawsTheirFamilyTrees) {
  TempDir dir;
  const auto batch = dir.path() / "batch.json";
  testing::WriteJson(batch, SearchBatch());
  const auto search = dir.path() / "search";
  ASSERT_EQ(RunBatch(batch, search, 2, dir.path() / "search.txt"), 0)
      << ReadText(dir.path() / "search.txt");
  const std::vector<int> ranked = RankedNumbers(search, 30);
  ASSERT_GE(ranked.size(), 2u);

  const auto replay = dir.path() / "replay";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"replay", search.string(), "--top-runs", "2", "--runs", "2", "--captures",
                      "--out", replay.string(), "--workers", "2", "-q"},
                     dir.path() / "replay.txt"),
            0)
      << ReadText(dir.path() / "replay.txt");
  ASSERT_NO_FATAL_FAILURE(ExpectTopRunsReplayed(search, replay, ranked));
  ASSERT_NO_FATAL_FAILURE(ExpectFamilyTrees(search, replay, ranked));
  // By default the top distinct failures are replayed.
  ExpectDistinctFailuresReplayed(dir.path(), search);
}

TEST(FarmReplay, AFolderWithoutScenariosExitsTwoNamingIt) {
  TempDir dir;
  const auto empty = dir.path() / "empty";
  std::filesystem::create_directories(empty);
  EXPECT_EQ(RunToEnd(Executable("asg-client"),
                     {"replay", empty.string(), "--out", (dir.path() / "new").string()},
                     dir.path() / "out.txt"),
            2);
  EXPECT_NE(ReadText(dir.path() / "out.txt").find(empty.string() + ": no scenario folders"),
            std::string::npos)
      << ReadText(dir.path() / "out.txt");
  EXPECT_EQ(RunToEnd(Executable("asg-client"), {"replay", empty.string()}, dir.path() / "out.txt"),
            2);
  EXPECT_EQ(RunToEnd(Executable("asg-client"), {"--help"}, dir.path() / "help.txt"), 0);
  EXPECT_NE(ReadText(dir.path() / "help.txt").find("asg-client replay DIR --out NEW_DIR"),
            std::string::npos);
}

}  // namespace
}  // namespace asg::client::testing
