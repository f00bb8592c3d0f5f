// Tests for scene/sensor_occupancy.h.
#include "scene/sensor_occupancy.h"

#include <gtest/gtest.h>

#include <numbers>
#include <set>
#include <utility>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::AddActors;
using testing::kBush;
using testing::kTree;
using testing::ReferenceRequest;
using testing::ShippedCatalog;
using Cells = std::set<std::pair<int, int>>;

SensorInput VehicleAt(double x, double y, double yaw_deg) {
  SensorInput input;
  input.pose = Eigen::Isometry3d::Identity();
  input.pose.translate(Eigen::Vector3d(x, y, 0.0));
  input.pose.rotate(
      Eigen::AngleAxisd(yaw_deg * std::numbers::pi / 180.0, Eigen::Vector3d::UnitZ()));
  return input;
}

// The occupied (i, j) cells of a reading; fails on any value other than 0 or 100.
Cells Occupied(const SensorReading& reading) {
  const int width = reading.header["width"];
  Cells cells;
  for (size_t k = 0; k < reading.data.size(); ++k) {
    const auto value = static_cast<uint8_t>(reading.data[k]);
    EXPECT_TRUE(value == kCellFree || value == kCellOccupied) << int(value);
    if (value == kCellOccupied) cells.insert({int(k % width), int(k / width)});
  }
  return cells;
}

protocol::OccupancyGridSpec Spec() {
  protocol::OccupancyGridSpec spec;  // 80 x 80 cells of 0.5 m: cell edges at multiples of 0.5
  spec.name = "grid";
  spec.range = 10.0;
  return spec;
}

TEST(OccupancyGrid, MarksExactlyTheFootprintCellsOfObstaclesInRange) {
  auto request = ReferenceRequest();
  // Vehicle at (30, 30) heading +x. Tree (trunk radius 0.18) at the centre of cell
  // (50, 40): (5.25, 0.25) ahead; it covers that cell only.
  AddActors(&request, kTree, {35.25}, {30.25});
  // Bush (radius 0.6) at the centre of cell (33, 44): within 0.6 m of its 3 x 3 neighbours'
  // nearest points (0.25 m edges, 0.354 m corners) but not of the next ring (0.75 m).
  AddActors(&request, kBush, {26.75}, {32.25});
  // Tree 12.25 m ahead: inside the grid but beyond the 10 m range.
  AddActors(&request, kTree, {42.25}, {30.25});
  // Bushes at scale 0.2 are 0.18 m tall: traversable, never marked.
  AddActors(&request, kBush, {32.25}, {28.25}, 0.2);
  const World world = BuildWorld(request, ShippedCatalog());
  ASSERT_TRUE(world.actors[3].traversable);

  const SensorReading reading = OccupancyGridSensor(Spec(), world).Sample(VehicleAt(30, 30, 0));
  Cells expected{{50, 40}};
  for (int i = 32; i <= 34; ++i) {
    for (int j = 43; j <= 45; ++j) expected.insert({i, j});
  }
  EXPECT_EQ(Occupied(reading), expected);
  EXPECT_EQ(reading.data.size(), 6400u);
  EXPECT_EQ(reading.header["encoding"], "mono8");
  EXPECT_DOUBLE_EQ(reading.header["origin"]["position"]["x"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(reading.header["origin"]["position"]["y"].get<double>(), 10.0);
}

TEST(OccupancyGrid, TurnsWithTheVehicleHeading) {
  auto request = ReferenceRequest();
  // Heading +y (yaw 90): forward is world +y, left is world -x. The tree at world
  // (29.75, 35.25) is 5.25 m ahead and 0.25 m left: cell (50, 40).
  AddActors(&request, kTree, {29.75}, {35.25});
  const World world = BuildWorld(request, ShippedCatalog());
  const SensorReading reading = OccupancyGridSensor(Spec(), world).Sample(VehicleAt(30, 30, 90));
  EXPECT_EQ(Occupied(reading), (Cells{{50, 40}}));
  // The corner of cell (0, 0) is 20 m behind and 20 m right: world (50, 10).
  EXPECT_NEAR(reading.header["origin"]["position"]["x"].get<double>(), 50.0, 1e-9);
  EXPECT_NEAR(reading.header["origin"]["position"]["y"].get<double>(), 10.0, 1e-9);
}

TEST(OccupancyGrid, TreeOnACellCornerMarksItsFourCells) {
  auto request = ReferenceRequest();
  AddActors(&request, kTree, {35.0}, {30.0});
  const World world = BuildWorld(request, ShippedCatalog());
  const SensorReading reading = OccupancyGridSensor(Spec(), world).Sample(VehicleAt(30, 30, 0));
  EXPECT_EQ(Occupied(reading), (Cells{{49, 39}, {49, 40}, {50, 39}, {50, 40}}));
}

}  // namespace
}  // namespace asg::scene
