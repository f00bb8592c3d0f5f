#include "scene/embree_scene.h"

#include <embree3/rtcore.h>

#include <algorithm>
#include <limits>
#include <string>

#include "core/check.h"
#include "scene/actor_meshes.h"
#include "scene/collision_meshes.h"

namespace asg::scene {

struct EmbreeScene::Handles {
  RTCDevice device = nullptr;
  RTCScene scene = nullptr;
  unsigned terrain_geometry = RTC_INVALID_GEOMETRY_ID;
  unsigned actor_geometry = RTC_INVALID_GEOMETRY_ID;
};

namespace {

// Adds a triangle geometry with `vertex_count` vertices and `triangle_count` triangles whose
// buffers `fill(vertices, triangles)` writes; returns its geometry id.
template <class Fill>
unsigned AddTriangles(RTCDevice device, RTCScene scene, size_t vertex_count, size_t triangle_count,
                      const Fill& fill) {
  RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
  auto* vertices = static_cast<float*>(rtcSetNewGeometryBuffer(
      geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), vertex_count));
  auto* triangles = static_cast<uint32_t*>(rtcSetNewGeometryBuffer(
      geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(uint32_t), triangle_count));
  if (vertices == nullptr || triangles == nullptr) {
    rtcReleaseGeometry(geometry);
    throw SceneError("Embree could not allocate a geometry of " + std::to_string(triangle_count) +
                     " triangles");
  }
  fill(vertices, triangles);
  rtcCommitGeometry(geometry);
  const unsigned id = rtcAttachGeometry(scene, geometry);
  rtcReleaseGeometry(geometry);
  return id;
}

// Terrain: vertex (i, j) at j * n + i; cell (i, j) split along (i, j)-(i+1, j+1) as in
// terrain/landscape.h.
unsigned AddTerrain(RTCDevice device, RTCScene scene, const terrain::Landscape& landscape,
                    size_t* triangle_count) {
  const int n = landscape.vertices_per_side();
  const size_t cells = static_cast<size_t>(n - 1) * (n - 1);
  *triangle_count = 2 * cells;
  return AddTriangles(
      device, scene, static_cast<size_t>(n) * n, 2 * cells, [&](float* v, uint32_t* t) {
        const std::vector<float>& heights = landscape.heights();
        for (int j = 0; j < n; ++j) {
          for (int i = 0; i < n; ++i) {
            const size_t k = static_cast<size_t>(j) * n + i;
            v[3 * k] = static_cast<float>(landscape.min_xy() + i * landscape.spacing());
            v[3 * k + 1] = static_cast<float>(landscape.min_xy() + j * landscape.spacing());
            v[3 * k + 2] = heights[k];
          }
        }
        for (int j = 0; j + 1 < n; ++j) {
          for (int i = 0; i + 1 < n; ++i) {
            const uint32_t a = j * n + i, b = a + 1, c = a + n + 1, d = a + n;
            const uint32_t tri[6] = {a, b, c, a, c, d};
            std::copy(tri, tri + 6, t);
            t += 6;
          }
        }
      });
}

}  // namespace

EmbreeScene::EmbreeScene(const World& world, ActorShapes shapes)
    : handles_(std::make_unique<Handles>()) {
  // One build thread: farm parallelism comes from running many workers.
  handles_->device = rtcNewDevice("threads=1");
  if (handles_->device == nullptr) throw SceneError("Embree could not create a device");
  handles_->scene = rtcNewScene(handles_->device);
  rtcSetSceneFlags(handles_->scene, RTC_SCENE_FLAG_ROBUST);
  rtcSetSceneBuildQuality(handles_->scene, RTC_BUILD_QUALITY_HIGH);

  if (world.landscape) {
    handles_->terrain_geometry =
        AddTerrain(handles_->device, handles_->scene, *world.landscape, &terrain_triangles_);
  }

  TriangleMesh actors;
  for (size_t a = 0; a < world.actors.size(); ++a) {
    const bool visual = shapes == ActorShapes::kVisual;
    if (!visual && world.actors[a].traversable) continue;
    const TriangleMesh placed =
        visual ? PlacedActorMesh(world.actors[a]) : PlacedCollisionMesh(world.actors[a]);
    triangle_actor_.insert(triangle_actor_.end(), placed.TriangleCount(), static_cast<int>(a));
    actors.Append(placed);
  }
  if (!triangle_actor_.empty()) {
    handles_->actor_geometry = AddTriangles(
        handles_->device, handles_->scene, actors.positions.size(), actors.TriangleCount(),
        [&](float* v, uint32_t* t) {
          for (size_t k = 0; k < actors.positions.size(); ++k) {
            std::copy(actors.positions[k].data(), actors.positions[k].data() + 3, v + 3 * k);
          }
          std::copy(actors.indices.begin(), actors.indices.end(), t);
        });
  }
  rtcCommitScene(handles_->scene);
  if (rtcGetDeviceError(handles_->device) != RTC_ERROR_NONE) {
    throw SceneError("Embree failed to build the scene");
  }
}

