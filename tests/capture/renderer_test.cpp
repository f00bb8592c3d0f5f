// Tests for capture/renderer.h: images are decoded back with stb_image and checked pixel by
// pixel at places computed with the ortho aerial mapping of capture/views.h.
#include "capture/renderer.h"

#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <algorithm>
#include <cmath>

#include "capture/capture_error.h"
#include "capture/egl_context.h"
#include "capture/views.h"
#include "scene/world.h"
#include "tests/source_catalog.h"

namespace asg::capture {
namespace {

constexpr int kSize = 256;
constexpr double kNominal = 60.0;

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;

  // Mean colour of the 3 x 3 pixels around world (x, y) of an ortho aerial with padding 0.
  Eigen::Vector3d At(double x, double y) const {
    const Eigen::Vector2d p = WorldToOrthoAerialPixel(kNominal, 0.0, width, x, y);
    const int u = static_cast<int>(p.x()), v = static_cast<int>(p.y());
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (int dv = -1; dv <= 1; ++dv) {
      for (int du = -1; du <= 1; ++du) {
        const size_t i = (static_cast<size_t>(v + dv) * width + (u + du)) * 3;
        sum += Eigen::Vector3d(rgb[i], rgb[i + 1], rgb[i + 2]);
      }
    }
    return sum / 9.0;
  }
};

Image Decode(const protocol::CaptureImage& image) {
  int w = 0, h = 0, channels = 0;
  uint8_t* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(image.png.data()),
                                          static_cast<int>(image.png.size()), &w, &h, &channels, 3);
  EXPECT_NE(pixels, nullptr) << image.name;
  Image out{w, h, std::vector<uint8_t>(pixels, pixels + static_cast<size_t>(w) * h * 3)};
  stbi_image_free(pixels);
  return out;
}

const protocol::CaptureImage& Named(const std::vector<protocol::CaptureImage>& images,
                                    const std::string& name) {
  auto it = std::find_if(images.begin(), images.end(),
                         [&](const protocol::CaptureImage& i) { return i.name == name; });
  if (it == images.end()) throw std::runtime_error("no image named " + name);
  return *it;
}

// A flat 60 m landscape; trees are added with AddTree; ortho aerial pad 0 at 256 px.
struct Scene {
  scene::ActorCatalog catalog = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  protocol::RunScenarioRequest request;
  protocol::StructuralSceneActorLayout trees;

  Scene() {
    request.vehicle_start_location = {10.0, 45.0, 0.0};
    request.vehicle_start_yaw = 0.0;
    request.vehicle_goal_location = {45.0, 15.0, 0.0};
    request.goal_radius = 5.0;
    request.scene_description.landscape.nominal_size = kNominal;
    request.scene_description.landscape.subdivisions = 5;
    request.scene_description.sunlight_inclination = 80.0;
    request.scene_description.sunlight_yaw_angle = -90.0;
    request.take_scene_capture = true;
    auto& s = request.scene_capture_settings;
    s.image_size = kSize;
    s.ortho_aerial = true;
    s.aerial_padding = {0};
    s.goal_sphere_thickness = 0.6;
    s.goal_sphere_color = {1.0, 0.0, 0.0, 1.0};
    trees.path_name = "tree";
  }
  void AddTree(double x, double y, bool visible, bool cast_shadow) {
    trees.x.push_back(x);
    trees.y.push_back(y);
    trees.yaw.push_back(0.0);
    trees.scale.push_back(1.0);
    trees.visible.push_back(visible);
    trees.cast_shadow.push_back(cast_shadow);
    ++trees.num_instances;
  }
  std::vector<protocol::CaptureImage> Render(
      const protocol::AnalyzeScenarioRequest* run = nullptr) {
    request.scene_description.ssa_array = {trees};
    const scene::World world = scene::BuildWorld(request, catalog);
    CaptureRenderer renderer;
    return renderer.Render(world, request, run);
  }
};

double Sum(const Eigen::Vector3d& c) { return c.sum(); }

