// Tests for regret/run_regret.h end to end: the real asg-client and asg-worker drive the straight
// driver into a wall of trees (collisions allowed) and end the run by the 3 s stuck timeout or,
// that timeout disabled, by the 12 s sim timeout; a failure's regret is measured up to its
// failure moment unless the batch's "regret" asks for the research code's formula.
#include <gtest/gtest.h>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

// One layout, a wall of nine trees across the straight line (x + y = 40), in four variants: ended
// by the stuck timeout or by the sim timeout, measured to the failure moment or to the end.
Json WallBatch() {
  std::vector<double> wall_x, wall_y;
  for (int i = 0; i <= 8; ++i) {
    wall_x.push_back(16.0 + i);
    wall_y.push_back(24.0 - i);
  }
  Json batch = testing::SmallBatch(
      "regret",
      Json::array({{{"allow_collisions", true},
                    {"scene_description",
                     {{"ssa_array", {testing::Actors(testing::kTree, wall_x, wall_y)}}}}}}));
  const Json end_of_run = {{"failure_time", "end_of_run"}};
  batch["variants"] = {
      {{"name", "stuck"}},
      {{"name", "timer"}, {"vehicle_stuck_timeout_period", -1.0}},
      {{"name", "stuck_end"}, {"regret", end_of_run}},
      {{"name", "timer_end"}, {"vehicle_stuck_timeout_period", -1.0}, {"regret", end_of_run}}};
  batch["failures"] = {{"reproduce", 0}};
  return batch;
}

TEST(RegretEndToEnd, AStuckVehicleScoresTheSameWhicheverTimeoutEndsTheRun) {
  TempDir dir;
  const fs::path batch = dir.path() / "batch.json";
  const fs::path out = dir.path() / "out";
  testing::WriteJson(batch, WallBatch());
  ASSERT_EQ(RunToEnd(Executable("asg-client"),
                     {"run", batch.string(), "--out", out.string(), "--workers", "2", "-q"},
                     dir.path() / "client.txt"),
            0)
      << ReadText(dir.path() / "client.txt");
  const Json stuck = Result(out, 1, "stuck");
  const Json timer = Result(out, 2, "timer");
  const Json stuck_end = Result(out, 3, "stuck_end");
  const Json timer_end = Result(out, 4, "timer_end");
  ASSERT_EQ(stuck["termination_reason_name"], "REASON_VEHICLE_STUCK_TIMEOUT");
  ASSERT_EQ(timer["termination_reason_name"], "REASON_SIM_TIMEOUT");
  EXPECT_GT(timer["vehicle_sim_time"].get<double>(), stuck["vehicle_sim_time"].get<double>() + 2);

  // Measured to the failure moment: the same time, cost and regret, the time of the crash.
  EXPECT_NEAR(timer["regret"]["time"].get<double>(), stuck["regret"]["time"].get<double>(), 1e-6);
  EXPECT_NEAR(timer["regret"]["regret"].get<double>(), stuck["regret"]["regret"].get<double>(),
              1e-6);
  EXPECT_LT(stuck["regret"]["time"].get<double>(), stuck["vehicle_sim_time"].get<double>() - 2);
  EXPECT_GT(stuck["regret"]["regret"].get<double>(), 0.75);

  // Measured to the end of the run: the time is the run's, and the timer changes the regret.
  EXPECT_EQ(stuck_end["regret"]["time"], stuck_end["vehicle_sim_time"]);
  EXPECT_EQ(timer_end["regret"]["time"], timer_end["vehicle_sim_time"]);
  EXPECT_GT(std::abs(timer_end["regret"]["regret"].get<double>() -
                     stuck_end["regret"]["regret"].get<double>()),
            0.1);

  // Only the requests of the research code's formula carry the setting.
  const auto request = [&](const std::string& folder) {
    return Json::parse(ReadText(out / folder / "request.json"));
  };
  EXPECT_FALSE(request("scenario_0001_stuck").contains("regret"));
  EXPECT_EQ(request("scenario_0003_stuck_end")["regret"],
            Json::parse(R"({"failure_time": "end_of_run"})"));
}

}  // namespace
}  // namespace asg::client::testing
