// End-to-end tests of a batch's search (client/search/search_run.h): the real asg-client and
// asg-worker run a small search; the folders, search.csv and search.json (and a map-elites
// search's archive.csv) are the same with 1 and 2 workers and after an interrupted run resumed,
// also with several runs per candidate.
#include <gtest/gtest.h>
#include <signal.h>

#include <map>
#include <set>
#include <sstream>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

// The small test batch with no listed scenarios and a search of `budget` candidates, 20 per
// generation, over up to 3 trees and 3 bushes.
Json SearchBatch(const std::string& strategy, int budget, const Json& settings) {
  Json batch = testing::SmallBatch("search", Json::array());
  batch.erase("scenarios");
  batch["search"] = {
      {"strategy", strategy},
      {"budget", {{"scenarios", budget}}},
      {"generation_size", 20},
      {"strategy_settings", settings},
      {"space",
       {{"classes",
         {{{"path_name", testing::kTree}, {"max_count", 3}, {"x", {0, 40}}, {"y", {0, 40}}},
          {{"path_name", kBush}, {"max_count", 3}, {"x", {0, 40}}, {"y", {0, 40}}}}},
        {"start_clearance", 6},
        {"goal_clearance", 6},
        {"path_clearance", 2}}}};
  return batch;
}

// Expects `a` and `b` to hold the same folders with the same deterministic files, and the same
// search.csv, search.json and search_candidates.csv.
void ExpectSameSearch(const std::filesystem::path& a, const std::filesystem::path& b) {
  testing::ExpectSameResults(a, b);
  for (const char* file : {"search.csv", "search.json", "search_candidates.csv"}) {
    EXPECT_FALSE(ReadText(a / file).empty()) << file;
    EXPECT_EQ(ReadText(a / file), ReadText(b / file)) << file;
  }
  for (int number = 1; number <= 60; ++number) {
    char folder[40];
    std::snprintf(folder, sizeof folder, "scenario_%04d/search.json", number);
    EXPECT_EQ(ReadText(a / folder), ReadText(b / folder)) << folder;
  }
}

TEST(FarmSearch, OneAndTwoWorkersWriteTheSameFoldersAndLog) {
  TempDir dir;
  const auto batch = dir.path() / "batch.json";
  testing::WriteJson(batch, SearchBatch("bacre", 60, {{"seed_count", 20}}));
  const auto one = dir.path() / "one";
  const auto two = dir.path() / "two";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", one.string(), "--workers", "1"},
                     dir.path() / "one.txt"),
            0)
      << ReadText(dir.path() / "one.txt");
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", two.string(), "--workers", "2", "-q"},
                     dir.path() / "two.txt"),
            0)
      << ReadText(dir.path() / "two.txt");
  ExpectSameSearch(one, two);

  // Every candidate ran once, with a regret, and records where it came from.
  EXPECT_EQ(Json::parse(ReadText(one / "summary.json"))["total"], 60);
  size_t children = 0;
  for (int number = 1; number <= 60; ++number) {
    EXPECT_TRUE(testing::Result(one, number).contains("regret")) << number;
    char folder[32];
    std::snprintf(folder, sizeof folder, "scenario_%04d", number);
    const Json record = Json::parse(ReadText(one / folder / "search.json"));
    EXPECT_EQ(record["candidate_id"], number);
    EXPECT_EQ(record["generation"], (number - 1) / 20);
    if (number <= 20) {
      EXPECT_EQ(record["origin"], "seed");
    }
    if (!record["parents"].empty()) {
      ++children;
      // A parent is an earlier scenario of a generation already told.
      EXPECT_LT(record["parents"][0].get<int>(), number - 20) << folder;
    }
  }
  EXPECT_GT(children, 0u);

  // search.csv: a header and one row per generation; the progress line shows the regret.
  const std::string csv = ReadText(one / "search.csv");
  EXPECT_EQ(csv.rfind("generation,proposals,first_scenario,last_scenario,mean_regret", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_NE(csv.find("\n2,20,41,60,"), std::string::npos) << csv;
  const Json log = Json::parse(ReadText(one / "search.json"));
  EXPECT_EQ(log["strategy"], "bacre");
  EXPECT_EQ(log["generations"].size(), 3u);
  const std::string output = ReadText(dir.path() / "one.txt");
  EXPECT_NE(output.find("[60/60]"), std::string::npos) << output;
  EXPECT_NE(output.find("regret best "), std::string::npos) << output;
  EXPECT_NE(output.find(">=0.375 "), std::string::npos) << output;
  EXPECT_NE(output.find(">=1 "), std::string::npos) << output;
}

// The shipped search of the research workload: 300 bacre candidates, one run each, the built-in
// planner on a 60 m landscape with up to 6 trees and 6 bushes.
TEST(FarmSearch, TheReferenceWorkloadSearchOf300EndsWithItsLogAndARegretInEveryResult) {
  TempDir dir;
  const auto out = dir.path() / "out";
  ASSERT_EQ(
      RunToEnd(Executable("asg-client"),
               {"run",
                (std::filesystem::path(ASG_SOURCE_DIR) / "configs" / "batches" / "search_demo.json")
                    .string(),
                "--out", out.string(), "--workers", "2", "-q"},
               dir.path() / "client.txt", std::chrono::seconds(120)),
      0)
      << ReadText(dir.path() / "client.txt");
  const std::string csv = ReadText(out / "search.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "generation,proposals,first_scenario,last_scenario,mean_regret,max_regret,failures,"
            "best_regret,best_scenario,at_or_above_0.375,at_or_above_0.5,at_or_above_0.75,"
            "at_or_above_1.0,distinct_failures_0.375,distinct_failures_0.5,"
            "distinct_failures_0.75,distinct_failures_1.0");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7) << csv;  // 6 generations of 50
  const Json log = Json::parse(ReadText(out / "search.json"));
  EXPECT_EQ(Json::parse(ReadText(out / "summary.json"))["total"], 300);
  for (int number = 1; number <= 300; ++number) {
    const Json result = testing::Result(out, number);
    EXPECT_EQ(result["status"], "done") << number;
    EXPECT_TRUE(result.contains("regret") && result["regret"].contains("regret")) << number;
  }
  EXPECT_NE(ReadText(dir.path() / "client.txt").find("at or above 0.375: "), std::string::npos);
  EXPECT_EQ(log["generations"].size(), 6u);
}

