// The cameras of a scene capture: one per image the SceneCaptureSettings ask for, placed as the
// reference AutoSceneGen worker placed them (see docs of SceneCaptureSettings).
//
// Frame: world north-west-up (x north, y west, z up); yaw counter-clockwise from +x, pitch
// negative below the horizon. Matrices follow OpenGL: the eye looks along its -z, clip space
// depth in [-1, 1], image row 0 at the bottom of the framebuffer (the PNG is flipped so that its
// row 0 is the top of the picture).
//
// Ortho aerial mapping (tests depend on it): the camera looks straight down over
// (N/2, N/2) with north (+x) up in the image and west (+y) to the left. With N = nominal_size,
// W = N + 2 p the ortho width for padding p [m], and S = image_size, the PNG pixel in column u
// (0 = left) and row v (0 = top) covers the world point
//   x = N/2 + W/2 - (v + 0.5) W / S,   y = N/2 + W/2 - (u + 0.5) W / S.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "scene/world.h"

namespace asg::capture {

/// Vertical (and horizontal, images are square) field of view of every perspective view [deg].
inline constexpr double kFieldOfViewDeg = 60.0;

/// One camera of a capture.
struct CaptureView {
  std::string name;  ///< file name without extension, e.g. "perspective_front_aerial_60"
  Eigen::Vector3d eye = Eigen::Vector3d::Zero();             ///< [m] camera position, world
  Eigen::Matrix4f view = Eigen::Matrix4f::Identity();        ///< world -> eye
  Eigen::Matrix4f projection = Eigen::Matrix4f::Identity();  ///< eye -> clip
  bool orthographic = false;                                 ///< true for the ortho aerials
  bool shows_vehicle = true;   ///< false for the view from inside the vehicle
  bool marks_run = false;      ///< true for the ortho aerials: start pose and trajectory marks
  double haze_distance = 0.0;  ///< [m] distance over which haze reaches 63 %; 0 = no haze
};

/// Heights the cameras need to know about the scene.
struct SceneExtent {
  double lowest = 0.0;   ///< [m] lowest point of the scene (ground)
  double highest = 0.0;  ///< [m] highest point of the scene (ground, actors, vehicle)
};

/// The views `settings` ask for over `world`, in this order: ortho_aerial_pad{p}
/// for each padding, perspective_aerial_pad{p} for each padding, the eight directional aerials
/// (front, front_left, left, back_left, back, back_right, right, front_right; each _60 then _45),
/// perspective_vehicle_start_pov, perspective_vehicle_start_rear_aerial. The vehicle views use
/// world.start and world.start_yaw. Pure function, thread-safe.
std::vector<CaptureView> PlanViews(const protocol::SceneCaptureSettings& settings,
                                   const scene::World& world, const SceneExtent& extent);

/// World (x, y) [m] at the centre of PNG pixel (column, row) of an ortho aerial, see the file
/// comment; fractional pixel coordinates are allowed (pixel centres are at +0.5).
Eigen::Vector2d OrthoAerialPixelToWorld(double nominal_size, double padding, int image_size,
                                        double column, double row);

/// PNG (column, row) of world (x, y) [m] in an ortho aerial; the inverse of
/// OrthoAerialPixelToWorld, so a pixel's centre maps to (u + 0.5, v + 0.5).
Eigen::Vector2d WorldToOrthoAerialPixel(double nominal_size, double padding, int image_size,
                                        double x, double y);

/// Right-handed look-at view matrix (gluLookAt): eye looks at target, up_hint roughly up.
Eigen::Matrix4f LookAt(const Eigen::Vector3d& eye, const Eigen::Vector3d& target,
                       const Eigen::Vector3d& up_hint);
/// Perspective projection (gluPerspective) with vertical field of view [deg], near/far [m].
Eigen::Matrix4f Perspective(double fov_y_deg, double aspect, double near, double far);
/// Orthographic projection (glOrtho) of the eye-space box; near/far are distances [m].
Eigen::Matrix4f Orthographic(double left, double right, double bottom, double top, double near,
                             double far);

}  // namespace asg::capture
