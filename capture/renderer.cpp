#include "capture/renderer.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "capture/annotations.h"
#include "capture/capture_error.h"
#include "capture/egl_context.h"
#include "capture/gl.h"
#include "capture/png.h"
#include "capture/render_targets.h"
#include "capture/scene_buffers.h"
#include "capture/shaders.h"
#include "capture/views.h"

namespace asg::capture {
namespace {

constexpr int kShadowMapSize = 2048;
const Eigen::Vector3f kHazeColor(0.78f, 0.82f, 0.86f);

// The sun: light direction, colour and the shadow map's projection.
struct Sun {
  Eigen::Vector3f to_sun = Eigen::Vector3f::UnitZ();  // unit, ground -> sun
  Eigen::Vector3f light = Eigen::Vector3f::Zero();    // direct light colour, 0 below the horizon
  Eigen::Matrix4f view_projection = Eigen::Matrix4f::Identity();  // world -> light clip
  Eigen::Matrix4f shadow_matrix = Eigen::Matrix4f::Identity();    // world -> shadow map [0,1]^3
};

Sun MakeSun(const scene::World& world, const Eigen::AlignedBox3d& bounds) {
  constexpr double kDegToRad = std::numbers::pi / 180.0;
  const double inclination = std::clamp(world.sun_inclination, -90.0, 90.0) * kDegToRad;
  const double yaw = world.sun_yaw * kDegToRad;
  // The direction the light travels: along the yaw horizontally, downwards by the inclination.
  const Eigen::Vector3d travel(std::cos(inclination) * std::cos(yaw),
                               std::cos(inclination) * std::sin(yaw), -std::sin(inclination));
  Sun sun;
  sun.to_sun = (-travel).cast<float>();
  if (inclination > 0.0) sun.light = Eigen::Vector3f(1.0f, 0.96f, 0.88f) * 0.8f;

  const Eigen::Vector3d centre = bounds.center();
  const double radius = 0.5 * bounds.diagonal().norm() + 1.0;
  const Eigen::Vector3d up =
      std::abs(travel.z()) > 0.999 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
  const Eigen::Matrix4f light_view = LookAt(centre - 2.0 * radius * travel, centre, up);
  // Fit the light's orthographic box around the scene's corners.
  Eigen::AlignedBox3f box;
  for (int corner = 0; corner < 8; ++corner) {
    const Eigen::Vector3d p = bounds.corner(static_cast<Eigen::AlignedBox3d::CornerType>(corner));
    box.extend((light_view * Eigen::Vector4f(p.x(), p.y(), p.z(), 1.0f)).head<3>());
  }
  const Eigen::Matrix4f projection =
      Orthographic(box.min().x(), box.max().x(), box.min().y(), box.max().y(), -box.max().z() - 1.0,
                   -box.min().z() + 1.0);
  sun.view_projection = projection * light_view;
  Eigen::Matrix4f bias = Eigen::Matrix4f::Identity() * 0.5f;
  bias(3, 3) = 1.0f;
  bias.block<3, 1>(0, 3).setConstant(0.5f);
  sun.shadow_matrix = bias * sun.view_projection;
  return sun;
}

// [m] spacing of the terrain's contour lines: about eight lines over the relief, none when flat.
float ContourStep(double lowest, double highest) {
  const double span = highest - lowest;
  if (span < 0.3) return 0.0f;
  for (double step : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0}) {
    if (span / step <= 10.0) return static_cast<float>(step);
  }
  return 100.0f;
}

void SetMatrix(GLint location, const Eigen::Matrix4f& matrix) {
  glUniformMatrix4fv(location, 1, GL_FALSE, matrix.data());
}

void SetVector(GLint location, const Eigen::Vector3f& vector) {
  glUniform3f(location, vector.x(), vector.y(), vector.z());
}

}  // namespace