TEST(FarmSearch, InterruptedSearchResumedEqualsAStraightRun) {
  TempDir dir;
  const auto batch = dir.path() / "batch.json";
  testing::WriteJson(batch, SearchBatch("random", 60, Json::object()));
  const auto straight = dir.path() / "straight";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", straight.string(), "--workers", "2", "-q"},
                     dir.path() / "straight.txt"),
            0);

  // The worker hangs on scenario 25 (the second generation), so the search is mid-way.
  const auto resumed = dir.path() / "resumed";
  std::string first_output;
  ASSERT_EQ(testing::RunInterruptedAt(batch, resumed, 25, dir.path() / "first.txt", &first_output),
            130)
      << first_output;
  EXPECT_EQ(Json::parse(ReadText(resumed / "summary.json"))["total"], 24);
  EXPECT_FALSE(std::filesystem::exists(resumed / "scenario_0025"));
  EXPECT_EQ(Json::parse(ReadText(resumed / "search.json"))["generations"].size(), 1u);

  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", resumed.string(), "--workers", "2",
                      "--resume", "-q"},
                     dir.path() / "second.txt"),
            0)
      << ReadText(dir.path() / "second.txt");
  EXPECT_NE(ReadText(resumed / "asg_log.txt").find("resume: 24 scenarios already complete"),
            std::string::npos);
  ExpectSameSearch(straight, resumed);

  // Resuming a finished search runs nothing and writes the same log.
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", resumed.string(), "--workers", "2",
                      "--resume", "-q"},
                     dir.path() / "third.txt"),
            0)
      << ReadText(dir.path() / "third.txt");
  EXPECT_NE(
      ReadText(resumed / "asg_log.txt").find("resume: 60 scenarios already complete, 0 to run"),
      std::string::npos);
  ExpectSameSearch(straight, resumed);
}

// The second line (the first sample) of a scenario's trajectory.csv.
std::string FirstSample(const std::filesystem::path& out, int number) {
  char folder[32];
  std::snprintf(folder, sizeof folder, "scenario_%04d", number);
  const std::string csv = ReadText(out / folder / "trajectory.csv");
  const size_t first = csv.find('\n') + 1;
  return csv.substr(first, csv.find('\n', first) - first);
}

