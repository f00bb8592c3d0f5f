// Tests for capture/views.h.
#include "capture/views.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "scene/world.h"

namespace asg::capture {
namespace {

scene::World FlatWorld() {
  protocol::LandscapeDescription description;
  description.nominal_size = 60.0;
  description.subdivisions = 4;
  scene::World world;
  world.landscape = std::make_shared<terrain::Landscape>(description);
  world.start = {10.0, 20.0, 0.0};
  world.start_yaw = 90.0;
  return world;
}

protocol::SceneCaptureSettings AllViews() {
  protocol::SceneCaptureSettings s;
  s.ortho_aerial = s.perspective_aerial = true;
  s.aerial_padding = {0, 15};
  s.front_aerial = s.left_front_aerial = s.left_aerial = s.left_rear_aerial = true;
  s.rear_aerial = s.right_rear_aerial = s.right_aerial = s.right_front_aerial = true;
  s.vehicle_start_pov = s.vehicle_start_rear_aerial = true;
  return s;
}

const CaptureView& Find(const std::vector<CaptureView>& views, const std::string& name) {
  auto it = std::find_if(views.begin(), views.end(),
                         [&](const CaptureView& v) { return v.name == name; });
  EXPECT_NE(it, views.end()) << name;
  return *it;
}

// Where a world point lands in the PNG (column, row) through a view's matrices.
Eigen::Vector2d Project(const CaptureView& view, int size, const Eigen::Vector3d& p) {
  const Eigen::Vector4f clip =
      view.projection * view.view * Eigen::Vector4f(p.x(), p.y(), p.z(), 1.0f);
  const Eigen::Vector2d ndc(clip.x() / clip.w(), clip.y() / clip.w());
  return {(ndc.x() + 1.0) * 0.5 * size, (1.0 - ndc.y()) * 0.5 * size};
}

TEST(PlanViews, NamesAndOrderFollowTheReferenceTable) {
  const std::vector<CaptureView> views = PlanViews(AllViews(), FlatWorld(), {0.0, 5.0});
  std::vector<std::string> names;
  for (const CaptureView& v : views) names.push_back(v.name);
  const std::vector<std::string> expected = {"ortho_aerial_pad0",
                                             "ortho_aerial_pad15",
                                             "perspective_aerial_pad0",
                                             "perspective_aerial_pad15",
                                             "perspective_front_aerial_60",
                                             "perspective_front_aerial_45",
                                             "perspective_front_left_aerial_60",
                                             "perspective_front_left_aerial_45",
                                             "perspective_left_aerial_60",
                                             "perspective_left_aerial_45",
                                             "perspective_back_left_aerial_60",
                                             "perspective_back_left_aerial_45",
                                             "perspective_back_aerial_60",
                                             "perspective_back_aerial_45",
                                             "perspective_back_right_aerial_60",
                                             "perspective_back_right_aerial_45",
                                             "perspective_right_aerial_60",
                                             "perspective_right_aerial_45",
                                             "perspective_front_right_aerial_60",
                                             "perspective_front_right_aerial_45",
                                             "perspective_vehicle_start_pov",
                                             "perspective_vehicle_start_rear_aerial"};
  EXPECT_EQ(names, expected);
}

TEST(PlanViews, NothingAskedGivesNoViews) {
  protocol::SceneCaptureSettings settings;
  settings.aerial_padding = {0};
  EXPECT_TRUE(PlanViews(settings, FlatWorld(), {0.0, 5.0}).empty());
}

TEST(PlanViews, DirectionalAerialPositionsAndAim) {
  const std::vector<CaptureView> views = PlanViews(AllViews(), FlatWorld(), {0.0, 5.0});
  const double n = 60.0, h = 0.5 * n / std::tan(M_PI / 6.0);
  const CaptureView& front60 = Find(views, "perspective_front_aerial_60");
  EXPECT_NEAR((front60.eye - Eigen::Vector3d(n / 2, -0.1 * n, h)).norm(), 0.0, 1e-9);
  const CaptureView& right45 = Find(views, "perspective_right_aerial_45");
  EXPECT_NEAR((right45.eye - Eigen::Vector3d(4 * n / 3, n / 2, 0.9 * h)).norm(), 0.0, 1e-9);
  // front_aerial looks along yaw 90 (+y): a point further west is nearer the image centre
  // column, and the square's far edge appears above the near edge.
  const Eigen::Vector2d near_edge = Project(front60, 512, {n / 2, 0.0, 0.0});
  const Eigen::Vector2d far_edge = Project(front60, 512, {n / 2, n, 0.0});
  EXPECT_NEAR(near_edge.x(), 256.0, 1.0);
  EXPECT_NEAR(far_edge.x(), 256.0, 1.0);
  EXPECT_LT(far_edge.y(), near_edge.y());
  // Pitch -60: the point straight ahead at -60 deg is the image centre.
  const Eigen::Vector3d ahead = front60.eye + Eigen::Vector3d(0.0, 0.5, -std::sqrt(3.0) / 2.0);
  const Eigen::Vector2d centre = Project(front60, 512, ahead);
  EXPECT_NEAR(centre.x(), 256.0, 1e-2);
  EXPECT_NEAR(centre.y(), 256.0, 1e-2);
}

TEST(PlanViews, OrthoAerialMatchesTheDocumentedPixelMapping) {
  const std::vector<CaptureView> views = PlanViews(AllViews(), FlatWorld(), {0.0, 5.0});
  const CaptureView& ortho = Find(views, "ortho_aerial_pad15");
  EXPECT_TRUE(ortho.orthographic);
  for (const Eigen::Vector2d& p : {Eigen::Vector2d(0, 0), Eigen::Vector2d(60, 0),
                                   Eigen::Vector2d(12.5, 47.0), Eigen::Vector2d(-10, 70)}) {
    const Eigen::Vector2d through_matrices = Project(ortho, 300, {p.x(), p.y(), 1.0});
    const Eigen::Vector2d documented = WorldToOrthoAerialPixel(60.0, 15.0, 300, p.x(), p.y());
    EXPECT_NEAR((through_matrices - documented).norm(), 0.0, 1e-3) << p.transpose();
  }
  // North is up and west is left: the north-west corner is at the top left.
  const Eigen::Vector2d north_west = WorldToOrthoAerialPixel(60.0, 15.0, 300, 75.0, 75.0);
  EXPECT_NEAR(north_west.x(), 0.0, 1e-9);
  EXPECT_NEAR(north_west.y(), 0.0, 1e-9);
}

TEST(OrthoAerialPixelToWorld, InvertsWorldToOrthoAerialPixel) {
  const Eigen::Vector2d world = OrthoAerialPixelToWorld(60.0, 5.0, 256, 17.0, 201.0);
  const Eigen::Vector2d pixel = WorldToOrthoAerialPixel(60.0, 5.0, 256, world.x(), world.y());
  EXPECT_NEAR(pixel.x(), 17.5, 1e-9);
  EXPECT_NEAR(pixel.y(), 201.5, 1e-9);
  // Column 0, row 0 is the north-west corner pixel.
  const Eigen::Vector2d corner = OrthoAerialPixelToWorld(60.0, 5.0, 70, 0.0, 0.0);
  EXPECT_NEAR(corner.x(), 64.5, 1e-9);
  EXPECT_NEAR(corner.y(), 64.5, 1e-9);
}

TEST(PlanViews, VehicleViewsSitAtTheStart) {
  const std::vector<CaptureView> views = PlanViews(AllViews(), FlatWorld(), {0.0, 5.0});
  const CaptureView& pov = Find(views, "perspective_vehicle_start_pov");
  EXPECT_NEAR((pov.eye - Eigen::Vector3d(10.0, 20.0, 1.0)).norm(), 0.0, 1e-9);
  EXPECT_FALSE(pov.shows_vehicle);
  const CaptureView& rear = Find(views, "perspective_vehicle_start_rear_aerial");
  // Yaw 90: behind the vehicle is -y.
  EXPECT_NEAR((rear.eye - Eigen::Vector3d(10.0, 15.0, 3.0)).norm(), 0.0, 1e-9);
  EXPECT_TRUE(rear.shows_vehicle);
}

}  // namespace
}  // namespace asg::capture
