// CameraSensorRenderer: the images of a camera mounted on the vehicle (protocol::CameraSpec), for
// external vehicle nodes. Raw pixels, no PNG.
//
// Frames: the camera frame is the vehicle body frame (x forward, y left, z up) moved by the
// spec's SensorMount (offset, then yaw about z, pitch about the new y, roll about the new x); the
// camera looks along its +x with +z up in the image. Pinhole projection with the spec's
// horizontal field of view over width and square pixels (so the vertical field of view is
// 2 atan(tan(fov / 2) height / width)), near plane kCameraNear, far plane kCameraFar.
//
// Images (row-major, row 0 the top of the picture, no padding between rows):
//   rgb           3 bytes per pixel (8-bit RGB): the capture views' look (terrain colour by height
//                 and slope, sun with shadows, sky light, haze, sky gradient), without contour
//                 lines and without anti-aliasing.
//   depth         one float per pixel: z-depth [m], the distance along the optical axis (camera
//                 +x) to the surface seen, not the ray length; +infinity where the pixel sees sky
//                 (nothing nearer than kCameraFar). Computed per pixel from the interpolated
//                 world position into a 32-bit float target rather than linearised from the
//                 depth buffer: within 1 mm of a CPU ray cast through the pixel centre at 2 to
//                 9 m in the tests, float rounding only (about 1e-7 relative) at any range. The
//                 24-bit depth buffer only decides visibility.
//   segmentation  one byte per pixel: kLabelSky (0) sky, kLabelTraversable (1) terrain and
//                 traversable actors (e.g. grass, or instances scaled below the traversability
//                 height), kLabelNonTraversable (2) actors with collision (trees, bushes, rocks).
// The vehicle is not drawn, nor its shadow; actors cast shadows as in the scene captures.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <vector>

#include "capture/scene_buffers.h"
#include "protocol/sensor_specs.h"
#include "scene/world.h"

namespace asg::capture {

inline constexpr double kCameraNear = 0.1;   ///< [m] near clipping plane
inline constexpr double kCameraFar = 500.0;  ///< [m] far clipping plane

/// The images of one camera frame; a vector is empty when its image was not asked for.
struct CameraImages {
  int width = 0;                      ///< [px]
  int height = 0;                     ///< [px]
  std::vector<uint8_t> rgb;           ///< width * height * 3 bytes, see the file comment
  std::vector<float> depth;           ///< width * height z-depths [m], +inf for sky
  std::vector<uint8_t> segmentation;  ///< width * height labels (kLabel*)
};

/// World pose of the camera frame (x forward, y left, z up) for the vehicle body frame at
/// `vehicle_pose_world`.
Eigen::Isometry3d CameraPoseInWorld(const protocol::SensorMount& mount,
                                    const Eigen::Isometry3d& vehicle_pose_world);

/// Renders camera images over one world at a time. Thread-confined like CaptureRenderer: use it
/// on the thread that constructed it (the GL context is that thread's).
class CameraSensorRenderer {
 public:
  /// Creates (or reuses) this thread's EGL context and compiles the programs. Throws
  /// CaptureError when EGL or OpenGL 3.3 core is unavailable.
  CameraSensorRenderer();
  ~CameraSensorRenderer();
  CameraSensorRenderer(const CameraSensorRenderer&) = delete;
  CameraSensorRenderer& operator=(const CameraSensorRenderer&) = delete;

  /// Uploads the world's terrain and actors and draws the sun's shadow map; every later Render
  /// reuses them. The world is not referenced after the call. Throws CaptureError when it has
  /// no landscape.
  void SetWorld(const scene::World& world);

  /// Renders the images spec.colour, spec.depth and spec.segmentation ask for, from the camera
  /// of `spec` on the vehicle at `vehicle_pose_world` (body frame -> world [m]). Throws
  /// CaptureError naming the camera and the field when width or height is outside
  /// 1..kMaxImageSize or fov outside (0, 180) deg, when SetWorld was not called, and on GL
  /// failures.
  CameraImages Render(const protocol::CameraSpec& spec,
                      const Eigen::Isometry3d& vehicle_pose_world);

 private:
  struct Resources;
  std::unique_ptr<Resources> resources_;
};

}  // namespace asg::capture
