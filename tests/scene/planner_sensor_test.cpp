// Tests for scene/planner_sensor.h.
#include "scene/planner_sensor.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/scene/planner_test_world.h"

namespace asg::scene {
namespace {

using planning::VoteGrid;
using testing::CylinderRayCaster;
using testing::Trunk;

const planning::Grid kGrid = planning::Grid::Covering(0.0, 60.0, 1.0);

Eigen::Quaterniond Yaw(double degrees) {
  return Eigen::Quaterniond(Eigen::AngleAxisd(degrees * M_PI / 180.0, Eigen::Vector3d::UnitZ()));
}

// Votes in the cells within 1 m of a trunk's axis.
int VotesNear(const VoteGrid& votes, const Trunk& trunk) {
  int sum = 0;
  for (int cell = 0; cell < kGrid.CellCount(); ++cell) {
    if ((kGrid.Center(cell) - Eigen::Vector2d(trunk.x, trunk.y)).norm() <= 1.0) {
      sum += votes.Votes(cell);
    }
  }
  return sum;
}

// Scans `scans` times from (x, y, 0.8) with the given yaw [deg].
VoteGrid ScanFrom(const CylinderRayCaster& world, double x, double y, double yaw, int scans = 2) {
  VoteGrid votes(kGrid);
  ObstacleSensor sensor{SensorSettings{}};
  std::vector<int> fresh;
  for (int i = 0; i < scans; ++i) sensor.Scan(world, {x, y, 0.8}, Yaw(yaw), votes, fresh);
  return votes;
}

TEST(ObstacleSensorTest, VotesATreeAheadInsideTheFieldOfView) {
  const Trunk tree{20.0, 10.0, 0.3, 5.0};
  const CylinderRayCaster world({tree});
  const VoteGrid votes = ScanFrom(world, 10.0, 10.0, 0.0);
  EXPECT_GT(votes.Votes(kGrid.CellAt(19.75, 10.0)), 0);   // the cell of the facing surface
  EXPECT_EQ(votes.TotalVotes(), VotesNear(votes, tree));  // nothing voted elsewhere
  // 40 deg to the left, still inside the 90 deg field of view.
  const double a = 40.0 * M_PI / 180.0;
  const Trunk left{10.0 + 10.0 * std::cos(a), 10.0 + 10.0 * std::sin(a), 0.3, 5.0};
  EXPECT_GT(VotesNear(ScanFrom(CylinderRayCaster({left}), 10.0, 10.0, 0.0), left), 0);
}

TEST(ObstacleSensorTest, IgnoresTreesBehindOutsideTheFovOrBeyondRange) {
  const std::vector<Trunk> trees{{2.0, 10.0, 0.3, 5.0},    // behind
                                 {10.0, 20.0, 0.3, 5.0},   // 90 deg to the left
                                 {35.0, 10.0, 0.3, 5.0}};  // 25 m ahead, range is 20 m
  const VoteGrid votes = ScanFrom(CylinderRayCaster(trees), 10.0, 10.0, 0.0);
  EXPECT_EQ(votes.TotalVotes(), 0);
  EXPECT_TRUE(votes.OccupiedCells().empty());
}

TEST(ObstacleSensorTest, DoesNotVoteTheGround) {
  SensorSettings settings;
  settings.elevations = {-10.0, -20.0};  // both fans meet the ground within range
  ObstacleSensor sensor(settings);
  VoteGrid votes(kGrid);
  std::vector<int> fresh;
  const CylinderRayCaster world({});
  EXPECT_EQ(sensor.Scan(world, {30.0, 30.0, 0.8}, Yaw(0.0), votes, fresh), 2 * 31);
  EXPECT_EQ(world.casts(), 2 * 31);
  EXPECT_EQ(votes.TotalVotes(), 0);
}

TEST(ObstacleSensorTest, AlternateScansInterleaveTheAzimuths) {
  ObstacleSensor sensor{SensorSettings{}};
  VoteGrid votes(kGrid);
  std::vector<int> fresh;
  const CylinderRayCaster world({});
  // Three fans; azimuths -45, -42, ..., 45, then -43.5, ..., 43.5.
  EXPECT_EQ(sensor.Scan(world, {30.0, 30.0, 0.8}, Yaw(0.0), votes, fresh), 3 * 31);
  EXPECT_EQ(sensor.Scan(world, {30.0, 30.0, 0.8}, Yaw(0.0), votes, fresh), 3 * 30);
  EXPECT_EQ(sensor.scans(), 2);
}

TEST(ObstacleSensorTest, ATreeHiddenBehindAnotherIsMappedOnlyOnceInSight) {
  const Trunk front{20.0, 10.0, 0.6, 5.0};
  const Trunk hidden{27.0, 10.0, 0.3, 5.0};
  const CylinderRayCaster world({front, hidden});
  const VoteGrid from_behind = ScanFrom(world, 10.0, 10.0, 0.0, 4);
  EXPECT_GT(VotesNear(from_behind, front), 0);
  EXPECT_EQ(VotesNear(from_behind, hidden), 0);
  // From the side the hidden tree is in plain sight.
  const VoteGrid from_side = ScanFrom(world, 20.0, 2.0, 45.0, 4);
  EXPECT_GT(VotesNear(from_side, hidden), 0);
}

TEST(ObstacleSensorTest, TheDownwardFanSeesALowBush) {
  // A bush 1 m tall, 17 m ahead: a level fan from 2.3 m passes over it, the -7 deg fan does not.
  const Trunk bush{27.0, 10.0, 0.8, 1.0};
  const CylinderRayCaster world({bush});
  EXPECT_GT(VotesNear(ScanFrom(world, 10.0, 10.0, 0.0), bush), 0);
  SensorSettings level;
  level.elevations = {0.0};
  ObstacleSensor sensor(level);
  VoteGrid votes(kGrid);
  std::vector<int> fresh;
  sensor.Scan(world, {10.0, 10.0, 0.8}, Yaw(0.0), votes, fresh);
  EXPECT_EQ(votes.TotalVotes(), 0);
}

TEST(ObstacleSensorTest, ReportsNewlyOccupiedCellsOnce) {
  const CylinderRayCaster world({{20.0, 10.0, 0.3, 5.0}});
  ObstacleSensor sensor{SensorSettings{}};
  VoteGrid votes(kGrid);
  std::vector<int> fresh;
  sensor.Scan(world, {10.0, 10.0, 0.8}, Yaw(0.0), votes, fresh);
  sensor.Scan(world, {10.0, 10.0, 0.8}, Yaw(0.0), votes, fresh);
  EXPECT_FALSE(fresh.empty());
  EXPECT_EQ(fresh, votes.OccupiedCells());
}

}  // namespace
}  // namespace asg::scene
