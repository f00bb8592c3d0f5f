#include "capture/render_targets.h"

#include <algorithm>
#include <cstring>
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

ColorTarget::ColorTarget(int size) : size_(size) {
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  const int samples = std::min(kMultisamples, static_cast<int>(max_samples));
  glGenFramebuffers(1, &multisample_framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, multisample_framebuffer_);
  glGenRenderbuffers(1, &color_renderbuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_renderbuffer_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, size, size);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            color_renderbuffer_);
  glGenRenderbuffers(1, &depth_renderbuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_renderbuffer_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, size, size);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                            depth_renderbuffer_);
  RequireComplete("multisampled colour", size);

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
  glDeleteFramebuffers(1, &resolve_framebuffer_);
  glDeleteRenderbuffers(1, &resolve_renderbuffer_);
  glDeleteFramebuffers(1, &multisample_framebuffer_);
  glDeleteRenderbuffers(1, &depth_renderbuffer_);
  glDeleteRenderbuffers(1, &color_renderbuffer_);
}

void ColorTarget::Bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, multisample_framebuffer_);
  glViewport(0, 0, size_, size_);
}

std::vector<uint8_t> ColorTarget::ReadRgb() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, multisample_framebuffer_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_framebuffer_);
  glBlitFramebuffer(0, 0, size_, size_, 0, 0, size_, size_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_framebuffer_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  const size_t row = static_cast<size_t>(size_) * 3;
  std::vector<uint8_t> bottom_up(row * size_);
  glReadPixels(0, 0, size_, size_, GL_RGB, GL_UNSIGNED_BYTE, bottom_up.data());
  // GL's row 0 is the bottom of the picture; PNG's is the top.
  std::vector<uint8_t> top_down(bottom_up.size());
  for (int y = 0; y < size_; ++y) {
    std::memcpy(&top_down[row * y], &bottom_up[row * (size_ - 1 - y)], row);
  }
  return top_down;
}

ShadowMap::ShadowMap(int size) : size_(size) {
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT,
               GL_UNSIGNED_INT, nullptr);
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
