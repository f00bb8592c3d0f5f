// The sun and the lit pass's settings shared by the capture views (renderer.h) and the camera
// sensor (camera_sensor.h). Drawing functions need the capture thread's current context.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "capture/render_targets.h"
#include "capture/scene_buffers.h"
#include "capture/shaders.h"
#include "scene/world.h"

namespace asg::capture {

/// Side of the sun's shadow map [px]: about 13 cm a texel over the reference scene, finer than
/// a 512 px ortho aerial's 16 cm pixel. 2048 cost about 1 ms more per 512 px view on llvmpipe
/// (the views' shadow lookups missing in cache) for shadow edges few views can show.
inline constexpr int kShadowMapSize = 1024;

/// Colour distant geometry fades to, and the horizon colour of the sky.
inline const Eigen::Vector3f kHazeColor(0.78f, 0.82f, 0.86f);

/// The sun: light direction, colour and the shadow map's projection.
struct Sun {
  Eigen::Vector3f to_sun = Eigen::Vector3f::UnitZ();  ///< unit, ground -> sun
  Eigen::Vector3f light = Eigen::Vector3f::Zero();    ///< direct light colour, 0 below the horizon
  Eigen::Matrix4f view_projection = Eigen::Matrix4f::Identity();  ///< world -> light clip
  Eigen::Matrix4f shadow_matrix = Eigen::Matrix4f::Identity();    ///< world -> shadow map [0,1]^3
};

/// The sun of `world` (sun_inclination, sun_yaw) with an orthographic shadow projection fitted
/// around `bounds` [m].
Sun MakeSun(const scene::World& world, const Eigen::AlignedBox3d& bounds);

/// Draws the shadow casters of `buffers` (each item's first shadow_instances) into `map` with
/// the depth-only `shadow` program.
void DrawShadowMap(const SceneBuffers& buffers, const Sun& sun, const Program& shadow,
                   const ShadowMap& map);

/// The camera-dependent settings of the lit programs.
struct LitCamera {
  Eigen::Matrix4f view_projection = Eigen::Matrix4f::Identity();  ///< world -> clip
  Eigen::Vector3d eye = Eigen::Vector3d::Zero();                  ///< [m] world
  double haze_distance = 0.0;  ///< [m] distance over which haze reaches 63 %; 0 = no haze
  float contour_step = 0.0f;   ///< [m] spacing of the ground's contour lines; 0 = none
};

/// Binds `lit` (kLitFragmentShader or kSensorFragmentShader) and sets every uniform of the
/// shared lighting, with the shadow map on texture unit 0.
void UseLitProgram(const Program& lit, const LitCamera& camera, const Sun& sun,
                   const SceneBuffers& buffers, const ShadowMap& map);

/// Draws one item with the bound lit program: terrain without face culling, other meshes with
/// back faces culled.
void DrawLitItem(const Program& lit, const DrawItem& item);

/// Draws the sky gradient behind everything drawn so far (depth test LEQUAL on the far plane,
/// depth not written) with the `sky` program and an empty vertex array.
void DrawSky(const Program& sky, const Eigen::Matrix4f& view_projection, const Sun& sun,
             GLuint empty_vertex_array);

}  // namespace asg::capture
