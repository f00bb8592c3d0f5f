// Offscreen framebuffers of the capture renderer: the multisampled colour target every view is
// drawn into, the sun's shadow map, and the camera sensor's single-sample colour + depth + label
// target. Need the capture thread's current context.
#pragma once

#include <cstdint>
#include <vector>

#include "capture/gl.h"

namespace asg::capture {

/// Samples per pixel of the colour target.
inline constexpr int kMultisamples = 4;

/// A size x size RGBA8 + depth framebuffer with kMultisamples samples, and a single-sample
/// framebuffer it resolves into for reading back.
class ColorTarget {
 public:
  /// Allocates the framebuffers; throws CaptureError when the driver rejects them.
  explicit ColorTarget(int size);
  ~ColorTarget();
  ColorTarget(const ColorTarget&) = delete;
  ColorTarget& operator=(const ColorTarget&) = delete;

  int size() const { return size_; }
  /// Binds the multisampled framebuffer for drawing and sets the viewport.
  void Bind() const;
  /// Resolves the samples and returns RGB8 pixels, row 0 the top of the picture.
  std::vector<uint8_t> ReadRgb() const;

 private:
  int size_ = 0;
  GLuint multisample_framebuffer_ = 0;
  GLuint color_renderbuffer_ = 0;
  GLuint depth_renderbuffer_ = 0;
  GLuint resolve_framebuffer_ = 0;
  GLuint resolve_renderbuffer_ = 0;
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

/// A size x size depth texture compared in the shader (sampler2DShadow, linear filtering).
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