EmbreeScene::~EmbreeScene() {
  if (handles_->scene != nullptr) rtcReleaseScene(handles_->scene);
  if (handles_->device != nullptr) rtcReleaseDevice(handles_->device);
}

int EmbreeScene::ActorOf(unsigned geometry, unsigned primitive) const {
  if (geometry == RTC_INVALID_GEOMETRY_ID) return SceneHit::kNothing;
  if (geometry == handles_->terrain_geometry) return SceneHit::kTerrain;
  ASG_CHECK(geometry == handles_->actor_geometry && primitive < triangle_actor_.size());
  return triangle_actor_[primitive];
}

SceneHit EmbreeScene::Cast(const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                           double max_distance) const {
  const SceneRay ray{origin.cast<float>(), direction.cast<float>(),
                     static_cast<float>(max_distance)};
  SceneHit hit;
  CastEach(std::span<const SceneRay>(&ray, 1), std::span<SceneHit>(&hit, 1));
  if (!hit.Hit()) hit.distance = max_distance;
  return hit;
}

void EmbreeScene::CastEach(std::span<const SceneRay> rays, std::span<SceneHit> hits) const {
  ASG_CHECK(rays.size() == hits.size());
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  for (size_t k = 0; k < rays.size(); ++k) {
    RTCRayHit rh{};
    rh.ray.org_x = rays[k].origin.x();
    rh.ray.org_y = rays[k].origin.y();
    rh.ray.org_z = rays[k].origin.z();
    rh.ray.dir_x = rays[k].direction.x();
    rh.ray.dir_y = rays[k].direction.y();
    rh.ray.dir_z = rays[k].direction.z();
    rh.ray.tnear = 0.0f;
    rh.ray.tfar = rays[k].max_distance;
    rh.ray.mask = std::numeric_limits<unsigned>::max();
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(handles_->scene, &context, &rh);
    hits[k].actor = ActorOf(rh.hit.geomID, rh.hit.primID);
    hits[k].distance = hits[k].Hit() ? rh.ray.tfar : rays[k].max_distance;
  }
}

void EmbreeScene::CastBatch(std::span<const SceneRay> rays, std::span<SceneHit> hits) const {
  ASG_CHECK(rays.size() == hits.size());
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  context.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
  alignas(64) RTCRayHit16 packet;
  alignas(64) int valid[16];
  for (size_t first = 0; first < rays.size(); first += 16) {
    const size_t count = std::min<size_t>(16, rays.size() - first);
    for (size_t k = 0; k < 16; ++k) {
      const SceneRay& ray = rays[first + std::min(k, count - 1)];
      valid[k] = k < count ? -1 : 0;
      packet.ray.org_x[k] = ray.origin.x();
      packet.ray.org_y[k] = ray.origin.y();
      packet.ray.org_z[k] = ray.origin.z();
      packet.ray.dir_x[k] = ray.direction.x();
      packet.ray.dir_y[k] = ray.direction.y();
      packet.ray.dir_z[k] = ray.direction.z();
      packet.ray.tnear[k] = 0.0f;
      packet.ray.tfar[k] = ray.max_distance;
      packet.ray.time[k] = 0.0f;
      packet.ray.mask[k] = std::numeric_limits<unsigned>::max();
      packet.ray.id[k] = static_cast<unsigned>(k);
      packet.ray.flags[k] = 0;
      packet.hit.geomID[k] = RTC_INVALID_GEOMETRY_ID;
      packet.hit.instID[0][k] = RTC_INVALID_GEOMETRY_ID;
    }
    rtcIntersect16(valid, handles_->scene, &context, &packet);
    for (size_t k = 0; k < count; ++k) {
      SceneHit& hit = hits[first + k];
      hit.actor = ActorOf(packet.hit.geomID[k], packet.hit.primID[k]);
      hit.distance = hit.Hit() ? packet.ray.tfar[k] : rays[first + k].max_distance;
    }
  }
}

}  // namespace asg::scene
