// Tests for client/farm/farm_loop.h, driven through its event queue with no worker processes and no
// connections (the scenario bookkeeping it applies is tested in scenario_book_test.cpp).
#include "client/farm/farm_loop.h"

#include <gtest/gtest.h>

#include <sstream>

#include "results/files.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using testutil::TempDir;

/// Settings of a launcher that starts nothing.
LauncherSettings NoLaunch() {
  LauncherSettings settings;
  settings.kind = "none";
  return settings;
}

/// A farm loop over a two-scenario batch that launches no workers and has no vehicle nodes.
class FarmLoopTest : public ::testing::Test {
 protected:
  FarmLoopTest()
      : batch_(ParseBatchText(R"({"scenarios": [{}, {}]})", "loop.json", "loop")),
        logger_(dir_.path() / "asg_log.txt", false),
        progress_(batch_.scenarios.size(), ProgressSettings{false}, progress_text_),
        writer_(dir_.path()),
        launcher_(MakeLauncher(NoLaunch(), &logger_)) {
    settings_.out_dir = dir_.path();
    settings_.workers = 0;
  }

  FarmLoopContext Context() {
    return {&batch_,         &settings_, &logger_, &events_,
            launcher_.get(), &progress_, &writer_, nullptr};
  }

  TempDir dir_;
  Batch batch_;
  FarmSettings settings_;
  core::Logger logger_;
  EventQueue events_;
  std::ostringstream progress_text_;
  Progress progress_;
  ResultWriter writer_;
  std::unique_ptr<Launcher> launcher_;
};

TEST_F(FarmLoopTest, ASignalStopsTheLoopWithNothingRecorded) {
  FarmLoop loop(Context(), {1, 2});
  events_.Push(FarmEvent{0, farm_event::Signal{15}});
  loop.Run();
  EXPECT_TRUE(loop.interrupted());
  EXPECT_EQ(loop.breakdown(), "");
  EXPECT_TRUE(loop.outcomes().empty());
  ASSERT_EQ(loop.scenarios().size(), 2u);
  for (const auto& [number, state] : loop.scenarios()) {
    EXPECT_EQ(state.scenario_number, number);
    EXPECT_TRUE(state.attempts.empty()) << number;
    EXPECT_FALSE(state.current.has_value()) << number;
  }
  writer_.Drain();
  EXPECT_NE(results::ReadTextFile(dir_.path() / "asg_log.txt")
                .find("signal 15: stopping; scenarios in flight are abandoned"),
            std::string::npos);
}

TEST_F(FarmLoopTest, EventsOfAConnectionThatNeverRegisteredChangeNothing) {
  FarmLoop loop(Context(), {1, 2});
  constexpr WorkerKey kStranger = 7;
  events_.Push(FarmEvent{kStranger, farm_event::Status{protocol::StatusCode::ONLINE_AND_RUNNING}});
  farm_event::Result result;
  result.analysis.scenario_number = 1;
  events_.Push(FarmEvent{kStranger, std::move(result)});
  protocol::RunPreemptedRequest preempted;
  preempted.scenario_number = 1;
  events_.Push(FarmEvent{kStranger, farm_event::Preempted{preempted}});
  events_.Push(FarmEvent{kStranger, farm_event::RunRefused{2, "no reply"}});
  events_.Push(FarmEvent{kStranger, farm_event::Closed{"gone"}});
  events_.Push(FarmEvent{kStranger, farm_event::Node{NodeClosed(kStranger, "gone")}});
  events_.Push(FarmEvent{0, farm_event::Signal{2}});
  loop.Run();
  EXPECT_TRUE(loop.interrupted());
  EXPECT_TRUE(loop.outcomes().empty());
  for (const auto& [number, state] : loop.scenarios()) {
    EXPECT_EQ(state.LatestAttemptNumber(), 0u) << number;
    EXPECT_TRUE(state.reruns.empty()) << number;
  }
  writer_.Drain();
  EXPECT_FALSE(std::filesystem::exists(results::ScenarioFolder(dir_.path(), 1)));
}

}  // namespace
}  // namespace asg::client