TEST(FarmSearch, ThreeRunsPerCandidateAreTheSameWithOneAndTwoWorkersAndToldTheirMean) {
  TempDir dir;
  const auto batch = dir.path() / "batch.json";
  Json json = SearchBatch("random", 6, Json::object());
  json["search"]["runs_per_scenario"] = 3;
  json["search"]["generation_size"] = 3;
  testing::WriteJson(batch, json);
  const auto one = dir.path() / "one";
  const auto two = dir.path() / "two";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", one.string(), "--workers", "1", "-q"},
                     dir.path() / "one.txt"),
            0)
      << ReadText(dir.path() / "one.txt");
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", two.string(), "--workers", "2", "-q"},
                     dir.path() / "two.txt"),
            0)
      << ReadText(dir.path() / "two.txt");
  ExpectSameSearch(one, two);
  EXPECT_EQ(Json::parse(ReadText(one / "summary.json"))["total"], 18);

  // Candidate c is scenarios 3c-2..3c, its runs 0, 1, 2 from the same scene and seed.
  const std::string candidates = ReadText(one / "search_candidates.csv");
  EXPECT_EQ(std::count(candidates.begin(), candidates.end(), '\n'), 7) << candidates;
  for (int candidate = 1; candidate <= 6; ++candidate) {
    const int first = 3 * candidate - 2;
    double sum = 0.0;
    for (int run = 0; run < 3; ++run) {
      char folder[32];
      std::snprintf(folder, sizeof folder, "scenario_%04d", first + run);
      const Json record = Json::parse(ReadText(one / folder / "search.json"));
      EXPECT_EQ(record["candidate_id"], candidate);
      EXPECT_EQ(record["run"], run);
      EXPECT_EQ(record["runs"], Json({first, first + 1, first + 2}));
      const Json request = Json::parse(ReadText(one / folder / "request.json"));
      EXPECT_EQ(request["variation"]["run"], run);
      const Json result = testing::Result(one, first + run);
      ASSERT_TRUE(result.contains("regret")) << folder;
      sum += result["regret"]["regret"].get<double>();
    }
    // The three runs start from different poses.
    EXPECT_NE(FirstSample(one, first), FirstSample(one, first + 1));
    EXPECT_NE(FirstSample(one, first), FirstSample(one, first + 2));
    EXPECT_NE(FirstSample(one, first + 1), FirstSample(one, first + 2));
    // The candidate's row holds the mean of its runs' regrets: what the strategy was told.
    char prefix[64];
    std::snprintf(prefix, sizeof prefix, "\n%d,%d,%d %d %d,", candidate, (candidate - 1) / 3, first,
                  first + 1, first + 2);
    const size_t row = candidates.find(prefix);
    ASSERT_NE(row, std::string::npos) << prefix << " in " << candidates;
    const double told = std::stod(candidates.substr(row + std::string(prefix).size()));
    EXPECT_NEAR(told, sum / 3.0, 1e-6) << candidates;
  }
  // search.csv: one row per generation of 3 candidates, 9 scenarios each.
  const std::string csv = ReadText(one / "search.csv");
  EXPECT_NE(csv.find("\n0,3,1,9,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n1,3,10,18,"), std::string::npos) << csv;
}

TEST(FarmSearch, ACandidateInterruptedBetweenItsRunsIsResumedToTheSameSearch) {
  TempDir dir;
  const auto batch = dir.path() / "batch.json";
  Json json = SearchBatch("random", 4, Json::object());
  json["search"]["runs_per_scenario"] = 3;
  json["search"]["generation_size"] = 2;
  testing::WriteJson(batch, json);
  const auto straight = dir.path() / "straight";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", straight.string(), "--workers", "2", "-q"},
                     dir.path() / "straight.txt"),
            0);
  // The worker hangs on scenario 8, run 1 of candidate 3: its run 0 is kept, runs 1 and 2 not.
  const auto resumed = dir.path() / "resumed";
  std::string first_output;
  ASSERT_EQ(testing::RunInterruptedAt(batch, resumed, 8, dir.path() / "first.txt", &first_output),
            130)
      << first_output;
  EXPECT_EQ(Json::parse(ReadText(resumed / "summary.json"))["total"], 7);
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", resumed.string(), "--workers", "2",
                      "--resume", "-q"},
                     dir.path() / "second.txt"),
            0)
      << ReadText(dir.path() / "second.txt");
  ExpectSameSearch(straight, resumed);
}

