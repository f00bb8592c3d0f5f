// Tests for capture/camera_sensor.h: depths are compared with rays cast on the CPU through the
// same pixel centres against the same actor meshes and the flat ground.
#include "capture/camera_sensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "capture/capture_error.h"
#include "capture/meshes.h"
#include "capture/renderer.h"
#include "scene/world.h"
#include "tests/source_catalog.h"

namespace asg::capture {
namespace {

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

// A flat 60 m landscape with one actor `path_name` at (x, y) and the vehicle start at (20, 10).
scene::World MakeWorld(const scene::ActorCatalog& catalog, const char* path_name, double x,
                       double y, double scale) {
  protocol::RunScenarioRequest request;
  request.vehicle_start_location = {20.0, 10.0, 0.0};
  request.vehicle_goal_location = {50.0, 50.0, 0.0};
  request.scene_description.landscape.nominal_size = 60.0;
  request.scene_description.landscape.subdivisions = 6;
  request.scene_description.landscape.border = 10.0;
  request.scene_description.sunlight_inclination = 40.0;
  protocol::StructuralSceneActorLayout layout;
  layout.path_name = path_name;
  layout.num_instances = 1;
  layout.x = {x};
  layout.y = {y};
  layout.yaw = {0.0};
  layout.scale = {scale};
  layout.visible = {true};
  layout.cast_shadow = {true};
  request.scene_description.ssa_array = {layout};
  return scene::BuildWorld(request, catalog);
}

const scene::ActorCatalog& Catalog() {
  static const scene::ActorCatalog catalog =
      scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  return catalog;
}

// The ray through the centre of pixel (u, v) (v = 0 top) in world coordinates, scaled so that
// its component along the optical axis is 1: the ray parameter is the z-depth.
Eigen::Vector3d PixelRay(const protocol::CameraSpec& spec, const Eigen::Isometry3d& camera, int u,
                         int v) {
  const double focal = 0.5 * spec.width / std::tan(0.5 * spec.fov * kDegToRad);
  const Eigen::Vector3d in_camera(1.0, -(u + 0.5 - 0.5 * spec.width) / focal,
                                  -(v + 0.5 - 0.5 * spec.height) / focal);
  return camera.linear() * in_camera;
}

// Smallest ray parameter hitting a triangle of the world's actors or the ground z = 0.
double CastRay(const scene::World& world, const Eigen::Vector3d& origin,
               const Eigen::Vector3d& ray) {
  double nearest = ray.z() < 0.0 ? -origin.z() / ray.z() : std::numeric_limits<double>::infinity();
  for (const scene::ActorInstance& instance : world.actors) {
    const Eigen::Matrix4d model = InstanceModel(instance).cast<double>();
    for (const MeshPart& part : ColouredActorParts(*instance.kind)) {
      const Mesh& mesh = part.mesh;
      auto world_point = [&](uint32_t index) {
        return (model * mesh.positions[index].cast<double>().homogeneous()).head<3>().eval();
      };
      for (size_t t = 0; t < mesh.indices.size(); t += 3) {
        // Moller-Trumbore.
        const Eigen::Vector3d a = world_point(mesh.indices[t]);
        const Eigen::Vector3d e1 = world_point(mesh.indices[t + 1]) - a;
        const Eigen::Vector3d e2 = world_point(mesh.indices[t + 2]) - a;
        const Eigen::Vector3d p = ray.cross(e2);
        const double det = e1.dot(p);
        if (std::abs(det) < 1e-12) continue;
        const Eigen::Vector3d s = origin - a;
        const double b1 = s.dot(p) / det;
        const Eigen::Vector3d q = s.cross(e1);
        const double b2 = ray.dot(q) / det;
        const double hit = e2.dot(q) / det;
        if (b1 >= 0.0 && b2 >= 0.0 && b1 + b2 <= 1.0 && hit > 0.0) nearest = std::min(nearest, hit);
      }
    }
  }
  return nearest;
}

struct Fixture {
  explicit Fixture(scene::World built) : world(std::move(built)) {}

  scene::World world;
  protocol::CameraSpec spec;
  Eigen::Isometry3d vehicle = Eigen::Isometry3d::Identity();
  CameraImages images;

