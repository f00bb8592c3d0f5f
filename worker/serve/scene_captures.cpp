// Captures of the run as it is now and of an ended run.
#include "worker/serve/scene_captures.h"

#include "capture/renderer.h"

namespace asg::worker::serve {

SceneCaptures::SceneCaptures() = default;

SceneCaptures::~SceneCaptures() = default;

capture::CaptureRenderer& SceneCaptures::Renderer() {
  if (!renderer_) renderer_ = std::make_unique<capture::CaptureRenderer>();
  return *renderer_;
}

Weather MonoDriveWeather(double sun_polar_angle, double sun_azimuth_angle, double haze_distance) {
  return {90.0 - sun_polar_angle, 180.0 - sun_azimuth_angle, haze_distance};
}

scene::World SceneCaptures::CurrentWorld(const scene::LiveRun& live) const {
  scene::World world = live.CurrentWorld();
  if (weather_) {
    world.sun_inclination = weather_->sun_inclination;
    world.sun_yaw = weather_->sun_yaw;
    world.haze_distance = weather_->haze_distance;
  }
  return world;
}

std::vector<protocol::CaptureImage> SceneCaptures::Capture(
    const scene::LiveRun& live, const protocol::SceneCaptureSettings& settings) {
  capture::CaptureRenderer& renderer = Renderer();
  const scene::World world = CurrentWorld(live);
  protocol::RunScenarioRequest request = live.request();
  request.take_scene_capture = true;
  request.scene_capture_settings = settings;
  return renderer.Render(world, request, nullptr);
}

std::vector<protocol::CaptureImage> SceneCaptures::RenderRun(
    const scene::World& world, const protocol::RunScenarioRequest& request,
    const protocol::AnalyzeScenarioRequest& analysis, const std::vector<double>& jumps) {
  return Renderer().Render(world, request, &analysis, jumps);
}

}  // namespace asg::worker::serve
