#include "capture/scene_buffers.h"

#include <cmath>
#include <map>
#include <numbers>

#include "capture/shaders.h"
#include "capture/terrain_mesh.h"

namespace asg::capture {

InstancedMesh::InstancedMesh(const Mesh& mesh, const std::vector<Eigen::Matrix4f>& models)
    : index_count_(static_cast<GLsizei>(mesh.indices.size())) {
  // Interleaved position (3 floats) and normal (3 floats) per vertex.
  std::vector<float> vertices;
  vertices.reserve(mesh.positions.size() * 6);
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    vertices.insert(vertices.end(), mesh.positions[i].data(), mesh.positions[i].data() + 3);
    vertices.insert(vertices.end(), mesh.normals[i].data(), mesh.normals[i].data() + 3);
  }
  glGenVertexArrays(1, &vertex_array_);
  glBindVertexArray(vertex_array_);
  glGenBuffers(1, &vertex_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)),
               vertices.data(), GL_STATIC_DRAW);
  const GLsizei stride = 6 * sizeof(float);
  glEnableVertexAttribArray(kPositionAttribute);
  glVertexAttribPointer(kPositionAttribute, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
  glEnableVertexAttribArray(kNormalAttribute);
  glVertexAttribPointer(kNormalAttribute, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(3 * sizeof(float)));
  glGenBuffers(1, &index_buffer_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(uint32_t)), mesh.indices.data(),
               GL_STATIC_DRAW);
  // Model matrices, column-major like GL's mat4: column c at location kModelAttribute + c.
  glGenBuffers(1, &instance_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(models.size() * sizeof(Eigen::Matrix4f)),
               models.empty() ? nullptr : models.data(), GL_STATIC_DRAW);
  for (GLuint column = 0; column < 4; ++column) {
    glEnableVertexAttribArray(kModelAttribute + column);
    glVertexAttribPointer(kModelAttribute + column, 4, GL_FLOAT, GL_FALSE, sizeof(Eigen::Matrix4f),
                          reinterpret_cast<const void*>(column * 4 * sizeof(float)));
    glVertexAttribDivisor(kModelAttribute + column, 1);
  }
  glBindVertexArray(0);
}

InstancedMesh::~InstancedMesh() {
  glDeleteBuffers(1, &instance_buffer_);
  glDeleteBuffers(1, &index_buffer_);
  glDeleteBuffers(1, &vertex_buffer_);
  glDeleteVertexArrays(1, &vertex_array_);
}

void InstancedMesh::Draw(GLsizei instances) const {
  if (instances <= 0 || index_count_ == 0) return;
  glBindVertexArray(vertex_array_);
  glDrawElementsInstanced(GL_TRIANGLES, index_count_, GL_UNSIGNED_INT, nullptr, instances);
}

Eigen::Matrix4f InstanceModel(const scene::ActorInstance& instance) {
  Eigen::Affine3d model = Eigen::Translation3d(instance.position) * instance.orientation *
                          Eigen::Scaling(instance.scale);
  return model.matrix().cast<float>();
}

Eigen::Matrix4f VehicleStartModel(const scene::World& world) {
  const Eigen::Vector3d up = world.landscape->NormalAt(world.start.x(), world.start.y());
  const double yaw = world.start_yaw * std::numbers::pi / 180.0;
  const Eigen::Vector3d heading(std::cos(yaw), std::sin(yaw), 0.0);
  const Eigen::Vector3d forward = (heading - heading.dot(up) * up).normalized();
  Eigen::Matrix4d model = Eigen::Matrix4d::Identity();
  model.block<3, 1>(0, 0) = forward;
  model.block<3, 1>(0, 1) = up.cross(forward);
  model.block<3, 1>(0, 2) = up;
  model.block<3, 1>(0, 3) = world.start;
  return model.cast<float>();
}

SceneBuffers::SceneBuffers(const scene::World& world, const protocol::VehicleParams* vehicle) {
  const terrain::Landscape& landscape = *world.landscape;
  lowest_ground_ = landscape.min_height();
  highest_ground_ = landscape.max_height();
  bounds_.extend(Eigen::Vector3d(landscape.min_xy(), landscape.min_xy(), lowest_ground_));
  bounds_.extend(Eigen::Vector3d(landscape.max_xy(), landscape.max_xy(), highest_ground_));

  const Mesh ground = SimplifiedTerrainMesh(landscape);
  DrawItem terrain_item;
  terrain_item.mesh = std::make_unique<InstancedMesh>(
      ground, std::vector<Eigen::Matrix4f>{Eigen::Matrix4f::Identity()});
  terrain_item.terrain = true;
  terrain_item.all_instances = terrain_item.shadow_instances = 1;
  items_.push_back(std::move(terrain_item));

  // Instances grouped by kind and traversability in first-seen order, shadow casters first
  // within each group.
  using Group = std::pair<const scene::ActorKind*, bool>;
  std::vector<Group> groups;
  std::map<Group, std::pair<std::vector<Eigen::Matrix4f>, std::vector<Eigen::Matrix4f>>> models;
  for (const scene::ActorInstance& instance : world.actors) {
    const Group group{instance.kind, instance.traversable};
    if (!models.count(group)) groups.push_back(group);
    auto& [casters, others] = models[group];
    (instance.cast_shadow ? casters : others).push_back(InstanceModel(instance));
    const double radius = 1.5 * instance.Height() + 1.0;
    bounds_.extend(instance.position + Eigen::Vector3d(radius, radius, 1.5 * instance.Height()));
    bounds_.extend(instance.position - Eigen::Vector3d(radius, radius, 0.5));
  }
  for (const Group& group : groups) {
    auto& [casters, others] = models[group];
    const GLsizei shadow_instances = static_cast<GLsizei>(casters.size());
    casters.insert(casters.end(), others.begin(), others.end());
    for (const MeshPart& part : ColouredActorParts(*group.first)) {
      DrawItem item;
      item.mesh = std::make_unique<InstancedMesh>(part.mesh, casters);
      item.color = part.color;
      item.label = group.second ? kLabelTraversable : kLabelNonTraversable;
      item.all_instances = static_cast<GLsizei>(casters.size());
      item.shadow_instances = shadow_instances;
      items_.push_back(std::move(item));
    }
  }

  if (vehicle != nullptr) {
    const Eigen::Matrix4f vehicle_model = VehicleStartModel(world);
    for (const MeshPart& part : VehicleParts(*vehicle)) {
      DrawItem item;
      item.mesh =
          std::make_unique<InstancedMesh>(part.mesh, std::vector<Eigen::Matrix4f>{vehicle_model});
      item.color = part.color;
      item.vehicle = true;
      item.label = kLabelNonTraversable;
      item.all_instances = item.shadow_instances = 1;
      items_.push_back(std::move(item));
    }
  }
  bounds_.extend(world.start + Eigen::Vector3d(3.0, 3.0, 2.0));
  bounds_.extend(world.start - Eigen::Vector3d(3.0, 3.0, 0.5));
}

}  // namespace asg::capture
