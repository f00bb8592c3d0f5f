// RGB images, PNG in and out through stb. The stb implementations are compiled here, static to
// this file, so no other target sees their symbols.
#include "report/rgb_image.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

namespace asg::report {

RgbImage RgbImage::Filled(uint32_t width, uint32_t height, Rgb fill) {
  RgbImage image;
  image.width = width;
  image.height = height;
  image.pixels.resize(static_cast<size_t>(width) * height * 3);
  for (size_t i = 0; i < image.pixels.size(); i += 3) {
    image.pixels[i] = fill.r;
    image.pixels[i + 1] = fill.g;
    image.pixels[i + 2] = fill.b;
  }
  return image;
}

Rgb RgbImage::At(uint32_t x, uint32_t y) const {
  const size_t i = (static_cast<size_t>(y) * width + x) * 3;
  return {pixels[i], pixels[i + 1], pixels[i + 2]};
}

void RgbImage::Set(int64_t x, int64_t y, Rgb colour) {
  if (x < 0 || y < 0 || x >= width || y >= height) return;
  const size_t i = (static_cast<size_t>(y) * width + static_cast<size_t>(x)) * 3;
  pixels[i] = colour.r;
  pixels[i + 1] = colour.g;
  pixels[i + 2] = colour.b;
}

std::optional<RgbImage> DecodePng(std::string_view png) {
  int width = 0;
  int height = 0;
  int channels = 0;
  stbi_uc* decoded =
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(png.data()),
                            static_cast<int>(png.size()), &width, &height, &channels, 3);
  if (decoded == nullptr) return std::nullopt;
  RgbImage image;
  image.width = static_cast<uint32_t>(width);
  image.height = static_cast<uint32_t>(height);
  image.pixels.assign(decoded, decoded + static_cast<size_t>(width) * height * 3);
  stbi_image_free(decoded);
  return image;
}

std::optional<RgbImage> ReadPngFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return DecodePng(bytes.str());
}

std::string EncodePng(const RgbImage& image) {
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<size_t>(size));
  };
  const int ok = stbi_write_png_to_func(append, &png, static_cast<int>(image.width),
                                        static_cast<int>(image.height), 3, image.pixels.data(),
                                        static_cast<int>(image.width * 3));
  if (ok == 0) {
    throw std::runtime_error("cannot encode a " + std::to_string(image.width) + "x" +
                             std::to_string(image.height) + " PNG");
  }
  return png;
}

void FillRectangle(RgbImage* image, int64_t x, int64_t y, uint32_t width, uint32_t height,
                   Rgb colour) {
  for (int64_t row = y; row < y + height; ++row) {
    for (int64_t column = x; column < x + width; ++column) image->Set(column, row, colour);
  }
}

void DrawScaled(RgbImage* target, const RgbImage& source, int64_t x, int64_t y, uint32_t width,
                uint32_t height) {
  if (source.width == 0 || source.height == 0) return;
  for (uint32_t row = 0; row < height; ++row) {
    const uint32_t source_row = static_cast<uint32_t>(uint64_t{row} * source.height / height);
    for (uint32_t column = 0; column < width; ++column) {
      const uint32_t source_column = static_cast<uint32_t>(uint64_t{column} * source.width / width);
      target->Set(x + column, y + row, source.At(source_column, source_row));
    }
  }
}

}  // namespace asg::report
