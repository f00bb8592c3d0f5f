// A tiny built-in 5x7 bitmap font for the mosaic's labels: digits, '#', '.', '-', ' ' and the
// letters of "regret", "run" and "no image" (lower case drawn as capitals). Other characters draw
// as a filled box.
#pragma once

#include <cstdint>
#include <string_view>

#include "report/rgb_image.h"

namespace asg::client {

/// Width of one glyph cell, the glyph's 5 columns plus one column of spacing, at scale 1. [px]
inline constexpr uint32_t kGlyphAdvance = 6;
/// Height of a glyph at scale 1. [px]
inline constexpr uint32_t kGlyphHeight = 7;

/// Draws `text` with its top left corner at (x, y), each font pixel a `scale` x `scale` square,
/// clipped to the image. Returns the width drawn: text.size() * kGlyphAdvance * scale. [px]
uint32_t DrawText(report::RgbImage* image, int64_t x, int64_t y, std::string_view text,
                  report::Rgb colour, uint32_t scale = 1);

}  // namespace asg::client
