// Tests for results/folder.h.
#include "results/folder.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include "results/files.h"
#include "tests/file_size_limit.h"
#include "tests/temp_dir.h"

namespace asg::results {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

ScenarioRecord SampleRecord(uint32_t number) {
  ScenarioRecord record;
  record.request = {{"scenario_number", number}, {"goal_radius", 5.0}, {"seed", 11}};
  protocol::AnalyzeScenarioRequest analysis;
  analysis.worker_id = 3;
  analysis.scenario_number = static_cast<uint16_t>(number);
  analysis.termination_reason = protocol::TerminationReason::REASON_SUCCESS;
  analysis.vehicle_sim_time = 9.5;
  record.result = DoneResult(analysis, 11);
  protocol::OdometryWithoutCovariance sample;
  sample.header.stamp = {2, 0};
  sample.pose.position = {1, 2, 3};
  record.trajectory = {sample};
  record.captures = {{"ortho_aerial_pad0", std::string("\x89PNG\r\n", 6)}};
  record.timing.worker_id = 3;
  record.timing.wall_time_s = 4.25;
  record.timing.attempts = {{1, 3, 4.25, "done", ""}};
  return record;
}

TEST(ScenarioFolderTest, NamesHaveFourDigits) {
  EXPECT_EQ(ScenarioFolderName(1), "scenario_0001");
  EXPECT_EQ(ScenarioFolderName(12345), "scenario_12345");
  EXPECT_EQ(ScenarioFolder("/out", 7), fs::path("/out/scenario_0007"));
  EXPECT_EQ(ScenarioFolderName(3, "planner"), "scenario_0003_planner");
}

TEST(ScenarioFolderTest, NamesParseBackToNumberAndVariant) {
  using Parsed = std::optional<std::pair<uint32_t, std::string>>;
  EXPECT_EQ(ParseScenarioFolderName("scenario_0007"), (Parsed{{7, ""}}));
  EXPECT_EQ(ParseScenarioFolderName("scenario_12345"), (Parsed{{12345, ""}}));
  EXPECT_EQ(ParseScenarioFolderName("scenario_0003_planner"), (Parsed{{3, "planner"}}));
  for (const char* other : {"scenario_07", "scenario_0007_", "scenario_0000", "scenario_x",
                            "scenario_0007-x", "logs", "scenario_"}) {
    EXPECT_EQ(ParseScenarioFolderName(other), std::nullopt) << other;
  }
}

TEST(WriteScenarioFolderTest, WritesEveryFileAndNoStagingFolderRemains) {
  testutil::TempDir dir;
  const fs::path batch_dir = dir.path() / "run";
  WriteScenarioFolder(batch_dir, SampleRecord(1));
  const fs::path folder = batch_dir / "scenario_0001";
  for (const char* file : {"request.json", "result.json", "timing.json", "trajectory.csv",
                           "captures/ortho_aerial_pad0.png"}) {
    EXPECT_TRUE(fs::is_regular_file(folder / file)) << file;
  }
  EXPECT_EQ(ReadAll(folder / "captures/ortho_aerial_pad0.png"), std::string("\x89PNG\r\n", 6));
  size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(batch_dir)) {
    EXPECT_EQ(entry.path().filename(), "scenario_0001");
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
  EXPECT_TRUE(ScenarioFolderComplete(batch_dir, 1));
  EXPECT_FALSE(ScenarioFolderComplete(batch_dir, 2));
  EXPECT_EQ(ReadAll(folder / "trajectory.csv").substr(0, 68),
            "t,x,y,z,roll,pitch,yaw,vx,vy,vz,wx,wy,wz,vx_world,vy_world,vz_world\n");
  EXPECT_EQ(ReadJsonFile(folder / "request.json")["goal_radius"], 5.0);
}

TEST(WriteScenarioFolderTest, ResultJsonIsDeterministicAndWithoutTiming) {
  testutil::TempDir dir;
  WriteScenarioFolder(dir.path() / "a", SampleRecord(4));
  ScenarioRecord other_run = SampleRecord(4);
  other_run.timing.worker_id = 9;
  other_run.timing.wall_time_s = 77.0;
  WriteScenarioFolder(dir.path() / "b", other_run);
  const std::string a = ReadAll(dir.path() / "a/scenario_0004/result.json");
  EXPECT_EQ(a, ReadAll(dir.path() / "b/scenario_0004/result.json"));
  EXPECT_NE(ReadAll(dir.path() / "a/scenario_0004/timing.json"),
            ReadAll(dir.path() / "b/scenario_0004/timing.json"));
  const Json result = Json::parse(a);
  EXPECT_EQ(result["termination_reason_name"], "REASON_SUCCESS");
  EXPECT_EQ(result["captures"], Json::parse(R"(["ortho_aerial_pad0.png"])"));
  EXPECT_FALSE(result.contains("wall_time_s"));
  EXPECT_FALSE(result.contains("worker_id"));
  EXPECT_EQ(a.back(), '\n');
}

TEST(WriteScenarioFolderTest, RewritingReplacesTheWholeFolder) {
  testutil::TempDir dir;
  WriteScenarioFolder(dir.path(), SampleRecord(2));
  ScenarioRecord failed = SampleRecord(2);
  failed.result.status = ScenarioStatus::kFailed;
  failed.result.error = "worker crashed";
  failed.captures.clear();
  WriteScenarioFolder(dir.path(), failed);
  EXPECT_FALSE(fs::exists(dir.path() / "scenario_0002/captures"));
  const auto outcome = LoadScenarioOutcome(dir.path(), 2);
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->result.status, ScenarioStatus::kFailed);
  EXPECT_EQ(outcome->result.error, "worker crashed");
  EXPECT_EQ(RemoveStagingFolders(dir.path()), 0u);
}

