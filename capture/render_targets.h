// Offscreen framebuffers of the capture renderer: the colour target every view is
// drawn into, the sun's shadow map, and the camera sensor's single-sample colour + depth + label
// target. Need the capture thread's current context.
#pragma once

#include <cstdint>
#include <vector>

#include "capture/gl.h"

namespace asg::capture {

/// Samples per pixel of the capture views' colour target. 1 (no multisampling): on llvmpipe 4
/// samples cost about 6 ms more per 512 px view (per-sample depth tests and writes, a 4x larger
/// buffer, the resolve), more than every other stage of a view together; edges are aliased
/// instead (docs/performance.md shows both).
inline constexpr int kMultisamples = 1;

/// A size x size RGBA8 + depth framebuffer with `samples` samples per pixel; with more than one,
/// also a single-sample framebuffer it resolves into for reading back.
class ColorTarget {
 public:
  /// Allocates the framebuffers (`samples` is capped at the driver's GL_MAX_SAMPLES); throws
  /// CaptureError when the driver rejects them.
  ColorTarget(int size, int samples);
  ~ColorTarget();
  ColorTarget(const ColorTarget&) = delete;
  ColorTarget& operator=(const ColorTarget&) = delete;

  int size() const { return size_; }
  /// Binds the framebuffer drawn into (the multisampled one if any) and sets the viewport.
  void Bind() const;
  /// Resolves the samples (if multisampled) and returns RGB8 pixels, row 0 the top of the
  /// picture.
  std::vector<uint8_t> ReadRgb() const;

 private:
  int size_ = 0;
  GLuint draw_framebuffer_ = 0;  ///< drawn into; the resolve framebuffer when single-sample
  GLuint color_renderbuffer_ = 0;
  GLuint depth_renderbuffer_ = 0;
  GLuint resolve_framebuffer_ = 0;   ///< read back
  GLuint resolve_renderbuffer_ = 0;  ///< 0 when single-sample
  /// ReadRgb's RGBA pixels, kept between calls (a fresh 1 MiB buffer costs page faults).
  mutable std::vector<uint8_t> rgba_scratch_;
};

/// A width x height single-sample framebuffer with three colour attachments (0: RGBA8 colour,
/// 1: R32F z-depth [m], 2: R8 segmentation label) and a 24-bit depth buffer. No multisampling,
/// so that every pixel's depth and label come from one surface.
class SensorTarget {
 public:
  /// Allocates the framebuffer; throws CaptureError when the driver rejects it.
  SensorTarget(int width, int height);
  ~SensorTarget();
  SensorTarget(const SensorTarget&) = delete;
  SensorTarget& operator=(const SensorTarget&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  /// Binds it with all three attachments drawn, sets the viewport, and clears: colour black,
  /// depth +infinity, label 0, depth buffer 1.
  void BindAndClear() const;
  /// Restricts drawing to attachment 0 (colour) or restores all three.
  void DrawColourOnly(bool colour_only) const;
  /// RGB8 pixels, row 0 the top of the picture, 3 * width bytes per row.
  std::vector<uint8_t> ReadRgb() const;
  /// Attachment 1, row 0 the top of the picture.
  std::vector<float> ReadDepth() const;
  /// Attachment 2, row 0 the top of the picture.
  std::vector<uint8_t> ReadLabels() const;

 private:
  int width_ = 0;
  int height_ = 0;
  GLuint framebuffer_ = 0;
  GLuint renderbuffers_[4] = {0, 0, 0, 0};  // colour, depth [m], label, depth buffer
};

/// A size x size 16-bit depth texture compared in the shader (sampler2DShadow, linear filtering).
class ShadowMap {
 public:
  explicit ShadowMap(int size);
  ~ShadowMap();
  ShadowMap(const ShadowMap&) = delete;
  ShadowMap& operator=(const ShadowMap&) = delete;

  int size() const { return size_; }
  GLuint texture() const { return texture_; }
  /// Binds the framebuffer for the depth pass, sets the viewport and clears depth.
  void BindForDrawing() const;

 private:
  int size_ = 0;
  GLuint framebuffer_ = 0;
  GLuint texture_ = 0;
};

}  // namespace asg::capture
