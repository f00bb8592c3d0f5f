// Tests for capture/png.h.
#include "capture/png.h"

#include <gtest/gtest.h>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include "capture/capture_error.h"

namespace asg::capture {
namespace {

TEST(EncodePng, DecodesBackToTheSamePixels) {
  const int width = 7, height = 5;
  std::vector<uint8_t> rgb(width * height * 3);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<uint8_t>(i * 37 % 256);
  const std::vector<uint8_t> png = EncodePng(width, height, rgb);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png[1], 'P');
  int w = 0, h = 0, channels = 0;
  uint8_t* decoded =
      stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &channels, 3);
  ASSERT_NE(decoded, nullptr);
  EXPECT_EQ(w, width);
  EXPECT_EQ(h, height);
  EXPECT_EQ(std::vector<uint8_t>(decoded, decoded + rgb.size()), rgb);
  stbi_image_free(decoded);
}

TEST(EncodePng, RejectsAMismatchedBuffer) {
  EXPECT_THROW(EncodePng(4, 4, std::vector<uint8_t>(10)), CaptureError);
}

}  // namespace
}  // namespace asg::capture
