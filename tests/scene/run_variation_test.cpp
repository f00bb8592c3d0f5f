// Tests for scene/run_variation.h.
#include "scene/run_variation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "scene/scenario_runner.h"
#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::ReferenceRequest;
using testing::ShippedCatalog;

TEST(RunVariationTest, TheNominalRunIsTheRequestItself) {
  protocol::RunScenarioRequest request = ReferenceRequest();
  request.seed = 99;
  const StartPose pose = VariedStart(request);
  EXPECT_EQ(pose.x, 10.0);
  EXPECT_EQ(pose.y, 10.0);
  EXPECT_EQ(pose.yaw, 45.0);
  EXPECT_EQ(RunSeed(request), 99u);
}

TEST(RunVariationTest, RepeatedRunsVaryWithinTheRangesAndRepeatThemselves) {
  protocol::RunScenarioRequest request = ReferenceRequest();
  request.seed = 99;
  double spread_x = 0.0;
  for (uint32_t run = 1; run <= 50; ++run) {
    request.variation.run = run;
    const StartPose pose = VariedStart(request);
    EXPECT_LE(std::abs(pose.x - 10.0), 0.10);
    EXPECT_LE(std::abs(pose.y - 10.0), 0.10);
    EXPECT_LE(std::abs(pose.yaw - 45.0), 1.0);
    spread_x = std::max(spread_x, std::abs(pose.x - 10.0));
    const StartPose again = VariedStart(request);
    EXPECT_EQ(pose.x, again.x);
    EXPECT_EQ(pose.yaw, again.yaw);
    EXPECT_NE(RunSeed(request), 99u);
  }
  EXPECT_GT(spread_x, 0.05);  // the offsets use the range
  request.variation.run = 1;
  const uint64_t first = RunSeed(request);
  request.variation.run = 2;
  EXPECT_NE(RunSeed(request), first);
  // No range, no offset: only the seed differs.
  request.variation.start_position_range = 0.0;
  request.variation.start_yaw_range = 0.0;
  EXPECT_EQ(VariedStart(request).x, 10.0);
  EXPECT_EQ(VariedStart(request).yaw, 45.0);
}

TEST(RunVariationTest, TheWorldOfARepeatedRunStartsFromItsVariedPose) {
  protocol::RunScenarioRequest request = ReferenceRequest();
  request.seed = 5;
  request.variation.run = 3;
  const World world = BuildWorld(request, ShippedCatalog());
  const StartPose pose = VariedStart(request);
  EXPECT_EQ(world.start.x(), pose.x);
  EXPECT_EQ(world.start.y(), pose.y);
  EXPECT_EQ(world.start_yaw, pose.yaw);
  // Runs of the same scene end differently but each repeats itself.
  ScenarioRunner runner(ShippedCatalog());
  runner.Build(request);
  const auto one = runner.Run().analysis;
  runner.Build(request);
  EXPECT_EQ(runner.Run().analysis, one);
  request.variation.run = 0;
  runner.Build(request);
  EXPECT_NE(runner.Run().analysis.vehicle_trajectory, one.vehicle_trajectory);
}

}  // namespace
}  // namespace asg::scene
