// Scene captures of the interactive worker: the capture views rendered over the run as it is now
// (CaptureScene), under the weather WeatherConfig set, and the captures of an ended run's result
// folder. One renderer, created at the first capture and kept.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
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

/// The farm's weather of a monoDrive weather profile's sun: SunPolarAngle [deg] is measured
/// from the zenith, so the elevation is 90 - SunPolarAngle; SunAzimuthAngle [deg] is where the
/// sun stands, clockwise seen from above in Unreal's left-handed frame, so the light travels
/// counter-clockwise from +x at 180 - SunAzimuthAngle [deg]. haze_distance [m] is the farm's.
Weather MonoDriveWeather(double sun_polar_angle, double sun_azimuth_angle, double haze_distance);

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
  /// Adds or replaces the named weather profile (WeatherConfig's monoDrive form).
  void SetProfile(const std::string& id, const Weather& weather) { profiles_[id] = weather; }
  /// The named weather profile, or null when none has that id.
  const Weather* Profile(const std::string& id) const {
    const auto it = profiles_.find(id);
    return it != profiles_.end() ? &it->second : nullptr;
  }
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
  std::map<std::string, Weather> profiles_;  // by profile id
};

}  // namespace asg::worker::serve