// The rows of a CSV text after its header, each split at its commas.
std::vector<std::vector<std::string>> CsvRows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    std::string cell;
    while (std::getline(fields, cell, ',')) cells.push_back(cell);
    rows.push_back(std::move(cells));
  }
  return rows;
}

TEST(FarmSearch, AMapElitesSearchWritesItsArchiveAndResumesToTheSameOne) {
  TempDir dir;
  const auto batch = dir.path() / "batch.json";
  testing::WriteJson(batch, SearchBatch("map-elites", 60, {{"seed_count", 20}}));
  const auto straight = dir.path() / "straight";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", straight.string(), "--workers", "1", "-q"},
                     dir.path() / "straight.txt"),
            0)
      << ReadText(dir.path() / "straight.txt");
  const auto resumed = dir.path() / "resumed";
  std::string first_output;
  ASSERT_EQ(testing::RunInterruptedAt(batch, resumed, 25, dir.path() / "first.txt", &first_output),
            130)
      << first_output;
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", resumed.string(), "--workers", "2",
                      "--resume", "-q"},
                     dir.path() / "second.txt"),
            0)
      << ReadText(dir.path() / "second.txt");
  ExpectSameSearch(straight, resumed);
  const std::string archive = ReadText(straight / "archive.csv");
  EXPECT_EQ(ReadText(resumed / "archive.csv"), archive);

  // One block of cells per told generation; every elite is a told candidate, its regret the
  // mean search_candidates.csv gives it, its scenario its first run; cells differ in a block.
  EXPECT_EQ(archive.substr(0, archive.find('\n')),
            "generation,cell_x,cell_y,outcome,near_path,candidate_id,scenario,regret");
  std::map<std::string, std::string> mean_of_id;
  for (const auto& row : CsvRows(ReadText(straight / "search_candidates.csv"))) {
    mean_of_id[row[0]] = row[3];
  }
  std::map<int, std::set<std::string>> cells_of_generation;
  std::map<int, std::set<int>> elites_of_generation;
  for (const auto& row : CsvRows(archive)) {
    ASSERT_EQ(row.size(), 8u);
    const int generation = std::stoi(row[0]);
    EXPECT_TRUE(cells_of_generation[generation]
                    .insert(row[1] + "," + row[2] + "," + row[3] + "," + row[4])
                    .second)
        << "a cell twice in generation " << generation;
    elites_of_generation[generation].insert(std::stoi(row[5]));
    EXPECT_LE(std::stoi(row[5]), 20 * (generation + 1));
    EXPECT_EQ(row[6], row[5]);  // one run per candidate, numbered from 1
    EXPECT_EQ(row[7], mean_of_id.at(row[5]));
    EXPECT_TRUE(row[3] == "none" || row[3] == "collision" || row[3] == "stuck" ||
                row[3] == "timeout" || row[3] == "flip" || row[3] == "high_regret" ||
                row[3] == "contact" || row[3] == "out_of_bounds")
        << row[3];
  }
  EXPECT_EQ(cells_of_generation.size(), 3u);
  // An elite is kept until a higher regret takes its cell, so no generation has fewer cells.
  EXPECT_LE(cells_of_generation[0].size(), cells_of_generation[2].size());
  // Generations 0 and 1 are asked before any tell: seeds. Generation 2 is asked once generation
  // 0 is told: each of its candidates is a child of an elite of that archive.
  for (int number = 1; number <= 60; ++number) {
    char folder[40];
    std::snprintf(folder, sizeof folder, "scenario_%04d/search.json", number);
    const Json record = Json::parse(ReadText(straight / folder));
    if (number <= 40) {
      EXPECT_EQ(record["origin"], "seed") << folder;
      continue;
    }
    ASSERT_EQ(record["parents"].size(), 1u) << folder;
    EXPECT_EQ(elites_of_generation[0].count(record["parents"][0].get<int>()), 1u) << folder;
  }
}

}  // namespace
}  // namespace asg::client::testing
