// Tests for client/farm/farm.h.
//
// The output folder under faults, end to end with the real asg-client and asg-worker: a disk
// that fills during the run (a small tmpfs, which needs root; skipped otherwise), and a resume
// over folders an earlier run left damaged or a killed run left half-written.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

/// A tmpfs of `size` ("2m") mounted on `path` while it lives; mounted() is false when it
/// cannot be (not root, or not allowed here).
class SmallDisk {
 public:
  SmallDisk(const fs::path& path, const std::string& size) : path_(path) {
    fs::create_directories(path);
    if (::geteuid() != 0) {
      why_not_ = "not root";
    } else if (::mount("tmpfs", path.c_str(), "tmpfs", 0, ("size=" + size).c_str()) != 0) {
      why_not_ = std::strerror(errno);
    }
  }
  ~SmallDisk() {
    if (mounted()) ::umount2(path_.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool mounted() const { return why_not_.empty(); }
  const std::string& why_not() const { return why_not_; }
  /// Makes the disk `size` large, keeping what it holds.
  bool Resize(const std::string& size) {
    return ::mount("tmpfs", path_.c_str(), "tmpfs", MS_REMOUNT, ("size=" + size).c_str()) == 0;
  }

 private:
  fs::path path_;
  std::string why_not_;
};

/// The names of the entries of `dir` that start with `prefix`.
std::vector<std::string> EntriesStartingWith(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0) names.push_back(name);
  }
  return names;
}

/// `count` plain scenarios, each with two 384 px ortho aerials (about 100 KB a folder).
Json CaptureBatch(int count) {
  Json batch = testing::SmallBatch("captures", testing::PlainScenarios(count));
  batch["defaults"]["take_scene_capture"] = true;
  batch["defaults"]["scene_capture_settings"] = {
      {"image_size", 384}, {"ortho_aerial", true}, {"aerial_padding", {5}}};
  return batch;
}

/// The count of the last progress line "[ N/total] ..." in `output`; -1 when there is none.
int LastProgressCount(const std::string& output) {
  static const std::regex kProgress("\\[ *([0-9]+)/[0-9]+\\]");
  int count = -1;
  for (std::sregex_iterator it(output.begin(), output.end(), kProgress), end; it != end; ++it) {
    count = std::stoi((*it)[1].str());
  }
  return count;
}

TEST(FarmOutput, ADiskThatFillsStopsTheBatchNamesTheFailureAndResumeCompletesIt) {
  TempDir dir;
  const fs::path out = dir.path() / "disk";
  SmallDisk disk(out, "2m");
  if (!disk.mounted()) GTEST_SKIP() << "a tmpfs cannot be mounted here: " << disk.why_not();
  const fs::path batch = dir.path() / "batch.json";
  testing::WriteJson(batch, CaptureBatch(40));

  const fs::path first = dir.path() / "first.txt";
  EXPECT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", out.string(), "--workers", "2"}, first),
            3);
  const std::string output = ReadText(first);
  // The first failure is named: the scenario, the path and the system's reason.
  EXPECT_TRUE(std::regex_search(
      output, std::regex("error: writing results failed: scenario [0-9]+: .*No space left")))
      << output;
  EXPECT_NE(output.find("make room and run again with --resume"), std::string::npos) << output;
  // No partial folder is left, and only what is on disk counts as done.
  EXPECT_TRUE(EntriesStartingWith(out, ".scenario_").empty());
  const size_t on_disk = EntriesStartingWith(out, "scenario_").size();
  EXPECT_LT(on_disk, 40u);
  for (const std::string& folder : EntriesStartingWith(out, "scenario_")) {
    EXPECT_NO_THROW(Json::parse(ReadText(out / folder / "result.json"))) << folder;
  }
  EXPECT_EQ(LastProgressCount(output), static_cast<int>(on_disk)) << output;
  if (fs::exists(out / "summary.json")) {
    EXPECT_EQ(Json::parse(ReadText(out / "summary.json"))["total"], on_disk);
  } else {
    EXPECT_NE(output.find("the summary (summary.json, summary.csv) could not be written"),
              std::string::npos)
        << output;
  }
  const std::string log = ReadText(out / "asg_log.txt");
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back(), '\n');  // whole lines only

  // With room, --resume completes the batch as one run would have.
  ASSERT_TRUE(disk.Resize("64m"));
  const fs::path second = dir.path() / "second.txt";
  ASSERT_EQ(
      RunToEnd(Executable("asg-client"),
               {"run", batch.string(), "--out", out.string(), "--workers", "2", "--resume", "-q"},
               second),
      0)
      << ReadText(second);
  const fs::path straight = dir.path() / "straight";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", straight.string(), "--workers", "2", "-q"},
                     dir.path() / "straight.txt"),
            0);
  testing::ExpectSameResults(straight, out);
  EXPECT_EQ(Json::parse(ReadText(out / "summary.json"))["total"], 40);
}

TEST(FarmOutput, ResumeRunsAgainTheFoldersThatAreNotWholeAndRemovesStaleTemporaries) {
  TempDir dir;
  const fs::path batch = dir.path() / "batch.json";
  testing::WriteJson(batch, testing::SmallBatch("whole", testing::PlainScenarios(6)));
  const fs::path straight = dir.path() / "straight";
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", straight.string(), "--workers", "2", "-q"},
                     dir.path() / "straight.txt"),
            0);
  const fs::path out = dir.path() / "damaged";
  fs::copy(straight, out, fs::copy_options::recursive);
  // An empty trajectory, garbage for a request, a timing.json cut in half.
  std::ofstream(out / "scenario_0003" / "request.json", std::ios::trunc) << "garbage{";
  std::ofstream(out / "scenario_0002" / "trajectory.csv", std::ios::trunc).close();
  const std::string timing = ReadText(out / "scenario_0004" / "timing.json");
  std::ofstream(out / "scenario_0004" / "timing.json", std::ios::trunc)
      << timing.substr(0, timing.size() / 2);
  // What a run killed while writing its summary and pages leaves.
  const std::vector<fs::path> stale = {out / "summary.json.tmp-99999",
                                       out / "scenario_0001" / "index.html.tmp-99999",
                                       out / "report" / "data.js.tmp-99999"};
  for (const fs::path& file : stale) std::ofstream(file) << "partial";

  const fs::path resumed = dir.path() / "resumed.txt";
  ASSERT_EQ(
      RunToEnd(Executable("asg-client"),
               {"run", batch.string(), "--out", out.string(), "--workers", "2", "--resume", "-q"},
               resumed),
      0)
      << ReadText(resumed);
  const std::string output = ReadText(resumed);
  for (const char* file : {"scenario_0002/trajectory.csv", "scenario_0003/request.json",
                           "scenario_0004/timing.json"}) {
    EXPECT_TRUE(std::regex_search(
        output, std::regex("warning: [^\n]*" + std::string(file) + ": [^\n]*; run again")))
        << file << "\n"
        << output;
  }
  EXPECT_NE(ReadText(out / "asg_log.txt").find("resume: 3 scenarios already complete, 3 to run"),
            std::string::npos);
  testing::ExpectSameResults(straight, out);
  EXPECT_EQ(Json::parse(ReadText(out / "summary.json"))["total"], 6);
  for (const fs::path& file : stale) EXPECT_FALSE(fs::exists(file)) << file;
}

}  // namespace
}  // namespace asg::client::testing