TEST(LoadScenarioOutcomeTest, ReadsBackWhatWasWritten) {
  testutil::TempDir dir;
  const ScenarioRecord record = SampleRecord(3);
  WriteScenarioFolder(dir.path(), record);
  const auto outcome = LoadScenarioOutcome(dir.path(), 3);
  ASSERT_TRUE(outcome.has_value());
  ScenarioResult expected = record.result;
  expected.captures = {"ortho_aerial_pad0.png"};
  EXPECT_EQ(outcome->result, expected);
  EXPECT_EQ(outcome->timing, record.timing);
  EXPECT_FALSE(LoadScenarioOutcome(dir.path(), 5).has_value());
}

TEST(LoadScenarioOutcomeTest, CorruptResultIsAnErrorAndNotComplete) {
  testutil::TempDir dir;
  WriteScenarioFolder(dir.path(), SampleRecord(6));
  std::ofstream(dir.path() / "scenario_0006/result.json") << "{\"status\": ";
  EXPECT_FALSE(ScenarioFolderComplete(dir.path(), 6));
  EXPECT_THROW(LoadScenarioOutcome(dir.path(), 6), ResultError);
}

TEST(WriteScenarioFolderTest, RejectsCaptureNamesThatAreNotPlainFileNames) {
  testutil::TempDir dir;
  ScenarioRecord record = SampleRecord(1);
  record.captures = {{"../escape", "x"}};
  EXPECT_THROW(WriteScenarioFolder(dir.path(), record), ResultError);
  EXPECT_FALSE(fs::exists(dir.path() / "scenario_0001"));
}

TEST(ReadScenarioFolderTest, ReadsBackEveryFileOfAWrittenFolder) {
  testutil::TempDir dir;
  const ScenarioRecord record = SampleRecord(4);
  WriteScenarioFolder(dir.path(), record);
  const fs::path folder = dir.path() / "scenario_0004";
  fs::create_directories(folder / "nodes" / "planner" / "logs");
  WriteFileSynced(folder / "nodes" / "planner" / "logs" / "b.txt", "b");
  WriteFileSynced(folder / "nodes" / "planner" / "a.txt", "a");

  const StoredScenario stored = ReadScenarioFolder(folder);
  ScenarioResult expected = record.result;
  expected.captures = {"ortho_aerial_pad0.png"};
  EXPECT_EQ(stored.result, expected);
  EXPECT_EQ(stored.result_text, ReadAll(folder / "result.json"));
  ASSERT_TRUE(stored.timing.has_value());
  EXPECT_EQ(*stored.timing, record.timing);
  EXPECT_EQ(stored.request, record.request);
  EXPECT_EQ(stored.request_text, ReadAll(folder / "request.json"));
  ASSERT_EQ(stored.trajectory.size(), 1u);
  EXPECT_EQ(stored.trajectory[0].t, 2.0);
  EXPECT_EQ(stored.trajectory[0].y, 2.0);
  EXPECT_EQ(stored.captures, std::vector<std::string>{"ortho_aerial_pad0.png"});
  EXPECT_EQ(stored.node_files, (std::vector<std::string>{"planner/a.txt", "planner/logs/b.txt"}));

  // Only result.json is required; the rest is read when present.
  for (const char* file : {"timing.json", "request.json", "trajectory.csv"}) {
    fs::remove(folder / file);
  }
  fs::remove_all(folder / "captures");
  const StoredScenario bare = ReadScenarioFolder(folder);
  EXPECT_FALSE(bare.timing.has_value());
  EXPECT_TRUE(bare.request.is_null());
  EXPECT_EQ(bare.request_text, "");
  EXPECT_TRUE(bare.trajectory.empty());
  EXPECT_TRUE(bare.captures.empty());
}

