// The built world as GPU buffers: built once per scene and drawn by every view of its capture.
// Needs the capture thread's current context; thread-confined like it.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include "capture/gl.h"
#include "capture/meshes.h"
#include "protocol/extensions.h"
#include "scene/world.h"

namespace asg::capture {

/// One mesh on the GPU with a per-instance model matrix; owns its vertex array and buffers.
class InstancedMesh {
 public:
  /// Uploads the mesh and one model matrix (object -> world) per instance.
  InstancedMesh(const Mesh& mesh, const std::vector<Eigen::Matrix4f>& models);
  ~InstancedMesh();
  InstancedMesh(const InstancedMesh&) = delete;
  InstancedMesh& operator=(const InstancedMesh&) = delete;

  /// Draws the first `instances` instances (0 draws nothing) with the bound program.
  void Draw(GLsizei instances) const;

 private:
  GLuint vertex_array_ = 0;
  GLuint vertex_buffer_ = 0;
  GLuint index_buffer_ = 0;
  GLuint instance_buffer_ = 0;
  GLsizei index_count_ = 0;
};

/// Segmentation labels of the camera sensor (camera_sensor.h).
inline constexpr uint8_t kLabelSky = 0;             ///< nothing drawn
inline constexpr uint8_t kLabelTraversable = 1;     ///< terrain and traversable actors
inline constexpr uint8_t kLabelNonTraversable = 2;  ///< actors with collision, and the vehicle

/// One draw of the scene: a mesh, its colour and how many instances take part in each pass.
struct DrawItem {
  std::unique_ptr<InstancedMesh> mesh;
  Eigen::Vector3f color = Eigen::Vector3f::Ones();  ///< [0, 1] RGB; unused by the terrain
  bool terrain = false;               ///< coloured by height and slope, drawn without face culling
  bool vehicle = false;               ///< the vehicle (hidden in the view from inside it)
  uint8_t label = kLabelTraversable;  ///< segmentation label of every instance
  GLsizei all_instances = 0;          ///< drawn in the colour pass
  GLsizei shadow_instances = 0;  ///< the first ones, drawn in the shadow pass (cast_shadow true)
};

/// The GPU buffers of one World: the terrain (its simplified render mesh, terrain_mesh.h),
/// instanced actor parts per kind and traversability (instances that cast shadows first), and,
/// when `vehicle` is not null, the vehicle of that shape at its start pose, standing on the
/// ground and tilted to the ground normal.
class SceneBuffers {
 public:
  SceneBuffers(const scene::World& world, const protocol::VehicleParams* vehicle);

  const std::vector<DrawItem>& items() const { return items_; }
  /// [m] axis-aligned box around everything drawn (landscape grid, actors, vehicle).
  const Eigen::AlignedBox3d& bounds() const { return bounds_; }
  double lowest_ground() const { return lowest_ground_; }    ///< [m]
  double highest_ground() const { return highest_ground_; }  ///< [m]

 private:
  std::vector<DrawItem> items_;
  Eigen::AlignedBox3d bounds_;
  double lowest_ground_ = 0.0;
  double highest_ground_ = 0.0;
};

/// Actor frame -> world for an instance: translate to position, rotate, scale uniformly.
Eigen::Matrix4f InstanceModel(const scene::ActorInstance& instance);

/// Body frame -> world for the vehicle at the world's start pose: origin on the ground at
/// world.start, x along world.start_yaw, z along the ground normal there.
Eigen::Matrix4f VehicleStartModel(const scene::World& world);

}  // namespace asg::capture
