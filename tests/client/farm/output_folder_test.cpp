// Tests for client/farm/output_folder.h: empty or forced folders, batch identity on --resume, kept
// logs, and which stored outcomes --retry failed keeps.
#include "client/farm/output_folder.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "results/files.h"
#include "results/folder.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using testutil::TempDir;

Batch Parse(const std::string& text) { return ParseBatchText(text, "b.json", "b"); }

const char* kBatch = R"({"scenarios": [{"goal_radius": 3}, {"goal_radius": 4}]})";
const char* kOther = R"({"scenarios": [{"goal_radius": 3}, {"goal_radius": 9}]})";

void Touch(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "x";
}

std::string ErrorOf(const Batch& batch, const fs::path& dir, const OutputFolderUse& use) {
  try {
    PrepareOutputFolder(batch, dir, use);
  } catch (const OutputFolderError& error) {
    return error.what();
  }
  return "";
}

// A complete folder of scenario `number` of `batch` with `status`.
void StoreScenario(const Batch& batch, const fs::path& dir, uint32_t number,
                   results::ScenarioStatus status) {
  results::ScenarioRecord record;
  record.request = batch.Find(number)->request_json;
  record.result = results::UnrunnableResult(number, status, "test", 1);
  results::WriteScenarioFolder(dir, record);
}

TEST(BatchIdentityTest, FollowsTheExpandedRequests) {
  EXPECT_EQ(BatchIdentity(Parse(kBatch)), BatchIdentity(Parse(kBatch)));
  EXPECT_EQ(BatchIdentity(Parse(kBatch)).size(), 16u);
  EXPECT_NE(BatchIdentity(Parse(kBatch)), BatchIdentity(Parse(kOther)));
  // The same requests written differently are the same batch.
  EXPECT_EQ(BatchIdentity(Parse(kBatch)), BatchIdentity(Parse(R"({"defaults": {"goal_radius": 3},
                                    "scenarios": [{}, {"goal_radius": 4}]})")));
}

TEST(OutputFolderTest, ANonEmptyFolderIsRefusedUnlessForcedOrResumed) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  EXPECT_EQ(ErrorOf(Parse(kBatch), out, {}), "");  // missing: created
  EXPECT_TRUE(fs::exists(out / "batch_identity.json"));
  Touch(out / "stray.txt");
  const std::string error = ErrorOf(Parse(kBatch), out, {});
  EXPECT_EQ(error, out.string() +
                       " is not empty (2 entries): --resume continues the batch it holds, "
                       "--force empties it first");
  EXPECT_EQ(ErrorOf(Parse(kBatch), out, {.resume = true}), "");
  EXPECT_TRUE(fs::exists(out / "stray.txt"));
  EXPECT_EQ(ErrorOf(Parse(kBatch), out, {.force = true}), "");
  EXPECT_FALSE(fs::exists(out / "stray.txt"));
  EXPECT_TRUE(fs::exists(out / "batch_identity.json"));
  Touch(dir.path() / "file");
  EXPECT_EQ(ErrorOf(Parse(kBatch), dir.path() / "file", {}),
            (dir.path() / "file").string() + ": exists and is not a folder");
}

TEST(OutputFolderTest, ALinkInsideIsRefusedNamedBeforeAnythingIsWrittenOrRemoved) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const fs::path outside = dir.path() / "outside";
  const Batch batch = Parse(kBatch);
  ASSERT_EQ(ErrorOf(batch, out, {}), "");
  StoreScenario(batch, out, 1, results::ScenarioStatus::kDone);
  Touch(outside / "kept.txt");
  fs::create_directory_symlink(outside, out / "scenario_0001" / "captures");
  const std::string named = (out / "scenario_0001" / "captures").string() +
                            " is a symbolic link (to " + outside.string() + ")";
  for (const OutputFolderUse use : {OutputFolderUse{.resume = true}, OutputFolderUse{.force = true},
                                    OutputFolderUse{.checked = true}}) {
    const std::string error = ErrorOf(batch, out, use);
    EXPECT_NE(error.find(named), std::string::npos) << error;
    EXPECT_TRUE(fs::is_symlink(out / "scenario_0001" / "captures"));
    EXPECT_TRUE(fs::exists(out / "scenario_0001" / "result.json")) << "nothing removed";
  }
  EXPECT_EQ(fs::directory_iterator(outside)->path(), outside / "kept.txt");
}

TEST(OutputFolderTest, TheFolderItselfMayBeALink) {
  TempDir dir;
  const Batch batch = Parse(kBatch);
  ASSERT_EQ(ErrorOf(batch, dir.path() / "real", {}), "");
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "named");
  EXPECT_EQ(ErrorOf(batch, dir.path() / "named", {.resume = true}), "");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "named"));
}

