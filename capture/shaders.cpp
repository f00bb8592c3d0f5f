#include "capture/shaders.h"

#include <vector>

#include "capture/capture_error.h"

namespace asg::capture {
namespace {

GLuint Compile(const std::string& name, GLenum stage, const char* source) {
  const GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length) + 1, '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    glDeleteShader(shader);
    throw CaptureError("GL: " + name + (stage == GL_VERTEX_SHADER ? " vertex" : " fragment") +
                       " shader does not compile: " + log.data());
  }
  return shader;
}

}  // namespace

Program::Program(const std::string& name, const char* vertex_source, const char* fragment_source) {
  const GLuint vertex = Compile(name, GL_VERTEX_SHADER, vertex_source);
  GLuint fragment = 0;
  try {
    fragment = Compile(name, GL_FRAGMENT_SHADER, fragment_source);
  } catch (...) {
    glDeleteShader(vertex);
    throw;
  }
  id_ = glCreateProgram();
  glAttachShader(id_, vertex);
  glAttachShader(id_, fragment);
  glLinkProgram(id_);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = GL_FALSE;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint length = 0;
    glGetProgramiv(id_, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length) + 1, '\0');
    glGetProgramInfoLog(id_, length, nullptr, log.data());
    glDeleteProgram(id_);
    throw CaptureError("GL: " + name + " program does not link: " + log.data());
  }
}

Program::~Program() { glDeleteProgram(id_); }

const char* const kLitVertexShader = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 3) in mat4 a_model;
uniform mat4 u_view_projection;
uniform mat4 u_light_matrix;  // world -> shadow map [0, 1]^3
out vec3 v_world;
out vec3 v_normal;
out vec4 v_shadow;
void main() {
  vec4 world = a_model * vec4(a_position, 1.0);
  v_world = world.xyz;
  v_normal = mat3(a_model) * a_normal;  // rotation and uniform scale only
  v_shadow = u_light_matrix * world;
  gl_Position = u_view_projection * world;
}
)";

// The lit material and lighting shared by the capture views and the camera sensor: LitColor()
// returns the shaded colour of the current fragment.
constexpr char kLitShading[] = R"(#version 330 core
in vec3 v_world;
in vec3 v_normal;
in vec4 v_shadow;
uniform int u_terrain;             // 1: colour from height and slope; 0: u_color
uniform vec3 u_color;
uniform vec3 u_to_sun;             // unit, from the ground towards the sun
uniform vec3 u_sun_light;
uniform vec3 u_eye;
uniform float u_haze_distance;     // [m], 0 = no haze
uniform vec3 u_haze_color;
uniform vec2 u_height_range;       // [m] lowest, highest ground
uniform float u_contour_step;      // [m], 0 = no contour lines
uniform sampler2DShadow u_shadow_map;

float SunVisibility() {
  vec3 p = v_shadow.xyz / v_shadow.w;
  if (p.z >= 1.0 || p.x <= 0.0 || p.y <= 0.0 || p.x >= 1.0 || p.y >= 1.0) return 1.0;
  return texture(u_shadow_map, p);  // 2 x 2 filtered comparison
}

vec3 GroundColor(vec3 n) {
  float span = max(u_height_range.y - u_height_range.x, 1e-3);
  float h = clamp((v_world.z - u_height_range.x) / span, 0.0, 1.0);
  float slope = smoothstep(0.06, 0.30, 1.0 - n.z);
  vec3 low = vec3(0.40, 0.50, 0.24);
  vec3 high = vec3(0.66, 0.62, 0.42);
  vec3 steep = vec3(0.55, 0.46, 0.36);
  vec3 c = mix(mix(low, high, h), steep, slope);
  if (u_contour_step > 0.0) {
    float level = (v_world.z - u_height_range.x) / u_contour_step + 0.5;
    float distance_to_line = abs(fract(level) - 0.5) * 2.0;   // 1 on a line
    float width = fwidth(level) * 2.0;
    float line = smoothstep(1.0 - width, 1.0, distance_to_line);
    c *= 1.0 - 0.18 * line;
  }
  return c;
}

