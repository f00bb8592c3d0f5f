// The GLSL programs of the capture renderer and a small owner for linked programs.
// Every function here needs the capture thread's current context (egl_context.h).
#pragma once

#include <string>

#include "capture/gl.h"

namespace asg::capture {

/// Vertex attribute locations shared by every program and every vertex array.
inline constexpr GLuint kPositionAttribute = 0;  ///< vec3 [m]
inline constexpr GLuint kNormalAttribute = 1;    ///< vec3 unit normal
inline constexpr GLuint kColorAttribute = 2;     ///< vec4 RGBA (overlay program)
inline constexpr GLuint kModelAttribute = 3;     ///< mat4 per instance, locations 3..6

/// A linked GLSL program; deletes it on destruction. Thread-confined like the context.
class Program {
 public:
  /// Compiles and links the two stages. Throws CaptureError with `name` and the GL info log on
  /// a compile or link failure.
  Program(const std::string& name, const char* vertex_source, const char* fragment_source);
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  GLuint id() const { return id_; }
  /// Location of a uniform; -1 when the program has none of that name (GL ignores -1).
  GLint Uniform(const char* name) const { return glGetUniformLocation(id_, name); }

 private:
  GLuint id_ = 0;
};

/// Lit geometry (terrain and instanced meshes): sun + sky light, shadow map, haze; the terrain
/// material colours the ground by height and slope and draws faint contour lines.
extern const char* const kLitVertexShader;
extern const std::string kLitFragmentShader;
/// The camera sensor's lit geometry (same vertex shader and lighting as kLitFragmentShader)
/// writing three targets: location 0 colour, 1 z-depth [m] along u_forward from u_eye (float),
/// 2 the segmentation label u_label (label / 255 into an 8-bit normalised target).
extern const std::string kSensorFragmentShader;
/// Depth-only pass from the sun into the shadow map.
extern const char* const kShadowVertexShader;
extern const char* const kShadowFragmentShader;
/// Full-screen sky gradient behind the scene.
extern const char* const kSkyVertexShader;
extern const char* const kSkyFragmentShader;
/// Unlit, per-vertex coloured annotation geometry.
extern const char* const kOverlayVertexShader;
extern const char* const kOverlayFragmentShader;

}  // namespace asg::capture