TEST(EglContext, IsCreatedOncePerThread) {
  EglContext& first = EglContext::ForThisThread();
  EXPECT_EQ(&first, &EglContext::ForThisThread());
  EXPECT_NE(first.description().find("EGL platform"), std::string::npos);
}

TEST(CaptureRenderer, ImagesHaveTheRequestedSizeAndNames) {
  Scene scene;
  scene.request.scene_capture_settings.image_size = 200;
  scene.request.scene_capture_settings.vehicle_start_pov = true;
  const std::vector<protocol::CaptureImage> images = scene.Render();
  ASSERT_EQ(images.size(), 2u);
  EXPECT_EQ(images[0].name, "ortho_aerial_pad0");
  EXPECT_EQ(images[1].name, "perspective_vehicle_start_pov");
  for (const protocol::CaptureImage& image : images) {
    const Image decoded = Decode(image);
    EXPECT_EQ(decoded.width, 200);
    EXPECT_EQ(decoded.height, 200);
  }
}

TEST(CaptureRenderer, NoImagesWithoutTakeSceneCapture) {
  Scene scene;
  scene.request.take_scene_capture = false;
  EXPECT_TRUE(scene.Render().empty());
}

TEST(CaptureRenderer, ImageSizeOverTheCapIsAClearError) {
  Scene scene;
  scene.request.scene_capture_settings.image_size = 5000;
  try {
    scene.Render();
    FAIL() << "expected a CaptureError";
  } catch (const CaptureError& error) {
    EXPECT_NE(std::string(error.what()).find("image_size: 5000"), std::string::npos)
        << error.what();
  }
}

TEST(CaptureRenderer, TreeCanopyAtItsPixelAndHiddenTreeAbsent) {
  Scene scene;
  scene.AddTree(20.0, 40.0, true, true);
  scene.AddTree(40.0, 20.0, false, true);
  const Image image = Decode(Named(scene.Render(), "ortho_aerial_pad0"));
  const Eigen::Vector3d ground = image.At(30.0, 30.0);
  const Eigen::Vector3d tree = image.At(20.0, 40.0);
  const Eigen::Vector3d hidden = image.At(40.0, 20.0);
  // Canopy [0.20, 0.36, 0.22] is darker and bluer than the grass [0.40, 0.50, 0.24].
  EXPECT_LT(tree.x(), 0.75 * ground.x()) << tree.transpose() << " vs " << ground.transpose();
  EXPECT_GT(tree.z() / tree.y(), ground.z() / ground.y() + 0.05);
  EXPECT_LT((hidden - ground).cwiseAbs().maxCoeff(), 6.0) << hidden.transpose();
}

TEST(CaptureRenderer, ShadowFallsWhereTheLightTravelsOnlyFromCasters) {
  for (bool cast_shadow : {true, false}) {
    Scene scene;
    // Light travelling east (yaw -90: towards -y), 20 deg above the horizon.
    scene.request.scene_description.sunlight_inclination = 20.0;
    scene.request.scene_description.sunlight_yaw_angle = -90.0;
    scene.AddTree(30.0, 30.0, true, cast_shadow);
    const Image image = Decode(Named(scene.Render(), "ortho_aerial_pad0"));
    const double east = Sum(image.At(30.0, 25.0));
    const double west = Sum(image.At(30.0, 35.0));
    if (cast_shadow) {
      EXPECT_LT(east, 0.8 * west) << "east " << east << " west " << west;
    } else {
      EXPECT_NEAR(east, west, 6.0);
    }
  }
}

