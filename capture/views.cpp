#include "capture/views.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace asg::capture {
namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;

// Unit viewing direction for yaw (CCW from +x) and pitch (negative looks down) [deg].
Eigen::Vector3d Direction(double yaw_deg, double pitch_deg) {
  const double yaw = yaw_deg * kDegToRad;
  const double pitch = pitch_deg * kDegToRad;
  return {std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch)};
}

// What every view of one scene shares.
struct Planner {
  const terrain::Landscape& landscape;
  SceneExtent extent;
  double nominal_size;
  double haze_distance;  // [m] of perspective views

  // Far plane [m]: the farthest corner of the scene's bounding box, with margin.
  double FarFrom(const Eigen::Vector3d& eye) const {
    const double lo = landscape.min_xy();
    const double hi = landscape.max_xy();
    double far = 0.0;
    for (double x : {lo, hi}) {
      for (double y : {lo, hi}) {
        for (double z : {extent.lowest, extent.highest}) {
          far = std::max(far, (Eigen::Vector3d(x, y, z) - eye).norm());
        }
      }
    }
    return far * 1.05 + 10.0;
  }

  CaptureView Perspective(const std::string& name, const Eigen::Vector3d& eye, double yaw,
                          double pitch, double near) const {
    CaptureView view;
    view.name = name;
    view.eye = eye;
    const Eigen::Vector3d forward = Direction(yaw, pitch);
    // Straight down, north is up in the image; otherwise world up is up.
    const Eigen::Vector3d up_hint =
        std::abs(forward.z()) > 0.999 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
    view.view = LookAt(eye, eye + forward, up_hint);
    view.projection = capture::Perspective(kFieldOfViewDeg, 1.0, near, FarFrom(eye));
    view.haze_distance = haze_distance;
    return view;
  }
};

struct DirectionalAerial {
  const char* name;
  // Positions in units of N (x, y) and H (z), for the _60 and the _45 image.
  double x60, y60, z60, x45, y45, z45;
  double yaw;  // [deg]
  bool protocol::SceneCaptureSettings::*wanted;
};

constexpr double kThird = 1.0 / 3.0;
const DirectionalAerial kDirectionalAerials[] = {
    {"front", 0.5, -0.1, 1.0, 0.5, -kThird, 0.9, 90.0,
     &protocol::SceneCaptureSettings::front_aerial},
    {"front_left", 0.0, 0.0, 1.0, -0.15, -0.15, 0.9, 45.0,
     &protocol::SceneCaptureSettings::left_front_aerial},
    {"left", -0.1, 0.5, 1.0, -kThird, 0.5, 0.9, 0.0, &protocol::SceneCaptureSettings::left_aerial},
    {"back_left", 0.0, 1.0, 1.0, -0.15, 1.15, 0.9, -45.0,
     &protocol::SceneCaptureSettings::left_rear_aerial},
    {"back", 0.5, 1.1, 1.0, 0.5, 1.0 + kThird, 0.9, -90.0,
     &protocol::SceneCaptureSettings::rear_aerial},
    {"back_right", 1.0, 1.0, 1.0, 1.15, 1.15, 0.9, -135.0,
     &protocol::SceneCaptureSettings::right_rear_aerial},
    {"right", 1.1, 0.5, 1.0, 1.0 + kThird, 0.5, 0.9, 180.0,
     &protocol::SceneCaptureSettings::right_aerial},
    {"front_right", 1.0, 0.0, 1.0, 1.15, -0.15, 0.9, 135.0,
     &protocol::SceneCaptureSettings::right_front_aerial},
};

}  // namespace

