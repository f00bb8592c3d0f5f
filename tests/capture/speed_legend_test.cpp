// Tests for capture/speed_legend.h.
#include "capture/speed_legend.h"

#include <gtest/gtest.h>

#include <Eigen/Core>

namespace asg::capture {
namespace {

TEST(SpeedLegend, AColourBarFromBlueToRedInTheBottomLeftCornerLabelledWithTheFastestSpeed) {
  constexpr int kSize = 256;
  std::vector<uint8_t> rgb(kSize * kSize * 3, 128);
  DrawSpeedLegend(&rgb, kSize, 6.04);
  EXPECT_EQ(SpeedLabel(6.04), "6.0 m/s");
  const auto pixel = [&](int x, int y) {
    const size_t i = (static_cast<size_t>(y) * kSize + x) * 3;
    return Eigen::Vector3i(rgb[i], rgb[i + 1], rgb[i + 2]);
  };
  // The bar's ends: blue (stopped) on the left, red (fastest) on the right, both in the bottom
  // 15 % and left 40 % of the image; the rest of the image is untouched.
  int leftmost_blue = kSize, rightmost_red = -1, white = 0;
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const Eigen::Vector3i c = pixel(x, y);
      const bool changed = c != Eigen::Vector3i(128, 128, 128);
      if (y < kSize * 85 / 100 || x > kSize * 40 / 100) {
        ASSERT_FALSE(changed) << x << ", " << y;
        continue;
      }
      if (c.z() > 200 && c.x() < 80) leftmost_blue = std::min(leftmost_blue, x);
      if (c.x() > 200 && c.y() < 60 && c.z() < 40) rightmost_red = std::max(rightmost_red, x);
      white += c == Eigen::Vector3i(255, 255, 255);
    }
  }
  EXPECT_LT(leftmost_blue, kSize * 5 / 100);
  EXPECT_GT(rightmost_red, kSize * 25 / 100);
  EXPECT_GT(white, 30);  // the labels "0" and "6.0 m/s"
}

}  // namespace
}  // namespace asg::capture
