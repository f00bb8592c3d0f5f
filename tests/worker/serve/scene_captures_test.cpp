// Tests for worker/serve/scene_captures.h: the world captures see (the run as it is now, under
// the weather set) and captures rendered from it.
#include "worker/serve/scene_captures.h"

#include <gtest/gtest.h>

#include "tests/scene/scene_test_util.h"
#include "tests/worker/small_request.h"

namespace asg::worker::serve {
namespace {

/// One 32-pixel ortho aerial without padding.
protocol::SceneCaptureSettings SmallAerial() {
  protocol::SceneCaptureSettings settings;
  settings.image_size = 32;
  settings.ortho_aerial = true;
  settings.aerial_padding = {0};
  return settings;
}

class SceneCapturesTest : public ::testing::Test {
 protected:
  SceneCapturesTest() {
    protocol::RunScenarioRequest request = testing::SmallRequest();
    request.scene_description.sunlight_inclination = 55.0;
    request.scene_description.sunlight_yaw_angle = 20.0;
    live_.Load(request);
  }

  scene::LiveRun live_{scene::testing::ShippedCatalog()};
  SceneCaptures captures_;
};

TEST(MonoDriveWeatherTest, ThePolarAngleIsFromTheZenithAndTheAzimuthClockwise) {
  const Weather sunset = MonoDriveWeather(86.0, 174.0, 0.0);
  EXPECT_DOUBLE_EQ(sunset.sun_inclination, 4.0);
  EXPECT_DOUBLE_EQ(sunset.sun_yaw, 6.0);
  const Weather noon = MonoDriveWeather(0.0, 90.0, 150.0);
  EXPECT_DOUBLE_EQ(noon.sun_inclination, 90.0);
  EXPECT_DOUBLE_EQ(noon.sun_yaw, 90.0);
  EXPECT_DOUBLE_EQ(noon.haze_distance, 150.0);
}

TEST_F(SceneCapturesTest, ANamedProfileIsKeptUntilReplaced) {
  EXPECT_EQ(captures_.Profile("dusk"), nullptr);
  captures_.SetProfile("dusk", {5.0, 10.0, 0.0});
  captures_.SetProfile("dusk", {6.0, 10.0, 0.0});
  ASSERT_NE(captures_.Profile("dusk"), nullptr);
  EXPECT_EQ(captures_.Profile("dusk")->sun_inclination, 6.0);
}

TEST_F(SceneCapturesTest, TheWorldIsTheRunsNowUnderTheScenariosSunUntilWeatherIsSet) {
  for (int i = 0; i < 100; ++i) live_.Step();
  scene::World world = captures_.CurrentWorld(live_);
  EXPECT_EQ(world.sun_inclination, 55.0);
  EXPECT_EQ(world.sun_yaw, 20.0);
  EXPECT_EQ(world.haze_distance, 0.0);
  // The vehicle drove: the capture's start is where it is now.
  EXPECT_NE(world.start, live_.world().start);

  captures_.SetWeather({-10.0, 90.0, 150.0});
  world = captures_.CurrentWorld(live_);
  EXPECT_EQ(world.sun_inclination, -10.0);
  EXPECT_EQ(world.sun_yaw, 90.0);
  EXPECT_EQ(world.haze_distance, 150.0);
  EXPECT_EQ(live_.world().sun_inclination, 55.0);  // the run's own world is left alone
}

TEST_F(SceneCapturesTest, CapturesRenderTheAskedViewsUnderTheWeather) {
  const std::vector<protocol::CaptureImage> noon = captures_.Capture(live_, SmallAerial());
  ASSERT_EQ(noon.size(), 1u);
  EXPECT_EQ(noon[0].name, "ortho_aerial_pad0");
  ASSERT_GT(noon[0].png.size(), 8u);
  EXPECT_EQ(noon[0].png.substr(1, 3), "PNG");
  captures_.SetWeather({5.0, 200.0, 0.0});
  const std::vector<protocol::CaptureImage> dusk = captures_.Capture(live_, SmallAerial());
  ASSERT_EQ(dusk.size(), 1u);
  EXPECT_NE(dusk[0].png, noon[0].png);
}

TEST_F(SceneCapturesTest, AnEndedRunIsRenderedWithItsResult) {
  while (!live_.Step()) {
  }
  protocol::RunScenarioRequest request = live_.request();
  request.take_scene_capture = true;
  request.scene_capture_settings = SmallAerial();
  request.scene_capture_settings.draw_annotations = true;
  const auto& result = std::get<scene::RunResult>(*live_.outcome());
  const std::vector<protocol::CaptureImage> images =
      captures_.RenderRun(live_.world(), request, result.analysis);
  ASSERT_EQ(images.size(), 2u);
  EXPECT_EQ(images[1].name, "ortho_aerial_pad0_annotated");
}

}  // namespace
}  // namespace asg::worker::serve
