// Tests for search/descriptors.h.
#include "search/descriptors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/search/toy_objective.h"

namespace asg::search {
namespace {

using testing::ResearchSpace;

Evaluation At(double x, double y, uint32_t outcome = 0, uint32_t near_path = 0) {
  return testing::DescribedAt(1, 0.0, x, y, outcome, near_path);
}

TEST(ObstaclesNearPath, CountsObstacleCentresWithinEightMetresOfThePolyline) {
  SearchSpace space = ResearchSpace();
  space.classes[1].obstacle = false;  // bushes are traversable here
  const std::vector<Eigen::Vector2d> path{{0.0, 0.0}, {20.0, 0.0}, {20.0, 20.0}};
  const std::vector<Obstacle> obstacles{
      {0, 10.0, 8.0},   // 8 m from the first segment: counts
      {0, 10.0, -8.1},  // 8.1 m from it: does not
      {0, 28.0, 10.0},  // 8 m from the second segment: counts
      {0, 26.0, -6.0},  // sqrt(72) = 8.49 m from the corner: does not
      {1, 10.0, 1.0},   // traversable: never counts
      {0, -5.0, 0.0}};  // 5 m before the first vertex: counts
  EXPECT_EQ(ObstaclesNearPath(space, obstacles, path), 3u);
  EXPECT_EQ(ObstaclesNearPath(space, obstacles, {}), 0u);
  // One vertex is a point.
  EXPECT_EQ(ObstaclesNearPath(space, obstacles, {{10.0, 0.0}}), 1u);
}

TEST(CellOf, BinsThePointOnTheLandscapeGridAndKeepsTheOutcome) {
  const SearchSpace space = ResearchSpace();  // landscape [0, 60] m: 7.5 m cells on 8 x 8
  const DescriptorGrid grid;
  EXPECT_EQ(CellOf(space, grid, At(0.0, 59.9, 2, 1)), (ArchiveCell{0, 7, 2, 1}));
  EXPECT_EQ(CellOf(space, grid, At(7.5, 7.49)), (ArchiveCell{1, 0, 0, 0}));
  EXPECT_EQ(CellOf(space, grid, At(40.0, 20.0, 1)), (ArchiveCell{5, 2, 1, 0}));
  // A point off the landscape lands on its edge; a non-finite one on the first cell.
  EXPECT_EQ(CellOf(space, grid, At(-5.0, 75.0)), (ArchiveCell{0, 7, 0, 0}));
  EXPECT_EQ(CellOf(space, grid, At(std::numeric_limits<double>::quiet_NaN(), 60.0)),
            (ArchiveCell{0, 7, 0, 0}));
}

TEST(CellOf, CapsObstaclesNearThePathAtTheLastBin) {
  const SearchSpace space = ResearchSpace();
  EXPECT_EQ(CellOf(space, {}, At(1.0, 1.0, 0, 2))->near_path, 2u);
  EXPECT_EQ(CellOf(space, {}, At(1.0, 1.0, 0, 3))->near_path, 3u);
  EXPECT_EQ(CellOf(space, {}, At(1.0, 1.0, 0, 9))->near_path, 3u);
  EXPECT_EQ(CellOf(space, {16, 1}, At(1.0, 1.0, 0, 9)), (ArchiveCell{0, 0, 0, 0}));
  EXPECT_EQ(CellOf(space, {16, 1}, At(59.0, 30.0, 0, 9)), (ArchiveCell{15, 8, 0, 0}));
}

TEST(CellOf, PlacesNothingUndescribedOrOfAnUnknownOutcome) {
  const SearchSpace space = ResearchSpace();
  Evaluation undescribed = At(10.0, 10.0);
  undescribed.described = false;
  EXPECT_FALSE(CellOf(space, {}, undescribed));
  EXPECT_FALSE(CellOf(space, {}, At(10.0, 10.0, kOutcomeCount)));
  EXPECT_TRUE(CellOf(space, {}, At(10.0, 10.0, kOutcomeCount - 1)));
}

}  // namespace
}  // namespace asg::search
