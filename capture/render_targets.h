// Offscreen framebuffers of the capture renderer: the multisampled colour target every view is
// drawn into, and the sun's shadow map. Need the capture thread's current context.
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