vec3 LitColor() {
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;
  vec3 base = u_terrain == 1 ? GroundColor(n) : u_color;
  float direct = max(dot(n, u_to_sun), 0.0);
  if (direct > 0.0) direct *= SunVisibility();
  vec3 sky = mix(vec3(0.36, 0.34, 0.30), vec3(0.52, 0.58, 0.68), 0.5 + 0.5 * n.z);
  vec3 c = base * (u_sun_light * direct + sky);
  if (u_haze_distance > 0.0) {
    float haze = 1.0 - exp(-length(v_world - u_eye) / u_haze_distance);
    c = mix(c, u_haze_color, 0.8 * haze);
  }
  return clamp(c, 0.0, 1.0);
}
)";

const std::string kLitFragmentShader = std::string(kLitShading) + R"(
out vec4 frag_color;
void main() { frag_color = vec4(LitColor(), 1.0); }
)";

const std::string kSensorFragmentShader = std::string(kLitShading) + R"(
uniform vec3 u_forward;  // unit optical axis, world
uniform float u_label;   // segmentation label / 255
layout(location = 0) out vec4 frag_color;
layout(location = 1) out float frag_depth;
layout(location = 2) out float frag_label;
void main() {
  frag_color = vec4(LitColor(), 1.0);
  frag_depth = dot(v_world - u_eye, u_forward);
  frag_label = u_label;
}
)";

const char* const kShadowVertexShader = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 3) in mat4 a_model;
uniform mat4 u_light_view_projection;
void main() { gl_Position = u_light_view_projection * (a_model * vec4(a_position, 1.0)); }
)";

const char* const kShadowFragmentShader = R"(#version 330 core
void main() {}
)";

const char* const kSkyVertexShader = R"(#version 330 core
uniform mat4 u_inverse_view_projection;
out vec3 v_ray;
void main() {
  // One triangle covering the screen.
  vec2 p = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
  // Far point minus near point through p: linear in p for perspective and orthographic
  // cameras, so interpolating it gives every pixel's viewing ray.
  vec4 near = u_inverse_view_projection * vec4(p, -1.0, 1.0);
  vec4 far = u_inverse_view_projection * vec4(p, 1.0, 1.0);
  v_ray = far.xyz / far.w - near.xyz / near.w;
  gl_Position = vec4(p, 1.0, 1.0);
}
)";

const char* const kSkyFragmentShader = R"(#version 330 core
in vec3 v_ray;
uniform vec3 u_to_sun;
uniform vec3 u_haze_color;
out vec4 frag_color;
void main() {
  vec3 ray = normalize(v_ray);
  float up = ray.z;
  vec3 zenith = vec3(0.30, 0.50, 0.82);
  vec3 c = up >= 0.0 ? mix(u_haze_color, zenith, pow(up, 0.6))
                     : mix(u_haze_color, vec3(0.55, 0.58, 0.54), clamp(-up * 3.0, 0.0, 1.0));
  float sun = max(dot(ray, u_to_sun), 0.0);
  c += vec3(1.0, 0.9, 0.7) * (0.25 * pow(sun, 16.0) + 0.6 * pow(sun, 900.0));
  frag_color = vec4(clamp(c, 0.0, 1.0), 1.0);
}
)";

const char* const kOverlayVertexShader = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 2) in vec4 a_color;
uniform mat4 u_view_projection;
out vec4 v_color;
void main() {
  v_color = a_color;
  gl_Position = u_view_projection * vec4(a_position, 1.0);
}
)";

const char* const kOverlayFragmentShader = R"(#version 330 core
in vec4 v_color;
out vec4 frag_color;
void main() { frag_color = v_color; }
)";

}  // namespace asg::capture
