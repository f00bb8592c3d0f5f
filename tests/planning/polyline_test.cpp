// Tests for planning/polyline.h.
#include "planning/polyline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace asg::planning {
namespace {

double Length(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return (b - a).norm(); }

TEST(PathLengthTest, SumsTheSegments) {
  EXPECT_EQ(PathLength({}), 0.0);
  EXPECT_EQ(PathLength({{1.0, 2.0}}), 0.0);
  EXPECT_DOUBLE_EQ(PathLength({{0, 0}, {3, 4}, {3, 10}}), 11.0);
}

TEST(StraightenPathTest, ACollinearChainBecomesOneSegment) {
  const Polyline chain{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {5, 5}};
  const Polyline straight = StraightenPath(chain, Length, [](size_t, size_t) { return true; });
  EXPECT_EQ(straight, (Polyline{{0, 0}, {5, 5}}));
}

TEST(StraightenPathTest, JumpsToTheFarthestAllowedPointPastRefusedOnes) {
  // An L-shaped staircase; joining point 0 to 2 is refused, 0 to 3 allowed: unlike a greedy
  // pass that stops at the first refusal, the farthest acceptable point (3) is kept.
  const Polyline points{{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}};
  const auto allowed = [](size_t i, size_t j) { return !(i == 0 && (j == 2 || j == 4)); };
  const Polyline straight = StraightenPath(points, Length, allowed);
  EXPECT_EQ(straight, (Polyline{{0, 0}, {2, 1}, {2, 2}}));
  // Nothing allowed: every point stays.
  EXPECT_EQ(StraightenPath(points, Length, [](size_t, size_t) { return false; }), points);
}

TEST(StraightenPathTest, NeverMakesThePathMoreExpensive) {
  // A cost that punishes the band 4 < y < 6: straight segments across it may cost more than the
  // chain they would replace.
  const auto cost = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    double total = 0.0;
    for (int i = 0; i < 20; ++i) {
      const Eigen::Vector2d p = a + (b - a) * ((i + 0.5) / 20);
      total += (b - a).norm() / 20 * (p.y() > 4.0 && p.y() < 6.0 ? 5.0 : 1.0);
    }
    return total;
  };
  std::mt19937 random(11);  // fixed seed
  std::uniform_real_distribution<double> coordinate(0.0, 10.0);
  for (int trial = 0; trial < 50; ++trial) {
    Polyline points;
    for (int i = 0; i < 8; ++i) points.emplace_back(coordinate(random), coordinate(random));
    const Polyline straight = StraightenPath(points, cost, [](size_t, size_t) { return true; });
    double before = 0.0, after = 0.0;
    for (size_t i = 1; i < points.size(); ++i) before += cost(points[i - 1], points[i]);
    for (size_t i = 1; i < straight.size(); ++i) after += cost(straight[i - 1], straight[i]);
    EXPECT_LE(after, before + 1e-6) << "trial " << trial;
    EXPECT_EQ(straight.front(), points.front());
    EXPECT_EQ(straight.back(), points.back());
  }
}

}  // namespace
}  // namespace asg::planning
