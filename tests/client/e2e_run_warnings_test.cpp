// Tests for client/main.cpp: what `asg-client run` prints about a batch before anything runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/client/e2e_process.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using testing::Executable;
using testing::ReadText;
using testing::RunToEnd;
using testing::SmallBatch;
using testing::WriteJson;
using testutil::TempDir;
using Json = nlohmann::json;

// The lines of `text` ending in '\n'.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  for (size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', begin)) {
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

// A goal on the landscape's edge (in defaults), a goal within the goal radius (one scenario's own),
// generated scenarios with the same warning and the stuck and idling timeouts left off: `run`
// prints every warning and note `check` prints, each once and before the batch runs.
TEST(RunWarningsEndToEnd, RunPrintsCheckWarningsAndTheTimeoutNoteOnceBeforeAnythingRuns) {
  TempDir dir;
  Json batch = SmallBatch(
      "warned", Json::array({Json::object(),
                             {{"vehicle_goal_location", {{"x", 10.0}, {"y", 10.0}, {"z", 0.0}}}}}));
  batch["defaults"].erase("vehicle_stuck_timeout_period");
  batch["defaults"].erase("vehicle_idling_timeout_period");
  batch["defaults"]["sim_timeout_period"] = 4.0;
  batch["defaults"]["vehicle_goal_location"] = {{"x", 40.0}, {"y", 32.0}, {"z", 0.0}};
  batch["generate"] = {{"count", 3}, {"goal", {{"x", {20.0, 20.0}}, {"y", {0.0, 0.0}}}}};
  const auto file = dir.path() / "warned.json";
  WriteJson(file, batch);

  ASSERT_EQ(RunToEnd(Executable("asg-client"), {"check", file.string()}, dir.path() / "check.txt"),
            0);
  const std::vector<std::string> checked = Lines(ReadText(dir.path() / "check.txt"));
  // Every line but the last (the counts): 3 warnings and the note.
  ASSERT_EQ(checked.size(), 5u) << ReadText(dir.path() / "check.txt");
  EXPECT_NE(checked[0].find("defaults.vehicle_goal_location.x: 40 lies on the edge"),
            std::string::npos);
  EXPECT_NE(checked[1].find("scenario 2: scenarios[1].vehicle_goal_location: 2.83 m from the "
                            "start, within goal_radius 4 m"),
            std::string::npos);
  EXPECT_NE(checked[2].find("vehicle_goal_location.y (generated): 0 lies on the edge of the "
                            "landscape [0, 40]: the vehicle may leave the landscape on its way "
                            "to the goal (in 3 scenarios: 3, 4, 5)"),
            std::string::npos);
  EXPECT_NE(checked[3].find("note: the stuck and idling timeouts are off (-1) in all 5 valid "
                            "scenarios"),
            std::string::npos);

  const auto out = dir.path() / "out";
  RunToEnd(Executable("asg-client"),
           {"run", file.string(), "--out", out.string(), "--workers", "1", "-q"},
           dir.path() / "run.txt");
  const std::string ran = ReadText(dir.path() / "run.txt");
  const std::vector<std::string> printed = Lines(ran);
  const auto summary = std::find_if(printed.begin(), printed.end(), [](const std::string& line) {
    return line.rfind("batch warned (seed 5)", 0) == 0;
  });
  ASSERT_NE(summary, printed.end()) << ran;
  for (size_t i = 0; i + 1 < checked.size(); ++i) {
    EXPECT_EQ(std::count(printed.begin(), printed.end(), checked[i]), 1) << checked[i] << "\n"
                                                                         << ran;
    EXPECT_LT(std::find(printed.begin(), printed.end(), checked[i]), summary) << checked[i];
  }
  EXPECT_TRUE(std::filesystem::exists(out / "scenario_0005" / "result.json"));
}

}  // namespace
}  // namespace asg::client
