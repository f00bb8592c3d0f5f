// PNG encoding of rendered images.
#pragma once

#include <cstdint>
#include <vector>

namespace asg::capture {

/// Encodes width x height RGB8 pixels (row 0 = top row, rows tightly packed, 3 bytes per pixel)
/// as PNG bytes: every row Sub-filtered, one IDAT chunk deflated by libdeflate at level 2 (fast,
/// about the size of zlib's level 3 on rendered views). Thread-safe (one compressor per thread).
/// Throws CaptureError when the sizes do not match.
std::vector<uint8_t> EncodePng(int width, int height, const std::vector<uint8_t>& rgb);

}  // namespace asg::capture
