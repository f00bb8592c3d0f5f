#include "capture/png.h"

#include <libdeflate.h>

#include <cstring>
#include <memory>
#include <string>

#include "capture/capture_error.h"

namespace asg::capture {
namespace {

// PNG filter type 1 ("Sub"): each byte minus the same channel of the pixel to its left.
constexpr uint8_t kSubFilter = 1;

// libdeflate's compression level: on rendered 512 px views level 2 is the fastest of levels 1-4
// and about 10% smaller than zlib's level 1 with run-length matching (docs/performance.md).
constexpr int kDeflateLevel = 2;

struct CompressorDeleter {
  void operator()(libdeflate_compressor* compressor) const {
    libdeflate_free_compressor(compressor);
  }
};

// This thread's compressor (its tables are allocated once, not per image).
libdeflate_compressor& ThreadCompressor() {
  thread_local const std::unique_ptr<libdeflate_compressor, CompressorDeleter> compressor(
      libdeflate_alloc_compressor(kDeflateLevel));
  if (!compressor) throw CaptureError("EncodePng: libdeflate_alloc_compressor failed");
  return *compressor;
}

void AppendBigEndian(std::vector<uint8_t>& out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(value >> shift));
}

// Writes the length, type, data and CRC of one chunk; the data are the `length` bytes that
// already follow the 8 bytes reserved for length and type at `start`.
void FinishChunk(std::vector<uint8_t>& out, size_t start, const char type[4], uint32_t length) {
  const uint8_t header[8] = {static_cast<uint8_t>(length >> 24), static_cast<uint8_t>(length >> 16),
                             static_cast<uint8_t>(length >> 8),  static_cast<uint8_t>(length),
                             static_cast<uint8_t>(type[0]),      static_cast<uint8_t>(type[1]),
                             static_cast<uint8_t>(type[2]),      static_cast<uint8_t>(type[3])};
  std::memcpy(&out[start], header, 8);
  const uint32_t crc = libdeflate_crc32(0, &out[start + 4], length + 4);
  AppendBigEndian(out, static_cast<uint32_t>(crc));
}

// The scanlines with their filter bytes, every row Sub-filtered, into `filtered` (whose storage
// is reused from call to call: a fresh buffer of this size costs page faults every time).
void FilterRows(int width, int height, const std::vector<uint8_t>& rgb,
                std::vector<uint8_t>& filtered) {
  const size_t row = static_cast<size_t>(width) * 3;
  filtered.resize((row + 1) * static_cast<size_t>(height));
  for (int y = 0; y < height; ++y) {
    const uint8_t* in = &rgb[row * y];
    uint8_t* out = &filtered[(row + 1) * y];
    *out++ = kSubFilter;
    out[0] = in[0];
    out[1] = in[1];
    out[2] = in[2];
    for (size_t i = 3; i < row; ++i) out[i] = static_cast<uint8_t>(in[i] - in[i - 3]);
  }
}

}  // namespace

std::vector<uint8_t> EncodePng(int width, int height, const std::vector<uint8_t>& rgb) {
  if (width <= 0 || height <= 0 ||
      rgb.size() != static_cast<size_t>(width) * static_cast<size_t>(height) * 3) {
    throw CaptureError("EncodePng: " + std::to_string(rgb.size()) + " bytes do not make a " +
                       std::to_string(width) + " x " + std::to_string(height) + " RGB image");
  }
  // This thread's scratch buffers, kept from image to image.
  thread_local std::vector<uint8_t> filtered;
  thread_local std::vector<uint8_t> compressed;
  FilterRows(width, height, rgb, filtered);

  static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<uint8_t> png(kSignature, kSignature + 8);
  // IHDR: size, 8 bits per channel, colour type 2 (RGB), deflate, adaptive filtering, no
  // interlace.
  size_t start = png.size();
  png.resize(start + 8);
  AppendBigEndian(png, static_cast<uint32_t>(width));
  AppendBigEndian(png, static_cast<uint32_t>(height));
  for (uint8_t byte : {8, 2, 0, 0, 0}) png.push_back(byte);
  FinishChunk(png, start, "IHDR", 13);

  // IDAT: one zlib stream.
  libdeflate_compressor& compressor = ThreadCompressor();
  compressed.resize(libdeflate_zlib_compress_bound(&compressor, filtered.size()));
  const size_t length = libdeflate_zlib_compress(&compressor, filtered.data(), filtered.size(),
                                                 compressed.data(), compressed.size());
  if (length == 0) {
    throw CaptureError("EncodePng: libdeflate found no room for a " + std::to_string(width) +
                       " x " + std::to_string(height) + " image in " +
                       std::to_string(compressed.size()) + " bytes");
  }
  png.reserve(png.size() + 8 + length + 4 + 12);
  start = png.size();
  png.resize(start + 8);
  png.insert(png.end(), compressed.begin(), compressed.begin() + static_cast<ptrdiff_t>(length));
  FinishChunk(png, start, "IDAT", static_cast<uint32_t>(length));

  start = png.size();
  png.resize(start + 8);
  FinishChunk(png, start, "IEND", 0);
  return png;
}

}  // namespace asg::capture
