// The headless OpenGL context of a capture thread, created through EGL without any window.
#pragma once

#include <string>

namespace asg::capture {

/// An OpenGL 3.3+ core context made current on the thread that created it, with no default
/// framebuffer (all drawing goes to framebuffer objects).
///
/// Display choice: when the EGL client library offers EGL_EXT_device_enumeration and
/// EGL_EXT_platform_device, the first hardware device (one without EGL_MESA_device_software) is
/// used, so a machine with a GPU renders on it; otherwise, or when no hardware device
/// initialises, the Mesa surfaceless platform (EGL_PLATFORM_SURFACELESS_MESA, llvmpipe on a
/// machine without a GPU) is used.
///
/// Thread confinement: there is at most one context per thread, owned by a thread_local slot and
/// destroyed when the thread ends (the EGL display itself is shared by the process and stays
/// initialised). GL objects created while it is current belong to that thread;
/// nothing here may be shared across threads. llvmpipe reads LP_NUM_THREADS when the first
/// context of the process is created, so a worker sets it before its first capture.
class EglContext {
 public:
  /// The calling thread's context, created on first use and made current. Throws CaptureError
  /// naming the failing EGL step and its error code when EGL or a 3.3 core context is
  /// unavailable; a failed creation is retried on the next call.
  static EglContext& ForThisThread();

  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  /// Makes the context current on this thread again (after other code changed it).
  void MakeCurrent() const;

  /// "EGL platform: <device|surfaceless>; GL_VENDOR; GL_RENDERER; GL_VERSION", for logs.
  const std::string& description() const { return description_; }

 private:
  EglContext();

  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  std::string description_;
};

}  // namespace asg::capture
