// Tests for report/report.h: ReportRefresher rewrites a running batch's report when scenario
// folders were published, and stops at once.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "report/report.h"
#include "tests/report/report_files.h"
#include "tests/temp_dir.h"

namespace asg::report {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::DoneResultJson;
using testing::ReadText;
using testing::WriteText;

// Publishes a done scenario folder the way the result writer does: complete, then renamed in.
void Publish(const fs::path& dir, int number) {
  const std::string name = "scenario_000" + std::to_string(number);
  const fs::path staged = dir / ("." + name + ".tmp");
  WriteText(staged / "result.json", DoneResultJson(number));
  fs::rename(staged, dir / name);
}

// Waits up to 5 s for `predicate`.
template <class Predicate>
bool WaitFor(Predicate predicate) {
  // Generous: the condition usually holds within a period; a loaded machine may take long.
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (!predicate()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

TEST(ReportRefresher, RewritesTheReportWhenFoldersArePublished) {
  testutil::TempDir temp;
  const fs::path dir = temp.path();
  WriteText(dir / "batch_identity.json", "{\"batch\": \"live\", \"identity\": \"x\"}");
  std::string errors;
  {
    const ReportRefresher refresher(dir, 50ms, [&](const std::string& e) { errors += e; });
    Publish(dir, 1);
    // A write puts the scenario pages first, then data.js, then index.html.
    ASSERT_TRUE(WaitFor([&] {
      return ReadText(dir / "report" / "data.js").find("scenario_0001") != std::string::npos &&
             fs::is_regular_file(dir / "index.html");
    }));
    EXPECT_TRUE(fs::is_regular_file(dir / "scenario_0001" / "index.html"));
    Publish(dir, 2);
    EXPECT_TRUE(WaitFor([&] {
      return ReadText(dir / "report" / "data.js").find("scenario_0002") != std::string::npos;
    }));
  }
  EXPECT_EQ(errors, "");
}

TEST(ReportRefresher, StopsAtOnceWithoutWritingWhateverItsPeriod) {
  testutil::TempDir temp;
  const fs::path dir = temp.path();
  WriteText(dir / "batch_identity.json", "{\"batch\": \"live\", \"identity\": \"x\"}");
  Publish(dir, 1);
  {
    // The first write is due after one period: destroying it before must wake its thread (a
    // refresher that slept its period out would hold this test for an hour, past its timeout).
    const ReportRefresher refresher(dir, std::chrono::hours(1), [](const std::string&) {});
  }
  EXPECT_FALSE(fs::exists(dir / "index.html"));
}

}  // namespace
}  // namespace asg::report