TEST(StoredScenarioOfTest, HoldsWhatTheWrittenFolderReadsBackAs) {
  testutil::TempDir dir;
  ScenarioRecord record = SampleRecord(8);
  record.trajectory[0].pose.orientation = {0.0, 0.0, 0.38268343236508978, 0.92387953251128674};
  record.trajectory[0].twist.linear = {0.1, 0.2, 0.30000000000000004};
  record.captures.clear();
  WriteScenarioFolder(dir.path(), record);
  const StoredScenario read = ReadScenarioFolder(dir.path() / "scenario_0008");
  const StoredScenario held = StoredScenarioOf(record);
  EXPECT_EQ(held.result, read.result);
  EXPECT_EQ(held.request, read.request);
  ASSERT_EQ(held.trajectory.size(), 1u);
  const TrajectoryRow& a = held.trajectory[0];
  const TrajectoryRow& b = read.trajectory[0];
  EXPECT_EQ(std::tie(a.t, a.x, a.y, a.z, a.roll, a.pitch, a.yaw, a.vx, a.vy, a.vz),
            std::tie(b.t, b.x, b.y, b.z, b.roll, b.pitch, b.yaw, b.vx, b.vy, b.vz));
  EXPECT_EQ(std::tie(a.wx, a.wy, a.wz, a.vx_world, a.vy_world, a.vz_world),
            std::tie(b.wx, b.wy, b.wz, b.vx_world, b.vy_world, b.vz_world));
}

TEST(ReadScenarioFolderTest, NamesTheFileThatCannotBeRead) {
  testutil::TempDir dir;
  WriteScenarioFolder(dir.path(), SampleRecord(5));
  const fs::path folder = dir.path() / "scenario_0005";
  WriteFileSynced(folder / "timing.json", "{\"worker_id\": 1}");
  try {
    ReadScenarioFolder(folder);
    FAIL() << "no error";
  } catch (const ResultError& error) {
    EXPECT_NE(std::string(error.what()).find((folder / "timing.json").string()), std::string::npos)
        << error.what();
  }
  fs::remove(folder / "result.json");
  EXPECT_THROW(ReadScenarioFolder(folder), ResultError);
}

TEST(ListScenarioFoldersTest, ListsScenarioFoldersByNumberWithTheirVariants) {
  testutil::TempDir dir;
  WriteScenarioFolder(dir.path(), SampleRecord(10));
  ScenarioRecord variant = SampleRecord(2);
  variant.result.variant = "planner";
  WriteScenarioFolder(dir.path(), variant);
  WriteScenarioFolder(dir.path(), SampleRecord(3));
  for (const char* other : {"logs", "scenario_07", "scenario_0004_", ".scenario_0005.tmp-1"}) {
    fs::create_directories(dir.path() / other);
  }
  std::ofstream(dir.path() / "scenario_0006");  // a file, not a folder
  const std::vector<std::pair<uint32_t, std::string>> expected = {
      {2, "planner"}, {3, ""}, {10, ""}};
  EXPECT_EQ(ListScenarioFolders(dir.path()), expected);
  try {
    ListScenarioFolders(dir.path() / "missing");
    FAIL() << "listed a missing folder";
  } catch (const ResultError& error) {
    EXPECT_TRUE(std::string(error.what())
                    .starts_with((dir.path() / "missing").string() + ": cannot list the folder: "))
        << error.what();
  }
}

TEST(ScenarioFolderCompleteTest, ALinkedFolderOrFileIsNotTheBatchsOwn) {
  testutil::TempDir dir;
  const fs::path batch = dir.path() / "batch";
  const fs::path outside = dir.path() / "outside";
  WriteScenarioFolder(outside, SampleRecord(5));
  fs::create_directories(batch);
  fs::create_directory_symlink(ScenarioFolder(outside, 5), ScenarioFolder(batch, 5));
  EXPECT_TRUE(ScenarioFolderComplete(outside, 5));
  EXPECT_FALSE(ScenarioFolderComplete(batch, 5));
  EXPECT_TRUE(ListScenarioFolders(batch).empty());
  // A real folder whose result.json is a link is not complete either.
  WriteScenarioFolder(batch / "real", SampleRecord(5));
  fs::remove(ScenarioFolder(batch / "real", 5) / "result.json");
  fs::create_symlink(ScenarioFolder(outside, 5) / "result.json",
                     ScenarioFolder(batch / "real", 5) / "result.json");
  EXPECT_FALSE(ScenarioFolderComplete(batch / "real", 5));
}

TEST(RemoveStagingFoldersTest, RemovesOnlyStagingFolders) {
  testutil::TempDir dir;
  WriteScenarioFolder(dir.path(), SampleRecord(1));
  fs::create_directories(dir.path() / ".scenario_0002.tmp-123/captures");
  fs::create_directories(dir.path() / ".scenario_0001.old.tmp-123");
  EXPECT_EQ(RemoveStagingFolders(dir.path()), 2u);
  EXPECT_TRUE(fs::exists(dir.path() / "scenario_0001"));
  EXPECT_FALSE(fs::exists(dir.path() / ".scenario_0002.tmp-123"));
}

