// Tests for client/farm/output_folder.h: with the real executables, a finished batch folder
// holding a symbolic link is refused, named, by every command that writes into it again, and
// nothing the link points to is written, removed or moved.
#include <gtest/gtest.h>

#include <map>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

/// Every entry under `folder` without following links: a file's content, a link's target, a
/// folder as "/".
std::map<std::string, std::string> Snapshot(const fs::path& folder) {
  std::map<std::string, std::string> entries;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    const std::string name = entry.path().lexically_relative(folder).string();
    if (entry.is_symlink()) {
      entries[name] = "-> " + fs::read_symlink(entry.path()).string();
    } else {
      entries[name] = entry.is_directory() ? "/" : ReadText(entry.path());
    }
  }
  return entries;
}

/// The names whose entry differs between two snapshots (added, removed or changed).
std::string Changes(const std::map<std::string, std::string>& before,
                    const std::map<std::string, std::string>& after) {
  std::string changes;
  for (const auto& [name, content] : before) {
    if (!after.contains(name)) changes += " removed " + name;
    if (after.contains(name) && after.at(name) != content) changes += " changed " + name;
  }
  for (const auto& [name, content] : after) {
    if (!before.contains(name)) changes += " added " + name;
  }
  return changes;
}

/// A finished two-scenario batch in `dir`/done, its batch file in `dir`/batch.json.
class OutputLinksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    batch_ = temp_.path() / "batch.json";
    done_ = temp_.path() / "done";
    outside_ = temp_.path() / "outside";
    testing::WriteJson(batch_, testing::SmallBatch("links", testing::PlainScenarios(2)));
    ASSERT_EQ(RunToEnd(Executable("asg-client"),
                       {"run", batch_.string(), "--out", done_.string(), "--workers", "1", "-q"},
                       temp_.path() / "first.txt"),
              0)
        << ReadText(temp_.path() / "first.txt");
    fs::create_directories(outside_ / "sub");
    testing::WriteJson(outside_ / "keep.json", {{"kept", true}});
    testing::WriteJson(outside_ / "sub" / "also.json", {{"kept", true}});
  }

  /// Runs asg-client with `arguments` and expects exit 2 naming `link`, with the output folder
  /// `dir` and everything outside it unchanged.
  void ExpectRefused(const std::vector<std::string>& arguments, const fs::path& link,
                     const fs::path& dir) {
    const auto folder_before = Snapshot(dir);
    const auto outside_before = Snapshot(outside_);
    const fs::path output = temp_.path() / "refused.txt";
    EXPECT_EQ(RunToEnd(Executable("asg-client"), arguments, output), 2) << ReadText(output);
    EXPECT_NE(ReadText(output).find(link.string() + " is a symbolic link"), std::string::npos)
        << ReadText(output);
    EXPECT_EQ(Changes(folder_before, Snapshot(dir)), "") << "in the output folder";
    EXPECT_EQ(Changes(outside_before, Snapshot(outside_)), "") << "outside the output folder";
  }

  std::vector<std::string> Resume(const std::string& how = "--resume") const {
    std::vector<std::string> arguments = {"run", batch_.string(), "--out", done_.string(),
                                          how,   "--workers",     "1",     "-q"};
    if (how == "--retry") arguments.insert(arguments.begin() + 5, "failed");
    return arguments;
  }

  TempDir temp_;
  fs::path batch_;
  fs::path done_;
  fs::path outside_;
};

TEST_F(OutputLinksTest, ResumeWithALinkedNodesFolderDeletesNothing) {
  fs::create_directory_symlink(outside_, done_ / ".nodes");
  ExpectRefused(Resume(), done_ / ".nodes", done_);
}

TEST_F(OutputLinksTest, ResumeWithALinkedLogAppendsNothing) {
  fs::rename(done_ / "asg_log.txt", outside_ / "asg_log.txt");
  fs::create_symlink(outside_ / "asg_log.txt", done_ / "asg_log.txt");
  ExpectRefused(Resume(), done_ / "asg_log.txt", done_);
}

TEST_F(OutputLinksTest, ResumeWithALinkedReportFolderWritesNothingThere) {
  fs::remove_all(done_ / "report");
  fs::create_directory_symlink(outside_ / "sub", done_ / "report");
  ExpectRefused(Resume(), done_ / "report", done_);
}

TEST_F(OutputLinksTest, ResumeWithALinkedScenarioPageOverwritesNothing) {
  const fs::path page = done_ / "scenario_0001" / "index.html";
  fs::remove(page);
  fs::create_symlink(outside_ / "keep.json", page);
  ExpectRefused(Resume("--retry"), page, done_);
}

TEST_F(OutputLinksTest, ResumeWithALinkedScenarioFolderKeepsNothingFromIt) {
  fs::rename(done_ / "scenario_0002", outside_ / "scenario_0002");
  // Without its page: a resume that took the linked folder as complete would write one there.
  fs::remove(outside_ / "scenario_0002" / "index.html");
  fs::create_directory_symlink(outside_ / "scenario_0002", done_ / "scenario_0002");
  ExpectRefused(Resume(), done_ / "scenario_0002", done_);
}

TEST_F(OutputLinksTest, ForceRemovesNothingWhileALinkIsInside) {
  fs::create_directory_symlink(outside_, done_ / "scenario_0001" / "nodes");
  ExpectRefused({"run", batch_.string(), "--out", done_.string(), "--force", "-q"},
                done_ / "scenario_0001" / "nodes", done_);
}

TEST_F(OutputLinksTest, FailuresReportAndReplayRefuseALinkedFolder) {
  fs::create_symlink(outside_ / "keep.json", done_ / "failures.json.tmp-1");
  ExpectRefused({"failures", done_.string()}, done_ / "failures.json.tmp-1", done_);
  ExpectRefused({"report", done_.string()}, done_ / "failures.json.tmp-1", done_);
  const fs::path replay = temp_.path() / "replay";
  fs::create_directories(replay);
  fs::create_directory_symlink(outside_, replay / "report");
  ExpectRefused({"replay", done_.string(), "--out", replay.string(), "--resume", "--top-runs", "1",
                 "--workers", "1", "-q"},
                replay / "report", replay);
}

TEST_F(OutputLinksTest, TheFolderItselfMayBeALink) {
  fs::create_directory_symlink(done_, temp_.path() / "named");
  const fs::path output = temp_.path() / "named.txt";
  EXPECT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch_.string(), "--out", (temp_.path() / "named").string(),
                      "--resume", "--workers", "1", "-q"},
                     output),
            0)
      << ReadText(output);
  EXPECT_TRUE(fs::is_symlink(temp_.path() / "named"));
  EXPECT_NE(ReadText(done_ / "asg_log.txt").find("resume: 2 scenarios already complete"),
            std::string::npos);
}

}  // namespace
}  // namespace asg::client::testing
