#include "capture/camera_sensor.h"

#include <cmath>
#include <numbers>
#include <string>

#include "capture/capture_error.h"
#include "capture/egl_context.h"
#include "capture/gl.h"
#include "capture/lighting.h"
#include "capture/render_targets.h"
#include "capture/renderer.h"
#include "capture/shaders.h"
#include "capture/views.h"
#include "core/number_format.h"

namespace asg::capture {
namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;

void Check(bool ok, const protocol::CameraSpec& spec, const std::string& field,
           const std::string& value, const std::string& range) {
  if (!ok) {
    throw CaptureError("camera '" + spec.name + "'." + field + ": " + value + " is outside " +
                       range);
  }
}

void Validate(const protocol::CameraSpec& spec) {
  const std::string sizes = "1.." + std::to_string(kMaxImageSize) + " px";
  Check(spec.width >= 1 && spec.width <= kMaxImageSize, spec, "width", std::to_string(spec.width),
        sizes);
  Check(spec.height >= 1 && spec.height <= kMaxImageSize, spec, "height",
        std::to_string(spec.height), sizes);
  Check(spec.fov > 0.0 && spec.fov < 180.0, spec, "fov", core::FormatNumber(spec.fov),
        "(0, 180) deg");
}

}  // namespace

Eigen::Isometry3d CameraPoseInWorld(const protocol::SensorMount& mount,
                                    const Eigen::Isometry3d& vehicle_pose_world) {
  const Eigen::Isometry3d body_from_camera =
      Eigen::Translation3d(mount.offset.x, mount.offset.y, mount.offset.z) *
      Eigen::AngleAxisd(mount.yaw * kDegToRad, Eigen::Vector3d::UnitZ()) *
      Eigen::AngleAxisd(mount.pitch * kDegToRad, Eigen::Vector3d::UnitY()) *
      Eigen::AngleAxisd(mount.roll * kDegToRad, Eigen::Vector3d::UnitX());
  return vehicle_pose_world * body_from_camera;
}

struct CameraSensorRenderer::Resources {
  EglContext& context = EglContext::ForThisThread();
  Program lit{"sensor", kLitVertexShader, kSensorFragmentShader.c_str()};
  Program shadow{"shadow", kShadowVertexShader, kShadowFragmentShader};
  Program sky{"sky", kSkyVertexShader, kSkyFragmentShader};
  ShadowMap shadow_map{kShadowMapSize};
  std::unique_ptr<SceneBuffers> buffers;
  std::unique_ptr<SensorTarget> target;
  Sun sun;
  double haze_distance = 0.0;  // [m]
  GLuint empty_vertex_array = 0;

  Resources() { glGenVertexArrays(1, &empty_vertex_array); }
  ~Resources() { glDeleteVertexArrays(1, &empty_vertex_array); }
};

CameraSensorRenderer::CameraSensorRenderer() : resources_(std::make_unique<Resources>()) {}

CameraSensorRenderer::~CameraSensorRenderer() = default;

void CameraSensorRenderer::SetWorld(const scene::World& world) {
  if (!world.landscape) throw CaptureError("camera sensor: the world has no landscape");
  Resources& gl = *resources_;
  gl.context.MakeCurrent();
  gl.buffers.reset();
  gl.buffers = std::make_unique<SceneBuffers>(world, nullptr);
  gl.sun = MakeSun(world, gl.buffers->bounds());
  // The same haze as the scene captures' perspective views.
  gl.haze_distance = 8.0 * world.landscape->description().nominal_size;
  DrawShadowMap(*gl.buffers, gl.sun, gl.shadow, gl.shadow_map);
}

CameraImages CameraSensorRenderer::Render(const protocol::CameraSpec& spec,
                                          const Eigen::Isometry3d& vehicle_pose_world) {
  Validate(spec);
  Resources& gl = *resources_;
  if (!gl.buffers) {
    throw CaptureError("camera '" + spec.name + "': Render before SetWorld (no world uploaded)");
  }
  gl.context.MakeCurrent();
  const int width = static_cast<int>(spec.width);
  const int height = static_cast<int>(spec.height);
  if (!gl.target || gl.target->width() != width || gl.target->height() != height) {
    gl.target = std::make_unique<SensorTarget>(width, height);
  }

  // GL's eye looks along its -z with +y up and +x right: camera +x forward -> eye -z, camera +y
  // (left) -> eye -x, camera +z (up) -> eye +y.
  const Eigen::Isometry3d camera = CameraPoseInWorld(spec.mount, vehicle_pose_world);
  Eigen::Matrix4d eye_from_camera = Eigen::Matrix4d::Zero();
  eye_from_camera(0, 1) = -1.0;
  eye_from_camera(1, 2) = 1.0;
  eye_from_camera(2, 0) = -1.0;
  eye_from_camera(3, 3) = 1.0;
  const Eigen::Matrix4f view = (eye_from_camera * camera.inverse().matrix()).cast<float>();
  const double aspect = static_cast<double>(width) / height;
  const double fov_y = 2.0 * std::atan(std::tan(0.5 * spec.fov * kDegToRad) / aspect) / kDegToRad;
  const Eigen::Matrix4f view_projection =
      Perspective(fov_y, aspect, kCameraNear, kCameraFar) * view;
  const Eigen::Vector3d eye = camera.translation();
  const Eigen::Vector3f forward = camera.linear().col(0).cast<float>();

  gl.target->BindAndClear();
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  UseLitProgram(gl.lit, {view_projection, eye, gl.haze_distance, 0.0f}, gl.sun, *gl.buffers,
                gl.shadow_map);
  glUniform3f(gl.lit.Uniform("u_forward"), forward.x(), forward.y(), forward.z());
  const GLint label_location = gl.lit.Uniform("u_label");
  for (const DrawItem& item : gl.buffers->items()) {
    glUniform1f(label_location, item.label / 255.0f);
    DrawLitItem(gl.lit, item);
  }
  glDisable(GL_CULL_FACE);
  if (spec.colour) {
    // The sky writes colour only: depth and label keep their cleared +inf and 0.
    gl.target->DrawColourOnly(true);
    DrawSky(gl.sky, view_projection, gl.sun, gl.empty_vertex_array);
    gl.target->DrawColourOnly(false);
  }

  CameraImages images;
  images.width = width;
  images.height = height;
  if (spec.colour) images.rgb = gl.target->ReadRgb();
  if (spec.depth) images.depth = gl.target->ReadDepth();
  if (spec.segmentation) images.segmentation = gl.target->ReadLabels();
  const GLenum error = glGetError();
  if (error != GL_NO_ERROR) {
    throw CaptureError("GL: error " + std::to_string(error) + " while rendering camera '" +
                       spec.name + "'");
  }
  return images;
}

}  // namespace asg::capture