  size_t Index(int u, int v) const { return static_cast<size_t>(v) * spec.width + u; }
  double ExpectedDepth(int u, int v) const {
    const Eigen::Isometry3d camera = CameraPoseInWorld(spec.mount, vehicle);
    return CastRay(world, camera.translation(), PixelRay(spec, camera, u, v));
  }
};

// The research stack's camera (256 x 256, 90 deg, 1.5 m ahead and 1.4 m up) on a vehicle at
// (20, 10) facing +x, with `path_name` scaled by `scale` at (x, 10).
Fixture Render(const char* path_name, double x, double scale, uint32_t width, uint32_t height) {
  Fixture f(MakeWorld(Catalog(), path_name, x, 10.0, scale));
  f.spec.name = "front";
  f.spec.width = width;
  f.spec.height = height;
  f.spec.segmentation = true;
  f.vehicle.translation() = Eigen::Vector3d(20.0, 10.0, 0.0);
  CameraSensorRenderer renderer;
  renderer.SetWorld(f.world);
  f.images = renderer.Render(f.spec, f.vehicle);
  return f;
}

TEST(CameraSensorRenderer, RockAheadHasItsDistanceLabelAndColour) {
  // A rock 4 x its nominal size (2.4 m tall) 8.5 m ahead of the camera.
  const Fixture f = Render("rock", 30.0, 4.0, 256, 256);
  ASSERT_EQ(f.images.width, 256);
  ASSERT_EQ(f.images.height, 256);
  ASSERT_EQ(f.images.rgb.size(), 256u * 256u * 3u);
  ASSERT_EQ(f.images.depth.size(), 256u * 256u);
  ASSERT_EQ(f.images.segmentation.size(), 256u * 256u);

  const int u = 128, v = 128;
  const double expected = f.ExpectedDepth(u, v);
  ASSERT_GT(expected, 6.0);
  ASSERT_LT(expected, 8.5);  // the rock, not the ground behind it
  EXPECT_NEAR(f.images.depth[f.Index(u, v)], expected, 0.005);
  EXPECT_EQ(f.images.segmentation[f.Index(u, v)], kLabelNonTraversable);
  // Sandstone (0.66, 0.52, 0.38): red over green over blue, unlike the ground or the sky.
  const uint8_t* rgb = &f.images.rgb[3 * f.Index(u, v)];
  EXPECT_GT(rgb[0], rgb[1]);
  EXPECT_GT(rgb[1], rgb[2]);

  for (int column = 0; column < 256; ++column) {
    EXPECT_EQ(f.images.segmentation[f.Index(column, 0)], kLabelSky) << "column " << column;
    EXPECT_TRUE(std::isinf(f.images.depth[f.Index(column, 0)])) << "column " << column;
    EXPECT_EQ(f.images.segmentation[f.Index(column, 255)], kLabelTraversable)
        << "column " << column;
  }
  // Bottom row centre: the ground about 1.4 m ahead of the camera; greener than it is red.
  EXPECT_NEAR(f.images.depth[f.Index(u, 255)], f.ExpectedDepth(u, 255), 0.005);
  const uint8_t* ground = &f.images.rgb[3 * f.Index(u, 255)];
  EXPECT_GT(ground[1], ground[0]);
  EXPECT_GT(ground[1], ground[2]);
}

TEST(CameraSensorRenderer, NonSquareImageUsesTheHorizontalFieldOfView) {
  const Fixture f = Render("tree", 30.0, 1.0, 160, 90);
  ASSERT_EQ(f.images.rgb.size(), 160u * 90u * 3u);
  ASSERT_EQ(f.images.depth.size(), 160u * 90u);
  ASSERT_EQ(f.images.segmentation.size(), 160u * 90u);
  // The tree's canopy straight ahead, and the ground at the bottom row and at the left and right
  // edges of the bottom rows: these depths depend on both fields of view.
  for (const auto& [u, v] :
       {std::pair{80, 45}, std::pair{80, 89}, std::pair{0, 89}, std::pair{159, 80}}) {
    const double expected = f.ExpectedDepth(u, v);
    ASSERT_TRUE(std::isfinite(expected));
    EXPECT_NEAR(f.images.depth[f.Index(u, v)], expected, 0.005) << "pixel " << u << ", " << v;
  }
  EXPECT_EQ(f.images.segmentation[f.Index(80, 45)], kLabelNonTraversable);
  const uint8_t* canopy = &f.images.rgb[3 * f.Index(80, 45)];
  EXPECT_GT(canopy[1], canopy[0]);  // juniper green
  EXPECT_GT(canopy[1], canopy[2]);
}

TEST(CameraSensorRenderer, TraversableActorIsLabelledTraversable) {
  // Grass (always traversable) scaled to 1.05 m, 3 m ahead of a camera pitched down 20 deg.
  Fixture f(MakeWorld(Catalog(), "grass", 24.5, 10.0, 3.0));
  f.spec.mount.pitch = 20.0;
  f.spec.segmentation = true;
  f.vehicle.translation() = Eigen::Vector3d(20.0, 10.0, 0.0);
  CameraSensorRenderer renderer;
  renderer.SetWorld(f.world);
  f.images = renderer.Render(f.spec, f.vehicle);
  const double expected = f.ExpectedDepth(128, 128);
  ASSERT_LT(expected, 3.5);  // the grass tuft, not the ground
  EXPECT_NEAR(f.images.depth[f.Index(128, 128)], expected, 0.005);
  EXPECT_EQ(f.images.segmentation[f.Index(128, 128)], kLabelTraversable);
}

TEST(CameraSensorRenderer, AppliesTheMountAndDoesNotDrawTheVehicle) {
  Fixture f(MakeWorld(Catalog(), "rock", 30.0, 10.0, 4.0));
  f.vehicle.translation() = Eigen::Vector3d(20.0, 10.0, 0.0);
  CameraSensorRenderer renderer;
  renderer.SetWorld(f.world);
  // Turned to look backwards: the horizon at the centre, no rock.
  f.spec.mount.yaw = 180.0;
  f.spec.segmentation = true;
  f.images = renderer.Render(f.spec, f.vehicle);
  EXPECT_EQ(f.images.segmentation[f.Index(128, 100)], kLabelSky);
  // Behind and above the vehicle looking down at where it stands: ground, not the vehicle.
  f.spec.mount = {protocol::Vector3{-4.0, 0.0, 1.4}, 0.0, 20.0, 0.0};
  f.images = renderer.Render(f.spec, f.vehicle);
  const double expected = f.ExpectedDepth(128, 128);
  // The optical axis meets the ground 1.4 / sin(20 deg) = 4.09 m away; pixel row 128 looks
  // half a pixel lower.
  EXPECT_NEAR(expected, 1.4 / std::sin(20.0 * kDegToRad), 0.1);
  EXPECT_NEAR(f.images.depth[f.Index(128, 128)], expected, 0.005);
  EXPECT_EQ(f.images.segmentation[f.Index(128, 128)], kLabelTraversable);
}

TEST(CameraSensorRenderer, RendersOnlyTheImagesAskedFor) {
  Fixture f(MakeWorld(Catalog(), "rock", 30.0, 10.0, 1.0));
  f.spec.colour = false;
  f.spec.depth = true;
  f.spec.segmentation = false;
  CameraSensorRenderer renderer;
  renderer.SetWorld(f.world);
  const CameraImages images = renderer.Render(f.spec, f.vehicle);
  EXPECT_TRUE(images.rgb.empty());
  EXPECT_TRUE(images.segmentation.empty());
  EXPECT_EQ(images.depth.size(), 256u * 256u);
}

TEST(CameraSensorRenderer, RejectsBadSpecsAndRenderBeforeSetWorld) {
  CameraSensorRenderer renderer;
  protocol::CameraSpec spec;
  spec.name = "front";
  EXPECT_THROW(renderer.Render(spec, Eigen::Isometry3d::Identity()), CaptureError);
  renderer.SetWorld(MakeWorld(Catalog(), "rock", 30.0, 10.0, 1.0));
  spec.width = 0;
  try {
    renderer.Render(spec, Eigen::Isometry3d::Identity());
    ADD_FAILURE() << "width 0 accepted";
  } catch (const CaptureError& error) {
    EXPECT_NE(std::string(error.what()).find("camera 'front'.width: 0"), std::string::npos)
        << error.what();
  }
  spec.width = 64;
  spec.fov = 180.0;
  EXPECT_THROW(renderer.Render(spec, Eigen::Isometry3d::Identity()), CaptureError);
}

}  // namespace
}  // namespace asg::capture