struct CaptureRenderer::Resources {
  EglContext& context = EglContext::ForThisThread();
  Program lit{"lit", kLitVertexShader, kLitFragmentShader};
  Program shadow{"shadow", kShadowVertexShader, kShadowFragmentShader};
  Program sky{"sky", kSkyVertexShader, kSkyFragmentShader};
  Program overlay{"overlay", kOverlayVertexShader, kOverlayFragmentShader};
  ShadowMap shadow_map{kShadowMapSize};
  std::unique_ptr<ColorTarget> target;
  GLuint empty_vertex_array = 0;
  GLuint overlay_vertex_array = 0;
  GLuint overlay_buffer = 0;

  Resources() {
    glGenVertexArrays(1, &empty_vertex_array);
    glGenVertexArrays(1, &overlay_vertex_array);
    glGenBuffers(1, &overlay_buffer);
    glBindVertexArray(overlay_vertex_array);
    glBindBuffer(GL_ARRAY_BUFFER, overlay_buffer);
    const GLsizei stride = 7 * sizeof(float);
    glEnableVertexAttribArray(kPositionAttribute);
    glVertexAttribPointer(kPositionAttribute, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glEnableVertexAttribArray(kColorAttribute);
    glVertexAttribPointer(kColorAttribute, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(3 * sizeof(float)));
    glBindVertexArray(0);
  }
  ~Resources() {
    glDeleteBuffers(1, &overlay_buffer);
    glDeleteVertexArrays(1, &overlay_vertex_array);
    glDeleteVertexArrays(1, &empty_vertex_array);
  }

  void DrawShadowMap(const SceneBuffers& buffers, const Sun& sun) {
    shadow_map.BindForDrawing();
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    glDisable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(2.0f, 4.0f);
    glUseProgram(shadow.id());
    SetMatrix(shadow.Uniform("u_light_view_projection"), sun.view_projection);
    for (const DrawItem& item : buffers.items()) item.mesh->Draw(item.shadow_instances);
    glDisable(GL_POLYGON_OFFSET_FILL);
  }

  void DrawView(const SceneBuffers& buffers, const CaptureView& view, const Sun& sun) {
    target->Bind();
    const Eigen::Matrix4f view_projection = view.projection * view.view;
    glDepthMask(GL_TRUE);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    glUseProgram(lit.id());
    SetMatrix(lit.Uniform("u_view_projection"), view_projection);
    SetMatrix(lit.Uniform("u_light_matrix"), sun.shadow_matrix);
    SetVector(lit.Uniform("u_to_sun"), sun.to_sun);
    SetVector(lit.Uniform("u_sun_light"), sun.light);
    SetVector(lit.Uniform("u_eye"), view.eye.cast<float>());
    glUniform1f(lit.Uniform("u_haze_distance"), static_cast<float>(view.haze_distance));
    SetVector(lit.Uniform("u_haze_color"), kHazeColor);
    glUniform2f(lit.Uniform("u_height_range"), static_cast<float>(buffers.lowest_ground()),
                static_cast<float>(buffers.highest_ground()));
    glUniform1f(lit.Uniform("u_contour_step"),
                ContourStep(buffers.lowest_ground(), buffers.highest_ground()));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, shadow_map.texture());
    glUniform1i(lit.Uniform("u_shadow_map"), 0);
    const GLint terrain_location = lit.Uniform("u_terrain");
    const GLint color_location = lit.Uniform("u_color");
    for (const DrawItem& item : buffers.items()) {
      if (item.vehicle && !view.shows_vehicle) continue;
      if (item.terrain) {
        glDisable(GL_CULL_FACE);
      } else {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
      }
      glUniform1i(terrain_location, item.terrain ? 1 : 0);
      SetVector(color_location, item.color);
      item.mesh->Draw(item.all_instances);
    }
    glDisable(GL_CULL_FACE);

    // Sky gradient last, on the far plane: only pixels nothing covered run its shader.
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    glUseProgram(sky.id());
    SetMatrix(sky.Uniform("u_inverse_view_projection"), view_projection.inverse());
    SetVector(sky.Uniform("u_to_sun"), sun.to_sun);
    SetVector(sky.Uniform("u_haze_color"), kHazeColor);
    glBindVertexArray(empty_vertex_array);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
  }

