#include "capture/render_targets.h"

#include <algorithm>
#include <limits>
#include <string>

#include "capture/capture_error.h"

namespace asg::capture {
namespace {

void RequireComplete(const char* what, int size) {
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    throw CaptureError(std::string("GL: ") + what + " framebuffer of " + std::to_string(size) +
                       " px is incomplete (status " + std::to_string(status) + ")");
  }
}

}  // namespace

ColorTarget::ColorTarget(int size, int samples) : size_(size) {
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  samples = std::min(samples, static_cast<int>(max_samples));
  const bool multisampled = samples > 1;
  glGenFramebuffers(1, &draw_framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, draw_framebuffer_);
  glGenRenderbuffers(1, &color_renderbuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_renderbuffer_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, multisampled ? samples : 0, GL_RGBA8, size,
                                   size);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            color_renderbuffer_);
  glGenRenderbuffers(1, &depth_renderbuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_renderbuffer_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, multisampled ? samples : 0,
                                   GL_DEPTH_COMPONENT24, size, size);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                            depth_renderbuffer_);
  RequireComplete(multisampled ? "multisampled colour" : "colour", size);
  resolve_framebuffer_ = draw_framebuffer_;
  if (!multisampled) return;

  glGenFramebuffers(1, &resolve_framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_framebuffer_);
  glGenRenderbuffers(1, &resolve_renderbuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, resolve_renderbuffer_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, size, size);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            resolve_renderbuffer_);
  RequireComplete("resolve", size);
}

ColorTarget::~ColorTarget() {
  if (resolve_framebuffer_ != draw_framebuffer_) {
    glDeleteFramebuffers(1, &resolve_framebuffer_);
    glDeleteRenderbuffers(1, &resolve_renderbuffer_);
  }
  glDeleteFramebuffers(1, &draw_framebuffer_);
  glDeleteRenderbuffers(1, &depth_renderbuffer_);
  glDeleteRenderbuffers(1, &color_renderbuffer_);
}

void ColorTarget::Bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, draw_framebuffer_);
  glViewport(0, 0, size_, size_);
}

std::vector<uint8_t> ColorTarget::ReadRgb() const {
  if (resolve_framebuffer_ != draw_framebuffer_) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, draw_framebuffer_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_framebuffer_);
    glBlitFramebuffer(0, 0, size_, size_, 0, 0, size_, size_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_framebuffer_);
  // RGBA8 matches the renderbuffer, so the driver copies without a format conversion; alpha is
  // dropped here while the rows are flipped.
  const size_t width = static_cast<size_t>(size_);
  std::vector<uint8_t>& rgba = rgba_scratch_;
  rgba.resize(width * width * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glReadPixels(0, 0, size_, size_, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  // GL's row 0 is the bottom of the picture; PNG's is the top.
  std::vector<uint8_t> top_down(width * width * 3);
  for (size_t y = 0; y < width; ++y) {
    const uint8_t* in = &rgba[4 * width * (width - 1 - y)];
    uint8_t* out = &top_down[3 * width * y];
    for (size_t x = 0; x < width; ++x) {
      out[3 * x] = in[4 * x];
      out[3 * x + 1] = in[4 * x + 1];
      out[3 * x + 2] = in[4 * x + 2];
    }
  }
  return top_down;
}

SensorTarget::SensorTarget(int width, int height) : width_(width), height_(height) {
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glGenRenderbuffers(4, renderbuffers_);
  const GLenum formats[4] = {GL_RGBA8, GL_R32F, GL_R8, GL_DEPTH_COMPONENT24};
  const GLenum attachments[4] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2,
                                 GL_DEPTH_ATTACHMENT};
  for (int k = 0; k < 4; ++k) {
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[k]);
    glRenderbufferStorage(GL_RENDERBUFFER, formats[k], width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, attachments[k], GL_RENDERBUFFER, renderbuffers_[k]);
  }
  RequireComplete("camera sensor", width);
}

SensorTarget::~SensorTarget() {
  glDeleteFramebuffers(1, &framebuffer_);
  glDeleteRenderbuffers(4, renderbuffers_);
}

void SensorTarget::DrawColourOnly(bool colour_only) const {
  const GLenum all[3] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2};
  glDrawBuffers(colour_only ? 1 : 3, all);
}

void SensorTarget::BindAndClear() const {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width_, height_);
  DrawColourOnly(false);
  glDepthMask(GL_TRUE);
  const GLfloat black[4] = {0.0f, 0.0f, 0.0f, 1.0f};
  const GLfloat far_away[4] = {std::numeric_limits<float>::infinity(), 0.0f, 0.0f, 0.0f};
  const GLfloat sky_label[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  glClearBufferfv(GL_COLOR, 0, black);
  glClearBufferfv(GL_COLOR, 1, far_away);
  glClearBufferfv(GL_COLOR, 2, sky_label);
  const GLfloat farthest = 1.0f;
  glClearBufferfv(GL_DEPTH, 0, &farthest);
}

namespace {

// Reads attachment `index` of the bound read framebuffer as `channels` values of `type` per
// pixel, rows reordered top first.
template <typename T>
std::vector<T> ReadFlipped(int index, int width, int height, GLenum format, GLenum type) {
  glReadBuffer(GL_COLOR_ATTACHMENT0 + index);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  const size_t channels = format == GL_RGBA ? 4 : 1;
  const size_t row = channels * static_cast<size_t>(width);
  std::vector<T> bottom_up(row * height);
  glReadPixels(0, 0, width, height, format, type, bottom_up.data());
  std::vector<T> top_down(bottom_up.size());
  for (int y = 0; y < height; ++y) {
    std::copy_n(&bottom_up[row * (height - 1 - y)], row, &top_down[row * y]);
  }
  return top_down;
}

}  // namespace

std::vector<uint8_t> SensorTarget::ReadRgb() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  const std::vector<uint8_t> rgba =
      ReadFlipped<uint8_t>(0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE);
  std::vector<uint8_t> rgb(static_cast<size_t>(width_) * height_ * 3);
  for (size_t i = 0, pixels = rgb.size() / 3; i < pixels; ++i) {
    rgb[3 * i] = rgba[4 * i];
    rgb[3 * i + 1] = rgba[4 * i + 1];
    rgb[3 * i + 2] = rgba[4 * i + 2];
  }
  return rgb;
}

std::vector<float> SensorTarget::ReadDepth() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  return ReadFlipped<float>(1, width_, height_, GL_RED, GL_FLOAT);
}

std::vector<uint8_t> SensorTarget::ReadLabels() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  return ReadFlipped<uint8_t>(2, width_, height_, GL_RED, GL_UNSIGNED_BYTE);
}

ShadowMap::ShadowMap(int size) : size_(size) {
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  // 16-bit depth: steps of about 2 mm over a 100 m scene, ample for the shadow test, and half the
  // memory of 24 bits (stored in 32) for the views' shadow lookups to miss in cache.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT16, size, size, 0, GL_DEPTH_COMPONENT,
               GL_UNSIGNED_SHORT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, texture_, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  RequireComplete("shadow map", size);
}

ShadowMap::~ShadowMap() {
  glDeleteFramebuffers(1, &framebuffer_);
  glDeleteTextures(1, &texture_);
}

void ShadowMap::BindForDrawing() const {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, size_, size_);
  glClear(GL_DEPTH_BUFFER_BIT);
}

}  // namespace asg::capture