std::vector<CaptureView> PlanViews(const protocol::SceneCaptureSettings& settings,
                                   const scene::World& world, const SceneExtent& extent) {
  const terrain::Landscape& landscape = *world.landscape;
  const double n = landscape.description().nominal_size;
  const double tan_half_fov = std::tan(0.5 * kFieldOfViewDeg * kDegToRad);
  const Planner planner{landscape, extent, n,
                        world.haze_distance > 0.0 ? world.haze_distance : 8.0 * n};
  std::vector<CaptureView> views;

  if (settings.ortho_aerial) {
    for (uint32_t padding : settings.aerial_padding) {
      const double half_width = 0.5 * n + padding;
      CaptureView view;
      view.name = "ortho_aerial_pad" + std::to_string(padding);
      view.eye = {0.5 * n, 0.5 * n, extent.highest + 10.0};
      view.view = LookAt(view.eye, view.eye - Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX());
      view.projection = Orthographic(-half_width, half_width, -half_width, half_width, 1.0,
                                     view.eye.z() - extent.lowest + 10.0);
      view.orthographic = true;
      view.marks_run = true;
      views.push_back(view);
    }
  }
  if (settings.perspective_aerial) {
    for (uint32_t padding : settings.aerial_padding) {
      const Eigen::Vector3d eye(0.5 * n, 0.5 * n, 0.5 * (n + 2.0 * padding) / tan_half_fov);
      views.push_back(planner.Perspective("perspective_aerial_pad" + std::to_string(padding), eye,
                                          0.0, -90.0, 0.5));
    }
  }
  const double h = 0.5 * n / tan_half_fov;
  for (const DirectionalAerial& aerial : kDirectionalAerials) {
    if (!(settings.*aerial.wanted)) continue;
    const std::string base = std::string("perspective_") + aerial.name + "_aerial_";
    views.push_back(planner.Perspective(
        base + "60", {aerial.x60 * n, aerial.y60 * n, aerial.z60 * h}, aerial.yaw, -60.0, 0.5));
    views.push_back(planner.Perspective(
        base + "45", {aerial.x45 * n, aerial.y45 * n, aerial.z45 * h}, aerial.yaw, -45.0, 0.5));
  }
  const double start_x = world.start.x();
  const double start_y = world.start.y();
  const double start_yaw = world.start_yaw;
  if (settings.vehicle_start_pov) {
    const Eigen::Vector3d eye(start_x, start_y, landscape.HeightAt(start_x, start_y) + 1.0);
    CaptureView view =
        planner.Perspective("perspective_vehicle_start_pov", eye, start_yaw, 0.0, 0.1);
    view.shows_vehicle = false;
    views.push_back(view);
  }
  if (settings.vehicle_start_rear_aerial) {
    const Eigen::Vector3d back = -5.0 * Direction(start_yaw, 0.0);
    const double x = start_x + back.x();
    const double y = start_y + back.y();
    const Eigen::Vector3d eye(x, y, landscape.HeightAt(x, y) + 3.0);
    views.push_back(
        planner.Perspective("perspective_vehicle_start_rear_aerial", eye, start_yaw, -15.0, 0.1));
  }
  return views;
}

Eigen::Vector2d OrthoAerialPixelToWorld(double nominal_size, double padding, int image_size,
                                        double column, double row) {
  const double width = nominal_size + 2.0 * padding;
  const double top_left = 0.5 * nominal_size + 0.5 * width;
  const double pixel = width / image_size;
  return {top_left - (row + 0.5) * pixel, top_left - (column + 0.5) * pixel};
}

Eigen::Vector2d WorldToOrthoAerialPixel(double nominal_size, double padding, int image_size,
                                        double x, double y) {
  const double width = nominal_size + 2.0 * padding;
  const double top_left = 0.5 * nominal_size + 0.5 * width;
  const double pixel = width / image_size;
  return {(top_left - y) / pixel, (top_left - x) / pixel};
}

Eigen::Matrix4f LookAt(const Eigen::Vector3d& eye, const Eigen::Vector3d& target,
                       const Eigen::Vector3d& up_hint) {
  const Eigen::Vector3d forward = (target - eye).normalized();
  const Eigen::Vector3d right = forward.cross(up_hint).normalized();
  const Eigen::Vector3d up = right.cross(forward);
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<1, 3>(0, 0) = right.transpose();
  m.block<1, 3>(1, 0) = up.transpose();
  m.block<1, 3>(2, 0) = -forward.transpose();
  m(0, 3) = -right.dot(eye);
  m(1, 3) = -up.dot(eye);
  m(2, 3) = forward.dot(eye);
  return m.cast<float>();
}

Eigen::Matrix4f Perspective(double fov_y_deg, double aspect, double near, double far) {
  const double f = 1.0 / std::tan(0.5 * fov_y_deg * kDegToRad);
  Eigen::Matrix4d m = Eigen::Matrix4d::Zero();
  m(0, 0) = f / aspect;
  m(1, 1) = f;
  m(2, 2) = (far + near) / (near - far);
  m(2, 3) = 2.0 * far * near / (near - far);
  m(3, 2) = -1.0;
  return m.cast<float>();
}

Eigen::Matrix4f Orthographic(double left, double right, double bottom, double top, double near,
                             double far) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m(0, 0) = 2.0 / (right - left);
  m(1, 1) = 2.0 / (top - bottom);
  m(2, 2) = -2.0 / (far - near);
  m(0, 3) = -(right + left) / (right - left);
  m(1, 3) = -(top + bottom) / (top - bottom);
  m(2, 3) = -(far + near) / (far - near);
  return m.cast<float>();
}

}  // namespace asg::capture
