// Scene captures of the interactive worker: the capture views rendered over the run as it is now
// (CaptureScene), under the weather WeatherConfig set, and the captures of an ended run's result
// folder. One renderer, created at the first capture and kept.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "protocol/messages.h"
#include "scene/live_run.h"
#include "scene/world.h"

namespace asg::capture {
class CaptureRenderer;
}  // namespace asg::capture

namespace asg::worker::serve {

/// Sun and haze of the captures (scene::World's fields of the same names).
struct Weather {
  double sun_inclination = 30.0;  ///< [deg] sun elevation above the horizon
  double sun_yaw = 0.0;           ///< [deg] direction the light travels
  double haze_distance = 0.0;     ///< [m] 0 = the renderer's default
};

/// The session's capture renderer and weather. Not thread-safe: use on one thread (the
/// renderer's GL context is that thread's).
class SceneCaptures {
 public:
  SceneCaptures();
  ~SceneCaptures();
  SceneCaptures(const SceneCaptures&) = delete;
  SceneCaptures& operator=(const SceneCaptures&) = delete;

  /// The weather of later CaptureScene captures; until set, each scenario's own sun.
  void SetWeather(const Weather& weather) { weather_ = weather; }
  /// The world CaptureScene renders: `live`'s as it is now, under the weather set.
  scene::World CurrentWorld(const scene::LiveRun& live) const;
  /// Renders `settings`' views of `live`'s request over CurrentWorld. Throws
  /// capture::CaptureError as capture::CaptureRenderer does.
  std::vector<protocol::CaptureImage> Capture(const scene::LiveRun& live,
                                              const protocol::SceneCaptureSettings& settings);
  /// Renders the captures of an ended run, as the farm's result folders have them, its
  /// trajectory not drawn across `jumps` [s] (the sim times of its teleports). Throws
  /// capture::CaptureError as capture::CaptureRenderer does.
  std::vector<protocol::CaptureImage> RenderRun(const scene::World& world,
                                                const protocol::RunScenarioRequest& request,
                                                const protocol::AnalyzeScenarioRequest& analysis,
                                                const std::vector<double>& jumps = {});

 private:
  /// The renderer, created at its first use.
  capture::CaptureRenderer& Renderer();

  std::unique_ptr<capture::CaptureRenderer> renderer_;
  std::optional<Weather> weather_;
};

}  // namespace asg::worker::serve
