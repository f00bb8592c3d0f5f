#include "capture/renderer.h"

#include <Eigen/Geometry>

#include "capture/annotations.h"
#include "capture/capture_error.h"
#include "capture/egl_context.h"
#include "capture/gl.h"
#include "capture/lighting.h"
#include "capture/png.h"
#include "capture/render_targets.h"
#include "capture/scene_buffers.h"
#include "capture/shaders.h"
#include "capture/speed_legend.h"
#include "capture/views.h"

namespace asg::capture {
namespace {

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

// The PNG file of a square RGB8 image, as the bytes a CaptureImage holds.
std::string PngString(int size, const std::vector<uint8_t>& rgb) {
  const std::vector<uint8_t> png = EncodePng(size, size, rgb);
  return std::string(png.begin(), png.end());
}

}  // namespace

struct CaptureRenderer::Resources {
  EglContext& context = EglContext::ForThisThread();
  Program lit{"lit", kLitVertexShader, kLitFragmentShader.c_str()};
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

  void DrawView(const SceneBuffers& buffers, const CaptureView& view, const Sun& sun) {
    target->Bind();
    const Eigen::Matrix4f view_projection = view.projection * view.view;
    glDepthMask(GL_TRUE);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    const LitCamera camera{view_projection, view.eye, view.haze_distance,
                           ContourStep(buffers.lowest_ground(), buffers.highest_ground())};
    UseLitProgram(lit, camera, sun, buffers, shadow_map);
    for (const DrawItem& item : buffers.items()) {
      if (item.vehicle && !view.shows_vehicle) continue;
      DrawLitItem(lit, item);
    }
    glDisable(GL_CULL_FACE);
    DrawSky(sky, view_projection, sun, empty_vertex_array);
  }

  // Draws annotation triangles over the current picture: on top of everything in orthographic
  // views (or when `on_top`), depth-tested (without writing depth) in perspective views.
  void DrawOverlay(const OverlayMesh& mesh, const CaptureView& view, bool on_top = false) {
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
    if (view.orthographic || on_top) {
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

std::vector<protocol::CaptureImage> CaptureRenderer::Render(
    const scene::World& world, const protocol::RunScenarioRequest& request,
    const protocol::AnalyzeScenarioRequest* run_result, const std::vector<double>& jumps) {
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

  const SceneBuffers buffers(world, &request.vehicle);
  const std::vector<CaptureView> views =
      PlanViews(settings, world, {buffers.bounds().min().z(), buffers.bounds().max().z()});
  if (views.empty()) return {};
  const Sun sun = MakeSun(world, buffers.bounds());
  DrawShadowMap(buffers, sun, gl.shadow, gl.shadow_map);
  if (!gl.target || gl.target->size() != size)
    gl.target = std::make_unique<ColorTarget>(size, kMultisamples);

  OverlayMesh goal_ring;
  OverlayMesh goal_beacon;
  if (settings.draw_annotations) {
    goal_ring = GoalRing(world, settings);
    goal_beacon = GoalBeacon(world, settings);
  }

  std::vector<protocol::CaptureImage> images;
  for (const CaptureView& view : views) {
    gl.DrawView(buffers, view, sun);
    images.push_back({view.name, PngString(size, gl.target->ReadRgb())});
    if (!settings.draw_annotations) continue;
    OverlayMesh overlay = goal_ring;
    if (!view.orthographic) {
      // The beacon shows faintly through whatever hides it, then solidly where it is seen.
      gl.DrawOverlay(Faded(goal_beacon, kHiddenBeaconAlpha), view, /*on_top=*/true);
      overlay.Append(goal_beacon);
    }
    if (view.marks_run) {
      // Ortho width over image size: the ortho projection's first element is 2 / width.
      const double metres_per_pixel = 2.0 / view.projection(0, 0) / size;
      overlay.Append(RunMarks(world, run_result, metres_per_pixel, jumps));
    }
    gl.DrawOverlay(overlay, view);
    std::vector<uint8_t> annotated = gl.target->ReadRgb();
    if (view.marks_run && run_result != nullptr && !run_result->vehicle_trajectory.empty()) {
      DrawSpeedLegend(&annotated, size, FastestSpeed(*run_result));
    }
    images.push_back({view.name + "_annotated", PngString(size, annotated)});
  }
  const GLenum error = glGetError();
  if (error != GL_NO_ERROR) {
    throw CaptureError("GL: error " + std::to_string(error) + " while rendering captures");
  }
  return images;
}

}  // namespace asg::capture