TEST(CaptureRenderer, GoalRingOnlyInTheAnnotatedImages) {
  Scene scene;
  scene.request.scene_capture_settings.draw_annotations = true;
  scene.request.scene_capture_settings.perspective_aerial = true;
  const std::vector<protocol::CaptureImage> images = scene.Render();
  ASSERT_EQ(images.size(), 4u);
  const Image plain = Decode(Named(images, "ortho_aerial_pad0"));
  const Image annotated = Decode(Named(images, "ortho_aerial_pad0_annotated"));
  // On the ring (outer radius 5, 0.6 wide) north of the goal at (45, 15).
  const Eigen::Vector3d ring = annotated.At(45.0 + 4.7, 15.0);
  EXPECT_GT(ring.x(), 200.0);
  EXPECT_LT(ring.y(), 60.0);
  EXPECT_LT(ring.z(), 60.0);
  EXPECT_LT(plain.At(45.0 + 4.7, 15.0).x(), 150.0);
  // Inside the ring the ground is unchanged.
  EXPECT_LT((annotated.At(45.0, 15.0) - plain.At(45.0, 15.0)).cwiseAbs().maxCoeff(), 2.0);
  // The perspective aerial's annotated copy has ring-red pixels, its plain image none.
  auto red_pixels = [](const Image& image) {
    int count = 0;
    for (size_t i = 0; i < image.rgb.size(); i += 3) {
      count += image.rgb[i] > 200 && image.rgb[i + 1] < 60 && image.rgb[i + 2] < 60;
    }
    return count;
  };
  EXPECT_EQ(red_pixels(Decode(Named(images, "perspective_aerial_pad0"))), 0);
  EXPECT_GT(red_pixels(Decode(Named(images, "perspective_aerial_pad0_annotated"))), 50);
}

TEST(CaptureRenderer, StartArrowAlwaysTrajectoryOnlyAfterARun) {
  Scene scene;
  scene.request.scene_capture_settings.draw_annotations = true;
  protocol::AnalyzeScenarioRequest run;
  run.termination_reason = protocol::TerminationReason::REASON_SUCCESS;
  for (int i = 0; i <= 40; ++i) {
    protocol::OdometryWithoutCovariance sample;
    sample.pose.position.x = 10.0 + i;
    sample.pose.position.y = 30.0;
    sample.twist.linear.x = 4.0;
    run.vehicle_trajectory.push_back(sample);
  }
  const std::vector<protocol::CaptureImage> before = scene.Render(nullptr);
  const std::vector<protocol::CaptureImage> after = scene.Render(&run);
  const Image plain = Decode(Named(before, "ortho_aerial_pad0"));
  const Image before_run = Decode(Named(before, "ortho_aerial_pad0_annotated"));
  const Image after_run = Decode(Named(after, "ortho_aerial_pad0_annotated"));
  // The start arrow (white) just ahead of the start (10, 45), heading north.
  for (const Image* image : {&before_run, &after_run}) {
    EXPECT_GT(image->At(11.2, 45.0).minCoeff(), 200.0);
  }
  EXPECT_LT(plain.At(11.2, 45.0).minCoeff(), 200.0);
  // Mid-trajectory at (30, 30): ground before the run, full-speed red after it.
  EXPECT_LT((before_run.At(30.0, 30.0) - plain.At(30.0, 30.0)).cwiseAbs().maxCoeff(), 2.0);
  const Eigen::Vector3d on_path = after_run.At(30.0, 30.0);
  EXPECT_GT(on_path.x(), 200.0);
  EXPECT_LT(on_path.z(), 60.0);
  // The success marker (green disc) at the end (50, 30).
  const Eigen::Vector3d end = after_run.At(50.0, 30.0);
  EXPECT_GT(end.y(), 180.0);
  EXPECT_LT(end.x(), 80.0);
  // The speed legend's red end in the bottom-left corner, only after a run.
  const auto red_in_corner = [](const Image& image) {
    int count = 0;
    for (int y = image.height * 85 / 100; y < image.height; ++y) {
      for (int x = 0; x < image.width * 40 / 100; ++x) {
        const size_t i = (static_cast<size_t>(y) * image.width + x) * 3;
        count += image.rgb[i] > 200 && image.rgb[i + 1] < 60 && image.rgb[i + 2] < 40;
      }
    }
    return count;
  };
  EXPECT_EQ(red_in_corner(before_run), 0);
  EXPECT_GT(red_in_corner(after_run), 10);
}

}  // namespace
}  // namespace asg::capture
