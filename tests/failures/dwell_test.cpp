// Tests for failures/dwell.h.
#include "failures/dwell.h"

#include <gtest/gtest.h>

#include "tests/failures/hand_built_runs.h"

namespace asg::failures {
namespace {

using hand_built::CrawlTo;
using hand_built::Drive;
using hand_built::DriveTo;

TEST(DwellTest, ASteadyDriveStaysNowhereLong) {
  // East at 5 m/s, a sample every 0.25 m: 11 samples lie within 1.4 m of a middle one.
  const std::vector<PathSample> drive = Drive({{0, 0}, {30, 0}});
  EXPECT_NEAR(DwellAt(drive, 60, 1.4), 11 * 0.05, 1e-9);
  EXPECT_FALSE(FirstDwell(drive, 1.5, 3.0).has_value());
  // The last sample counts no time: at the end only the 5 samples behind it count.
  EXPECT_NEAR(DwellAt(drive, drive.size() - 1, 1.4), 5 * 0.05, 1e-9);
}

TEST(DwellTest, ACrawlIsWhereTheVehicleSpentItsTimeAndItArrivedThereOnItsWayIn) {
  // East to (10, 0), 8 s crawling 0.4 m on, then east to (25, 0).
  std::vector<PathSample> run = Drive({{0, 0}, {10, 0}});
  const size_t crawl_start = run.size() - 1;
  CrawlTo(run, {10.4, 0}, 8.0);
  DriveTo(run, {25, 0});
  const std::optional<Dwell> dwell = FirstDwell(run, 1.5, 3.0);
  ASSERT_TRUE(dwell.has_value());
  EXPECT_GT(dwell->seconds, 8.0);
  EXPECT_NEAR(DwellAt(run, dwell->sample, 1.5), dwell->seconds, 1e-12);
  // The center is where the 8 s went, near the middle of the crawl (the few samples passing
  // within 1.5 m of the longest-dwelling one weigh 0.5 s).
  EXPECT_NEAR(dwell->center.x(), 10.2, 0.15);
  EXPECT_LT((dwell->center - Eigen::Vector2d(run[dwell->sample].x, 0)).norm(), 1.5);
  EXPECT_NEAR(dwell->center.y(), 0.0, 1e-12);
  // It first came within 1.5 m of the center on its way in.
  EXPECT_LT(dwell->arrival, crawl_start);
  EXPECT_LT(dwell->center.x() - run[dwell->arrival].x, 1.5);
  EXPECT_GE(dwell->center.x() - run[dwell->arrival - 1].x, 1.5);
  EXPECT_FALSE(FirstDwell(run, 1.5, 9.0).has_value());  // not 9 s anywhere
}

TEST(DwellTest, AnIdleVehicleDwellsAtItsFirstSample) {
  std::vector<PathSample> idle = {{0.0, 3, 4, 90}};
  CrawlTo(idle, {3, 4}, 10.0);
  const std::optional<Dwell> dwell = FirstDwell(idle, 1.5, 3.0);
  ASSERT_TRUE(dwell.has_value());
  EXPECT_EQ(dwell->sample, 0u);  // ties: the earliest
  EXPECT_NEAR(dwell->seconds, 10.0, 1e-9);
  EXPECT_EQ(dwell->center, Eigen::Vector2d(3, 4));  // exactly where it stood
  EXPECT_EQ(dwell->arrival, 0u);
  // A single sample spent no time anywhere.
  EXPECT_FALSE(FirstDwell({{0.0, 3, 4, 90}}, 1.5, 3.0).has_value());
}

TEST(DwellTest, TheFirstStopOfAtLeastTheMinimumIsTheDwellHoweverLongALaterOne) {
  // Stops of 2 s at x = 10 (too short), 4 s at x = 20 and 8 s at x = 30.
  std::vector<PathSample> run = Drive({{0, 0}, {10, 0}});
  CrawlTo(run, {10, 0}, 2.0);
  DriveTo(run, {20, 0});
  CrawlTo(run, {20, 0}, 4.0);
  DriveTo(run, {30, 0});
  CrawlTo(run, {30, 0}, 8.0);
  DriveTo(run, {40, 0});
  const std::optional<Dwell> dwell = FirstDwell(run, 1.4, 3.0);
  ASSERT_TRUE(dwell.has_value());
  EXPECT_NEAR(dwell->seconds, 4.55, 1e-9);    // the stop and 10 samples passing through
  EXPECT_NEAR(dwell->center.x(), 20.0, 0.2);  // the passing samples weigh 0.5 s of 4.55
  EXPECT_NEAR(FirstDwell(run, 1.4, 5.0)->center.x(), 30.0, 0.15);
}

}  // namespace
}  // namespace asg::failures
