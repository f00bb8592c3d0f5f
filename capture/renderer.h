// CaptureRenderer: renders every view a RunScenarioRequest's scene_capture_settings ask for as
// PNG images, headless through EGL (egl_context.h).
//
// Per Render call: the world is uploaded once (scene_buffers.h), the sun's shadow map is drawn
// once, then each view (views.h) is drawn into a framebuffer of kMultisamples samples per pixel
// (render_targets.h): sky gradient, terrain coloured by height and slope, actors and the vehicle
// lit by the sun (direction from sunlight_inclination and sunlight_yaw_angle, shadows from
// casting instances only) and by the sky, distance haze. With draw_annotations each view also
// yields an `_annotated` copy with the overlays of annotations.h drawn over the same picture.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "scene/world.h"

namespace asg::capture {

/// Largest accepted scene_capture_settings.image_size [px].
inline constexpr uint32_t kMaxImageSize = 4096;

/// Renders scene captures. Thread-confined: construct and use it on one thread; the GL context
/// is that thread's (EglContext::ForThisThread) and GL resources are created per renderer.
class CaptureRenderer {
 public:
  /// Creates (or reuses) this thread's EGL context and compiles the programs. Throws
  /// CaptureError when EGL or OpenGL 3.3 core is unavailable.
  CaptureRenderer();
  ~CaptureRenderer();
  CaptureRenderer(const CaptureRenderer&) = delete;
  CaptureRenderer& operator=(const CaptureRenderer&) = delete;

  /// Renders the views of request.scene_capture_settings over `world`, each followed by its
  /// `_annotated` copy when draw_annotations is set. Returns no images when
  /// request.take_scene_capture is false. `run_result` is the finished run (trajectory and
  /// termination reason for the annotated ortho aerial) or nullptr before a run. The vehicle is
  /// drawn at world.start with the shape of request.vehicle. Throws CaptureError naming the
  /// field and value when image_size is 0 or above kMaxImageSize, and on GL failures.
  /// `jumps` [s]: the sim times of the run's teleports, drawn as gaps in its trajectory
  /// (RunMarks).
  std::vector<protocol::CaptureImage> Render(const scene::World& world,
                                             const protocol::RunScenarioRequest& request,
                                             const protocol::AnalyzeScenarioRequest* run_result,
                                             const std::vector<double>& jumps = {});

  /// The context's description (platform, GL vendor, renderer, version), for logs.
  const std::string& context_description() const;

 private:
  struct Resources;
  std::unique_ptr<Resources> resources_;
};

}  // namespace asg::capture