  // Draws annotation triangles over the current picture: on top of everything in orthographic
  // views, depth-tested (without writing depth) in perspective views.
  void DrawOverlay(const OverlayMesh& mesh, const CaptureView& view) {
    if (mesh.positions.empty()) return;
    std::vector<float> vertices;
    vertices.reserve(mesh.positions.size() * 7);
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      vertices.insert(vertices.end(), mesh.positions[i].data(), mesh.positions[i].data() + 3);
      vertices.insert(vertices.end(), mesh.colors[i].data(), mesh.colors[i].data() + 4);
    }
    target->Bind();
    glBindBuffer(GL_ARRAY_BUFFER, overlay_buffer);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)),
                 vertices.data(), GL_STREAM_DRAW);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    if (view.orthographic) {
      glDisable(GL_DEPTH_TEST);
    } else {
      glEnable(GL_DEPTH_TEST);
      glDepthFunc(GL_LEQUAL);
      glEnable(GL_POLYGON_OFFSET_FILL);
      glPolygonOffset(-1.0f, -4.0f);
    }
    glUseProgram(overlay.id());
    SetMatrix(overlay.Uniform("u_view_projection"), view.projection * view.view);
    glBindVertexArray(overlay_vertex_array);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(mesh.positions.size()));
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
  }
};

CaptureRenderer::CaptureRenderer() : resources_(std::make_unique<Resources>()) {}

CaptureRenderer::~CaptureRenderer() = default;

const std::string& CaptureRenderer::context_description() const {
  return resources_->context.description();
}

std::vector<CaptureImage> CaptureRenderer::Render(
    const scene::World& world, const protocol::RunScenarioRequest& request,
    const protocol::AnalyzeScenarioRequest* run_result) {
  if (!request.take_scene_capture) return {};
  const protocol::SceneCaptureSettings& settings = request.scene_capture_settings;
  if (settings.image_size == 0 || settings.image_size > kMaxImageSize) {
    throw CaptureError("scene_capture_settings.image_size: " + std::to_string(settings.image_size) +
                       " is outside 1.." + std::to_string(kMaxImageSize) + " px");
  }
  if (!world.landscape) throw CaptureError("capture: the world has no landscape");
  const int size = static_cast<int>(settings.image_size);
  Resources& gl = *resources_;
  gl.context.MakeCurrent();

  const SceneBuffers buffers(world, request.vehicle);
  const std::vector<CaptureView> views =
      PlanViews(settings, world, {buffers.bounds().min().z(), buffers.bounds().max().z()});
  if (views.empty()) return {};
  const Sun sun = MakeSun(world, buffers.bounds());
  gl.DrawShadowMap(buffers, sun);
  if (!gl.target || gl.target->size() != size) gl.target = std::make_unique<ColorTarget>(size);

  OverlayMesh goal_ring;
  if (settings.draw_annotations) goal_ring = GoalRing(world, settings);

  std::vector<CaptureImage> images;
  for (const CaptureView& view : views) {
    gl.DrawView(buffers, view, sun);
    images.push_back({view.name, EncodePng(size, size, gl.target->ReadRgb())});
    if (!settings.draw_annotations) continue;
    OverlayMesh overlay = goal_ring;
    if (view.marks_run) {
      // Ortho width over image size: the ortho projection's first element is 2 / width.
      const double metres_per_pixel = 2.0 / view.projection(0, 0) / size;
      overlay.Append(RunMarks(world, run_result, metres_per_pixel));
    }
    gl.DrawOverlay(overlay, view);
    images.push_back({view.name + "_annotated", EncodePng(size, size, gl.target->ReadRgb())});
  }
  const GLenum error = glGetError();
  if (error != GL_NO_ERROR) {
    throw CaptureError("GL: error " + std::to_string(error) + " while rendering captures");
  }
  return images;
}

}  // namespace asg::capture
