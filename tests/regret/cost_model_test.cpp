// Tests for regret/cost_model.h.
#include "regret/cost_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace asg::regret {
namespace {

TEST(CostModelTest, WithoutObstaclesAPathCostsItsLength) {
  const CostModel model;
  const Polyline path{{0, 0}, {3, 4}, {3, 10}};
  EXPECT_DOUBLE_EQ(PathLength(path), 11.0);
  EXPECT_NEAR(model.PathCost(path), 11.0, 1e-12);
  EXPECT_EQ(model.PathCost({{1, 1}}), 0.0);
}

TEST(CostModelTest, AnObstacleDoublesTheRateAtItsCentreAndDecaysAsAGaussian) {
  CostModel model;
  model.obstacles = {{10, 10}};
  EXPECT_DOUBLE_EQ(model.Rate({10, 10}), 2.0);
  EXPECT_NEAR(model.Penalty({10 + model.sigma, 10}), std::exp(-0.5), 1e-12);
  EXPECT_NEAR(model.Penalty({10, 10 + 2 * model.sigma}), std::exp(-2.0), 1e-12);
  EXPECT_EQ(model.Penalty({10, 30}), 0.0);  // beyond 5 sigma
  // Half the votes, half the penalty.
  model.votes = 25.0;
  EXPECT_DOUBLE_EQ(model.Rate({10, 10}), 1.5);
}

TEST(CostModelTest, ASegmentThroughAnObstacleCostsItsGaussianIntegral) {
  CostModel model;
  model.obstacles = {{0, 0}};
  model.sample_step = 0.01;
  // The integral of exp(-x^2 / (2 sigma^2)) over the whole line is sigma * sqrt(2 pi).
  const double expected = 40.0 + model.sigma * std::sqrt(2.0 * M_PI);
  EXPECT_NEAR(model.SegmentCost({-20, 0}, {20, 0}), expected, 1e-4);
}

TEST(CostModelTest, ClearanceIsTheSmallestDistanceToAnObstacle) {
  CostModel model;
  model.obstacles = {{5, 3}, {20, -1}};
  EXPECT_NEAR(model.Clearance({{0, 0}, {10, 0}, {30, 0}}), 1.0, 1e-12);
  EXPECT_TRUE(std::isinf(CostModel{}.Clearance({{0, 0}, {1, 0}})));
}

TEST(CostModelTest, PointAtFindsTheRunningLengthOrCost) {
  const Polyline path{{0, 0}, {10, 0}, {10, 10}};
  EXPECT_TRUE(PointAt(path, 15.0, nullptr).isApprox(Eigen::Vector2d(10, 5)));
  EXPECT_TRUE(PointAt(path, -1.0, nullptr).isApprox(Eigen::Vector2d(0, 0)));
  EXPECT_TRUE(PointAt(path, 99.0, nullptr).isApprox(Eigen::Vector2d(10, 10)));
  const CostModel open_field;
  EXPECT_TRUE(PointAt(path, 4.0, &open_field).isApprox(Eigen::Vector2d(4, 0)));
}

}  // namespace
}  // namespace asg::regret