TEST(OutputFolderTest, ResumeRefusesAnotherBatchNamingTheFirstScenarioThatDiffers) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const Batch batch = Parse(kBatch);
  ASSERT_EQ(ErrorOf(batch, out, {}), "");
  StoreScenario(batch, out, 1, results::ScenarioStatus::kDone);
  StoreScenario(batch, out, 2, results::ScenarioStatus::kDone);
  EXPECT_EQ(ErrorOf(batch, out, {.resume = true}), "");
  const std::string error = ErrorOf(Parse(kOther), out, {.resume = true});
  EXPECT_NE(error.find("--resume: " + out.string() + " holds another batch (\"b\" from \"b.json\""),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("scenario 2 (scenarios[1]) differs from " +
                       (out / "scenario_0002" / "request.json").string()),
            std::string::npos)
      << error;
  // Without an identity file the stored requests still decide.
  fs::remove(out / "batch_identity.json");
  EXPECT_NE(ErrorOf(Parse(kOther), out, {.resume = true}).find("scenario 2"), std::string::npos);
  EXPECT_EQ(ErrorOf(batch, out, {.resume = true}), "");
}

TEST(OutputFolderTest, EarlierLogsAreKeptNumbered) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  const Batch batch = Parse(kBatch);
  ASSERT_EQ(ErrorOf(batch, out, {}), "");
  Touch(out / "logs" / "worker_1.log");
  ASSERT_EQ(ErrorOf(batch, out, {.resume = true}), "");
  EXPECT_TRUE(fs::exists(out / "logs.1" / "worker_1.log"));
  Touch(out / "logs" / "worker_1.log");
  ASSERT_EQ(ErrorOf(batch, out, {.resume = true}), "");
  EXPECT_TRUE(fs::exists(out / "logs.2" / "worker_1.log"));
  EXPECT_FALSE(fs::exists(out / "logs"));
}

TEST(OutputFolderTest, RetryFailedRunsFailedScenariosAgain) {
  TempDir dir;
  const Batch batch = Parse(kBatch);
  StoreScenario(batch, dir.path(), 1, results::ScenarioStatus::kDone);
  StoreScenario(batch, dir.path(), 2, results::ScenarioStatus::kFailed);
  EXPECT_TRUE(KeptOutcome(dir.path(), 1, false).has_value());
  EXPECT_TRUE(KeptOutcome(dir.path(), 2, false).has_value());
  EXPECT_TRUE(KeptOutcome(dir.path(), 1, true).has_value());
  EXPECT_FALSE(KeptOutcome(dir.path(), 2, true).has_value());
  EXPECT_FALSE(KeptOutcome(dir.path(), 3, false).has_value());
}

TEST(OutputFolderTest, AKeptFolderThatIsNotWholeIsNamedAndRunAgain) {
  TempDir dir;
  const Batch batch = Parse(kBatch);
  StoreScenario(batch, dir.path(), 1, results::ScenarioStatus::kDone);
  StoreScenario(batch, dir.path(), 2, results::ScenarioStatus::kDone);
  const fs::path folder = results::ScenarioFolder(dir.path(), 2);
  std::string problem = "unchanged";
  EXPECT_TRUE(KeptOutcome(dir.path(), 2, false, {}, &problem).has_value());
  EXPECT_EQ(problem, "unchanged");  // told only when a folder is not kept
  for (const char* file : {"trajectory.csv", "request.json", "timing.json"}) {
    StoreScenario(batch, dir.path(), 2, results::ScenarioStatus::kDone);
    // An empty trajectory, garbage for a request, a timing cut in half.
    const std::string text = results::ReadTextFile(folder / file);
    results::WriteFileSynced(folder / file, std::string(file) == "trajectory.csv" ? ""
                                            : std::string(file) == "request.json"
                                                ? "garbage"
                                                : text.substr(0, text.size() / 2));
    problem.clear();
    EXPECT_FALSE(KeptOutcome(dir.path(), 2, false, {}, &problem).has_value()) << file;
    EXPECT_EQ(problem.rfind((folder / file).string() + ": ", 0), 0u) << problem;
  }
  problem.clear();
  EXPECT_FALSE(KeptOutcome(dir.path(), 3, false, {}, &problem).has_value());
  EXPECT_EQ(problem, "");  // no folder: nothing to say
  EXPECT_TRUE(KeptOutcome(dir.path(), 1, false).has_value());
}

TEST(OutputFolderTest, StaleTemporaryFilesOfAKilledRunAreRemoved) {
  TempDir dir;
  const Batch batch = Parse(kBatch);
  StoreScenario(batch, dir.path(), 1, results::ScenarioStatus::kDone);
  const std::vector<fs::path> stale = {
      dir.path() / "summary.json.tmp-4242", dir.path() / "report" / "data.js.tmp-4242",
      results::ScenarioFolder(dir.path(), 1) / "index.html.tmp-4242",
      dir.path() / "reproduce" / "scenario_0001_run_1" / "result.json.tmp-4242"};
  for (const fs::path& file : stale) Touch(file);
  Touch(dir.path() / "summary.json");
  EXPECT_EQ(RemoveStaleTemporaries(dir.path()), stale.size());
  for (const fs::path& file : stale) EXPECT_FALSE(fs::exists(file)) << file;
  EXPECT_TRUE(fs::exists(dir.path() / "summary.json"));
  EXPECT_TRUE(results::ScenarioFolderComplete(dir.path(), 1));
  EXPECT_EQ(RemoveStaleTemporaries(dir.path() / "missing"), 0u);
}

}  // namespace
}  // namespace asg::client
