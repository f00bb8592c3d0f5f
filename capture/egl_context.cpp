#include "capture/egl_context.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string_view>
#include <vector>

#include "capture/capture_error.h"
#include "capture/gl.h"

namespace asg::capture {
namespace {

bool HasExtension(const char* list, std::string_view name) {
  if (list == nullptr) return false;
  std::string_view all(list);
  size_t pos = 0;
  while ((pos = all.find(name, pos)) != std::string_view::npos) {
    const size_t end = pos + name.size();
    const bool starts = pos == 0 || all[pos - 1] == ' ';
    const bool ends = end == all.size() || all[end] == ' ';
    if (starts && ends) return true;
    pos = end;
  }
  return false;
}

std::string EglErrorText(const char* step) {
  std::ostringstream out;
  out << "EGL: " << step << " failed (EGL error 0x" << std::hex << eglGetError() << ")";
  return out.str();
}

// Returns an initialised display on a hardware EGL device, or EGL_NO_DISPLAY.
EGLDisplay OpenDeviceDisplay(const char* client_extensions) {
  if (!HasExtension(client_extensions, "EGL_EXT_device_enumeration") ||
      !HasExtension(client_extensions, "EGL_EXT_platform_device")) {
    return EGL_NO_DISPLAY;
  }
  auto query_devices =
      reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto query_device_string = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(
      eglGetProcAddress("eglQueryDeviceStringEXT"));
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!query_devices || !query_device_string || !get_platform_display) return EGL_NO_DISPLAY;
  EGLint count = 0;
  if (!query_devices(0, nullptr, &count) || count <= 0) return EGL_NO_DISPLAY;
  std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
  if (!query_devices(count, devices.data(), &count)) return EGL_NO_DISPLAY;
  for (EGLint i = 0; i < count; ++i) {
    const char* device_extensions = query_device_string(devices[i], EGL_EXTENSIONS);
    if (HasExtension(device_extensions, "EGL_MESA_device_software")) continue;
    EGLDisplay display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
    if (display == EGL_NO_DISPLAY) continue;
    EGLint major = 0, minor = 0;
    if (eglInitialize(display, &major, &minor)) return display;
  }
  return EGL_NO_DISPLAY;
}

// Returns an initialised display on the Mesa surfaceless platform, or EGL_NO_DISPLAY.
EGLDisplay OpenSurfacelessDisplay(const char* client_extensions) {
  if (!HasExtension(client_extensions, "EGL_MESA_platform_surfaceless")) return EGL_NO_DISPLAY;
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!get_platform_display) return EGL_NO_DISPLAY;
  EGLDisplay display =
      get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY) return EGL_NO_DISPLAY;
  EGLint major = 0, minor = 0;
  return eglInitialize(display, &major, &minor) ? display : EGL_NO_DISPLAY;
}

thread_local std::unique_ptr<EglContext> this_thread_context;

}  // namespace

EglContext& EglContext::ForThisThread() {
  if (!this_thread_context) this_thread_context.reset(new EglContext());
  return *this_thread_context;
}

EglContext::EglContext() {
  const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (client_extensions == nullptr) {
    throw CaptureError(EglErrorText("eglQueryString(EGL_EXTENSIONS) (no EGL client library?)"));
  }
  std::string platform = "device";
  EGLDisplay display = OpenDeviceDisplay(client_extensions);
  if (display == EGL_NO_DISPLAY) {
    platform = "surfaceless";
    display = OpenSurfacelessDisplay(client_extensions);
  }
  if (display == EGL_NO_DISPLAY) {
    throw CaptureError(
        "EGL: no usable display (neither a hardware EGL device nor "
        "EGL_PLATFORM_SURFACELESS_MESA initialised); client extensions: " +
        std::string(client_extensions));
  }
  display_ = display;
  const char* display_extensions = eglQueryString(display, EGL_EXTENSIONS);
  if (!HasExtension(display_extensions, "EGL_KHR_surfaceless_context")) {
    throw CaptureError("EGL: the " + platform + " display lacks EGL_KHR_surfaceless_context");
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    const std::string message = EglErrorText("eglBindAPI(EGL_OPENGL_API)");
    throw CaptureError(message);
  }
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &config_count) || config_count < 1) {
    const std::string message = EglErrorText("eglChooseConfig(EGL_OPENGL_BIT)");
    throw CaptureError(message);
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                       3,
                                       EGL_CONTEXT_MINOR_VERSION,
                                       3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) {
    const std::string message = EglErrorText("eglCreateContext(OpenGL 3.3 core)");
    throw CaptureError(message);
  }
  context_ = context;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    const std::string message = EglErrorText("eglMakeCurrent(surfaceless)");
    eglDestroyContext(display, context);
    throw CaptureError(message);
  }
  auto text = [](GLenum name) {
    const GLubyte* value = glGetString(name);
    return value ? std::string(reinterpret_cast<const char*>(value)) : std::string("?");
  };
  description_ = "EGL platform: " + platform + "; " + text(GL_VENDOR) + "; " + text(GL_RENDERER) +
                 "; " + text(GL_VERSION);
}

EglContext::~EglContext() {
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, context_);
}

void EglContext::MakeCurrent() const {
  if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) {
    throw CaptureError(EglErrorText("eglMakeCurrent"));
  }
}

}  // namespace asg::capture