TEST(WriteFileAtomicallyTest, ReplacesContentAndLeavesNoTemporary) {
  testutil::TempDir dir;
  WriteFileAtomically(dir.path() / "f.txt", "one");
  WriteFileAtomically(dir.path() / "f.txt", "two");
  EXPECT_EQ(ReadAll(dir.path() / "f.txt"), "two");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(WriteFilesAtomicallyTest, ReplacesEveryFileOfTheGroupAndLeavesNoTemporary) {
  testutil::TempDir dir;
  WriteFileAtomically(dir.path() / "a.txt", "old a");
  WriteFilesAtomically({{dir.path() / "a.txt", "new a"}, {dir.path() / "b.txt", "new b"}});
  EXPECT_EQ(ReadAll(dir.path() / "a.txt"), "new a");
  EXPECT_EQ(ReadAll(dir.path() / "b.txt"), "new b");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 2);
  WriteFilesAtomically({});  // nothing to write, nothing synced
  EXPECT_THROW(WriteFilesAtomically({{dir.path() / "missing" / "c.txt", "c"}}), ResultError);
}

TEST(WriteScenarioFolderTest, AWriteThatFailsHalfWayLeavesNoStagingFolder) {
  testutil::TempDir dir;
  ScenarioRecord record = SampleRecord(3);
  record.captures.push_back({"front_aerial", std::string(64 * 1024, 'p')});
  {
    const testutil::FileSizeLimit limit(4096);  // the capture does not fit, as on a full disk
    try {
      WriteScenarioFolder(dir.path(), record);
      FAIL() << "no error";
    } catch (const ResultError& error) {
      EXPECT_NE(std::string(error.what()).find("front_aerial.png: cannot write: File too large"),
                std::string::npos)
          << error.what();
    }
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
  EXPECT_EQ(RemoveStagingFolders(dir.path()), 0u);
}

// The message LoadCheckedScenarioOutcomeAt throws for `folder`, or "" when it reads it.
std::string CheckedError(const fs::path& folder, uint32_t number) {
  try {
    LoadCheckedScenarioOutcomeAt(folder, number);
  } catch (const ResultError& error) {
    return error.what();
  }
  return "";
}

TEST(LoadCheckedScenarioOutcomeTest, ReadsEveryFileStrictlyAndNamesTheOneThatIsNotWhole) {
  testutil::TempDir dir;
  const fs::path folder = dir.path() / "scenario_0007";
  const auto reset = [&] {
    fs::remove_all(folder);
    WriteScenarioFolder(dir.path(), SampleRecord(7));
  };
  reset();
  const std::optional<ScenarioOutcome> outcome = LoadCheckedScenarioOutcomeAt(folder, 7);
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->result.scenario_number, 7u);
  EXPECT_FALSE(LoadCheckedScenarioOutcomeAt(dir.path() / "scenario_0008", 8).has_value());

  const auto broken = [&](const char* file, const std::string& content) {
    reset();
    WriteFileSynced(folder / file, content);
    return CheckedError(folder, 7);
  };
  const std::string trajectory = (folder / "trajectory.csv").string();
  const std::string trajectory_text = ReadAll(trajectory);
  const std::string timing = ReadAll(folder / "timing.json");
  EXPECT_EQ(broken("trajectory.csv", ""), trajectory + ": no header line (the file is empty)");
  EXPECT_EQ(broken("trajectory.csv", trajectory_text.substr(0, trajectory_text.size() - 3)),
            trajectory + ": the last line is cut short (no newline at the end)");
  EXPECT_NE(broken("request.json", "garbage").find((folder / "request.json").string() + ": "),
            std::string::npos);
  EXPECT_EQ(broken("request.json", "[1, 2]"),
            (folder / "request.json").string() + ": not a JSON object");
  EXPECT_EQ(broken("request.json", "{\"scenario_number\": 8}"),
            (folder / "request.json").string() + ": scenario_number is 8, expected 7");
  EXPECT_NE(broken("timing.json", timing.substr(0, timing.size() / 2))
                .find((folder / "timing.json").string() + ": "),
            std::string::npos);
  EXPECT_NE(broken("search.json", "{").find((folder / "search.json").string() + ": "),
            std::string::npos);
  EXPECT_EQ(broken("captures/ortho_aerial_pad0.png", ""),
            (folder / "captures" / "ortho_aerial_pad0.png").string() +
                ": missing or empty (result.json lists it)");
  reset();
  fs::remove(folder / "timing.json");
  EXPECT_EQ(CheckedError(folder, 7), (folder / "timing.json").string() + ": missing");
}

}  // namespace
}  // namespace asg::results
