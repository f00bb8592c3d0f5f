// RGB images for the pictures made for people (the report's archive map, the replay's
// family-tree mosaic): PNG decoding and encoding (stb_image, stb_image_write) and the few drawing
// operations they need. Not thread-safe per image; images are plain values.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace asg::report {

/// An 8-bit RGB colour.
struct Rgb {
  uint8_t r = 0;  ///< red, 0..255
  uint8_t g = 0;  ///< green, 0..255
  uint8_t b = 0;  ///< blue, 0..255
  bool operator==(const Rgb&) const = default;
};

/// An 8-bit RGB image, rows top to bottom, 3 bytes per pixel.
struct RgbImage {
  uint32_t width = 0;           ///< [px]
  uint32_t height = 0;          ///< [px]
  std::vector<uint8_t> pixels;  ///< width * height * 3 bytes

  /// A width x height image filled with `fill`.
  static RgbImage Filled(uint32_t width, uint32_t height, Rgb fill);
  /// The pixel at (x, y); both must be inside the image.
  Rgb At(uint32_t x, uint32_t y) const;
  /// Sets the pixel at (x, y) when it is inside the image; does nothing otherwise.
  void Set(int64_t x, int64_t y, Rgb colour);
};

/// `png` decoded to RGB (any PNG colour type stb_image reads), or nullopt when it is not a PNG
/// stb_image can read.
std::optional<RgbImage> DecodePng(std::string_view png);

/// The PNG file `file` decoded, or nullopt when it is missing or cannot be decoded.
std::optional<RgbImage> ReadPngFile(const std::filesystem::path& file);

/// `image` as PNG bytes (stb_image_write). Throws std::runtime_error when encoding fails.
std::string EncodePng(const RgbImage& image);

/// Fills the rectangle [x, x + width) x [y, y + height) with `colour`, clipped to the image.
void FillRectangle(RgbImage* image, int64_t x, int64_t y, uint32_t width, uint32_t height,
                   Rgb colour);

/// Draws `source` scaled to width x height (nearest pixel) with its top left corner at (x, y),
/// clipped to `target`.
void DrawScaled(RgbImage* target, const RgbImage& source, int64_t x, int64_t y, uint32_t width,
                uint32_t height);

}  // namespace asg::report
