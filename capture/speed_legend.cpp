// The speed legend, drawn on the pixels of an annotated ortho aerial.
#include "capture/speed_legend.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "capture/annotations.h"

namespace asg::capture {
namespace {

// A 5-row bitmap glyph: each row a string of '#' (ink) and '.' (none), all rows one width.
struct Glyph {
  char c;
  const char* rows[5];
};
constexpr Glyph kGlyphs[] = {
    {'0', {"###", "#.#", "#.#", "#.#", "###"}},
    {'1', {".#.", "##.", ".#.", ".#.", "###"}},
    {'2', {"###", "..#", "###", "#..", "###"}},
    {'3', {"###", "..#", "###", "..#", "###"}},
    {'4', {"#.#", "#.#", "###", "..#", "..#"}},
    {'5', {"###", "#..", "###", "..#", "###"}},
    {'6', {"###", "#..", "###", "#.#", "###"}},
    {'7', {"###", "..#", "..#", "..#", "..#"}},
    {'8', {"###", "#.#", "###", "#.#", "###"}},
    {'9', {"###", "#.#", "###", "..#", "###"}},
    {'.', {".", ".", ".", ".", "#"}},
    {' ', {"..", "..", "..", "..", ".."}},
    {'/', {"..#", "..#", ".#.", "#..", "#.."}},
    {'m', {".....", "####.", "#.#.#", "#.#.#", "#.#.#"}},
    {'s', {"...", "###", "##.", "..#", "###"}},
};

const Glyph* FindGlyph(char c) {
  for (const Glyph& glyph : kGlyphs) {
    if (glyph.c == c) return &glyph;
  }
  return nullptr;
}

// Width of `text` in glyph columns, one blank column between glyphs.
int TextColumns(const std::string& text) {
  int columns = 0;
  for (const char c : text) {
    if (const Glyph* glyph = FindGlyph(c))
      columns += static_cast<int>(std::strlen(glyph->rows[0])) + 1;
  }
  return columns > 0 ? columns - 1 : 0;
}

// An RGB image being drawn on, clipped to its bounds.
struct Canvas {
  std::vector<uint8_t>& rgb;
  int size;
  void Blend(int x, int y, const Eigen::Vector3f& color, float alpha) {
    if (x < 0 || y < 0 || x >= size || y >= size) return;
    uint8_t* p = &rgb[(static_cast<size_t>(y) * size + x) * 3];
    for (int k = 0; k < 3; ++k) {
      p[k] = static_cast<uint8_t>(
          std::lround((1.0f - alpha) * p[k] + alpha * 255.0f * std::clamp(color[k], 0.0f, 1.0f)));
    }
  }
  void Fill(int x0, int y0, int x1, int y1, const Eigen::Vector3f& color, float alpha) {
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) Blend(x, y, color, alpha);
    }
  }
  void Text(int x, int y, const std::string& text, int scale, const Eigen::Vector3f& color) {
    for (const char c : text) {
      const Glyph* glyph = FindGlyph(c);
      if (glyph == nullptr) continue;
      const int width = static_cast<int>(std::strlen(glyph->rows[0]));
      for (int row = 0; row < 5; ++row) {
        for (int col = 0; col < width; ++col) {
          if (glyph->rows[row][col] != '#') continue;
          Fill(x + col * scale, y + row * scale, x + (col + 1) * scale, y + (row + 1) * scale,
               color, 1.0f);
        }
      }
      x += (width + 1) * scale;
    }
  }
};

}  // namespace

std::string SpeedLabel(double fastest) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f m/s", fastest);
  return text;
}

void DrawSpeedLegend(std::vector<uint8_t>* rgb, int size, double fastest) {
  Canvas canvas{*rgb, size};
  const int scale = std::max(1, size / 160);  // text pixels per glyph pixel
  const int margin = std::max(4, size / 48);
  const int pad = std::max(2, size / 128);
  const int bar_width = std::max(24, size * 3 / 10);
  const int bar_height = std::max(4, size / 40);
  const int text_height = 5 * scale;
  const int x0 = margin + pad;
  const int text_y = size - margin - pad - text_height;
  const int bar_y = text_y - pad - bar_height;
  const std::string label = SpeedLabel(fastest);
  const int label_width = TextColumns(label) * scale;
  const int panel_right = x0 + std::max(bar_width, label_width) + pad;
  canvas.Fill(margin, bar_y - pad, panel_right, size - margin, {0.0f, 0.0f, 0.0f}, 0.6f);
  for (int x = 0; x < bar_width; ++x) {
    const double t = bar_width > 1 ? static_cast<double>(x) / (bar_width - 1) : 0.0;
    const Eigen::Vector4f color = SpeedColor(t * fastest, fastest);
    canvas.Fill(x0 + x, bar_y, x0 + x + 1, bar_y + bar_height, color.head<3>(), 1.0f);
  }
  const Eigen::Vector3f white(1.0f, 1.0f, 1.0f);
  canvas.Text(x0, text_y, "0", scale, white);
  canvas.Text(x0 + std::max(bar_width, label_width) - label_width, text_y, label, scale, white);
}

}  // namespace asg::capture
