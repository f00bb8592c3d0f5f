// The exception type of the capture module.
#pragma once

#include <stdexcept>
#include <string>

namespace asg::capture {

/// Thrown when images cannot be rendered: EGL or OpenGL is unavailable, a GL object cannot be
/// created, or the capture settings ask for something out of range (the message names the field
/// and the value). The worker reports it as a capture error and keeps running scenarios.
class CaptureError : public std::runtime_error {
 public:
  explicit CaptureError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace asg::capture
