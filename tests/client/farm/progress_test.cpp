// Tests for client/farm/progress.h.
#include "client/farm/progress.h"

#include <gtest/gtest.h>

#include <sstream>

namespace asg::client {
namespace {

results::ScenarioResult Done(protocol::TerminationReason reason) {
  results::ScenarioResult result;
  result.status = results::ScenarioStatus::kDone;
  result.termination_reason = reason;
  return result;
}

TEST(Progress, LineCountsStatusesAndReasonsWithRateAndEta) {
  std::ostringstream out;
  ProgressSettings settings;
  settings.enabled = false;
  Progress progress(10, settings, out);
  const auto start = std::chrono::steady_clock::now();
  results::ScenarioResult invalid;
  invalid.status = results::ScenarioStatus::kInvalid;
  progress.CountPrevious(invalid);  // resumed: counted, not part of the rate
  progress.Count(Done(protocol::TerminationReason::REASON_SUCCESS));
  progress.Count(Done(protocol::TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT));
  const std::string line = progress.Line(start + std::chrono::seconds(4));
  EXPECT_EQ(line.substr(0, line.find(" | 0.")),
            "[ 3/10] done 2 invalid 1 failed 0 | stuck_timeout 1 success 1");
  // 2 scenarios of this run in about 4 s: 0.5/s, 7 left: about 14 s.
  EXPECT_NE(line.find("| 0.5/s ETA 14s"), std::string::npos) << line;
  EXPECT_TRUE(out.str().empty());  // disabled: prints nothing
}

TEST(Progress, PlainOutputPrintsWholeLinesAtItsPeriodAndLiveOutputRewritesOne) {
  std::ostringstream plain_out;
  ProgressSettings plain;
  plain.plain_period = std::chrono::milliseconds(5000);
  Progress progress(2, plain, plain_out);
  const auto now = std::chrono::steady_clock::now();
  progress.Update(now + std::chrono::seconds(1));  // too early
  EXPECT_TRUE(plain_out.str().empty());
  progress.Update(now + std::chrono::seconds(6));
  EXPECT_EQ(plain_out.str().back(), '\n');
  EXPECT_EQ(plain_out.str().find('\r'), std::string::npos);

  std::ostringstream live_out;
  ProgressSettings live;
  live.live = true;
  Progress live_progress(2, live, live_out);
  live_progress.Count(Done(protocol::TerminationReason::REASON_SUCCESS));
  live_progress.Update(now, true);
  live_progress.Finish(now + std::chrono::seconds(1));
  EXPECT_EQ(live_out.str().front(), '\r');
  EXPECT_EQ(live_out.str().back(), '\n');
}

TEST(Progress, ASearchLineShowsTheBestRegretAndTheCountsAboveTheThresholds) {
  std::ostringstream out;
  ProgressSettings settings;
  settings.enabled = false;
  settings.show_regret = true;
  Progress progress(5, settings, out);
  for (const double regret : {0.2, 0.5, 0.8, 1.25}) {
    results::ScenarioResult result = Done(protocol::TerminationReason::REASON_SUCCESS);
    result.regret.computed = true;
    result.regret.regret = regret;
    progress.Count(result);
  }
  results::ScenarioResult failed;
  failed.status = results::ScenarioStatus::kFailed;
  progress.Count(failed);  // no regret: not counted
  const std::string line = progress.Line(std::chrono::steady_clock::now());
  EXPECT_NE(line.find("| regret best 1.250 >=0.375 3 >=0.5 3 >=0.75 2 >=1 1 |"), std::string::npos)
      << line;
  ProgressSettings plain;
  plain.enabled = false;
  EXPECT_EQ(Progress(5, plain, out).Line(std::chrono::steady_clock::now()).find("regret"),
            std::string::npos);
}

}  // namespace
}  // namespace asg::client
