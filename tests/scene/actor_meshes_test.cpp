// Tests for scene/actor_meshes.h.
#include "scene/actor_meshes.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::ShippedCatalog;

constexpr double kPi = std::numbers::pi;

// Signed volume enclosed by a mesh (divergence theorem): equals the solid's volume only when the
// mesh is closed and its triangles wind counter-clockwise seen from outside.
double SignedVolume(const TriangleMesh& mesh) {
  double volume = 0.0;
  for (size_t t = 0; t < mesh.TriangleCount(); ++t) {
    const Eigen::Vector3d a = mesh.positions[mesh.indices[3 * t]].cast<double>();
    const Eigen::Vector3d b = mesh.positions[mesh.indices[3 * t + 1]].cast<double>();
    const Eigen::Vector3d c = mesh.positions[mesh.indices[3 * t + 2]].cast<double>();
    volume += a.dot(b.cross(c)) / 6.0;
  }
  return volume;
}

// Checks the invariants every mesh keeps: one unit normal per position, indices in range, and
// each vertex normal on the outer side of its triangle's face (CCW from outside).
void ExpectWellFormed(const TriangleMesh& mesh) {
  ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
  ASSERT_EQ(mesh.indices.size() % 3, 0u);
  ASSERT_GT(mesh.TriangleCount(), 0u);
  for (const Eigen::Vector3f& n : mesh.normals) EXPECT_NEAR(n.norm(), 1.0f, 1e-5f);
  for (uint32_t index : mesh.indices) ASSERT_LT(index, mesh.positions.size());
  int inward = 0;
  for (size_t t = 0; t < mesh.TriangleCount(); ++t) {
    const uint32_t i[3] = {mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2]};
    const Eigen::Vector3f face = (mesh.positions[i[1]] - mesh.positions[i[0]])
                                     .cross(mesh.positions[i[2]] - mesh.positions[i[0]]);
    if (face.norm() < 1e-6f) continue;  // degenerate sliver at a pole
    for (uint32_t k : i) inward += mesh.normals[k].dot(face) <= 0.0f ? 1 : 0;
  }
  EXPECT_EQ(inward, 0);
}

bool SameColor(const Rgb& a, const Rgb& b) { return a == b; }

Eigen::AlignedBox3f Bounds(const TriangleMesh& mesh) {
  Eigen::AlignedBox3f box;
  for (const Eigen::Vector3f& p : mesh.positions) box.extend(p);
  return box;
}

TEST(ActorMeshesTest, CylinderIsAClosedPrismOfTheRightVolume) {
  const int n = 10;
  const TriangleMesh mesh = CylinderMesh(0.5f, 1.0f, 3.0f, n);
  ExpectWellFormed(mesh);
  // n side quads (2 triangles each) and two caps of n - 2 triangles at least.
  EXPECT_GE(mesh.TriangleCount(), static_cast<size_t>(2 * n + 2 * (n - 2)));
  const double polygon_area = 0.5 * n * 0.25 * std::sin(2.0 * kPi / n);
  EXPECT_NEAR(SignedVolume(mesh), polygon_area * 2.0, 1e-5);
  const Eigen::AlignedBox3f box = Bounds(mesh);
  EXPECT_FLOAT_EQ(box.min().z(), 1.0f);
  EXPECT_FLOAT_EQ(box.max().z(), 3.0f);
  EXPECT_NEAR(box.max().x(), 0.5f, 1e-5f);
  for (const Eigen::Vector3f& p : mesh.positions) EXPECT_LE(p.head<2>().norm(), 0.5f + 1e-5f);
}

TEST(ActorMeshesTest, ConeIsClosedWithAThirdOfThePrismVolume) {
  const int n = 20;
  const TriangleMesh mesh = ConeMesh(2.0f, 0.5f, 4.5f, n);
  ExpectWellFormed(mesh);
  const double base_area = 0.5 * n * 4.0 * std::sin(2.0 * kPi / n);
  EXPECT_NEAR(SignedVolume(mesh), base_area * 4.0 / 3.0, 1e-4);
  const Eigen::AlignedBox3f box = Bounds(mesh);
  EXPECT_FLOAT_EQ(box.min().z(), 0.5f);
  EXPECT_FLOAT_EQ(box.max().z(), 4.5f);
  EXPECT_NEAR(box.max().x(), 2.0f, 1e-5f);
}

TEST(ActorMeshesTest, EllipsoidIsClosedAndCloseToTheTrueVolume) {
  const Eigen::Vector3f radii(1.0f, 0.6f, 0.4f), centre(2.0f, -1.0f, 0.4f);
  const TriangleMesh mesh = EllipsoidMesh(radii, centre, kBushSegments);
  ExpectWellFormed(mesh);
  const double exact = 4.0 / 3.0 * kPi * 1.0 * 0.6 * 0.4;
  const double volume = SignedVolume(mesh);
  EXPECT_LT(volume, exact);  // inscribed
  EXPECT_GT(volume, 0.9 * exact);
  const Eigen::AlignedBox3f box = Bounds(mesh);
  EXPECT_NEAR(box.min().z(), 0.0f, 1e-5f);  // rests on the ground
  EXPECT_NEAR(box.max().z(), 0.8f, 1e-5f);
  // Smooth: each vertex normal is the ellipsoid's gradient direction at that vertex.
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    const Eigen::Vector3f q = (mesh.positions[i] - centre).cwiseQuotient(radii.cwiseProduct(radii));
    EXPECT_GT(mesh.normals[i].dot(q.normalized()), 0.999f) << i;
  }
}

TEST(ActorMeshesTest, EveryCatalogKindIsClosedAndAsTallAsItsNominalHeight) {
  for (const ActorKind& kind : ShippedCatalog().kinds()) {
    SCOPED_TRACE(kind.path_name);
    const TriangleMesh mesh = ActorMesh(kind);
    ExpectWellFormed(mesh);
    EXPECT_GT(SignedVolume(mesh), 0.0);
    const Eigen::AlignedBox3f box = Bounds(mesh);
    EXPECT_NEAR(box.min().z(), 0.0f, 1e-4f);  // on the ground
    EXPECT_NEAR(box.max().z(), kind.nominal_height, 0.02 * kind.nominal_height);
  }
}

TEST(ActorMeshesTest, TreePartsAreTrunkThenCanopyInTheirColours) {
  const ActorKind& tree = *ShippedCatalog().Find(testing::kTree);
  const std::vector<ActorPart> parts = ActorParts(tree);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(SameColor(parts[0].color, tree.trunk_color));
  EXPECT_TRUE(SameColor(parts[1].color, tree.color));
  EXPECT_NEAR(Bounds(parts[0].mesh).max().x(), tree.tree.trunk_radius, 1e-5);
  EXPECT_NEAR(Bounds(parts[1].mesh).max().x(), tree.tree.canopy_radius, 1e-5);
  // The trunk reaches into the canopy, so no gap shows between them.
  EXPECT_GE(TreeTrunkTop(tree), tree.tree.canopy_base_height + 0.05 - 1e-9);
  const TriangleMesh whole = ActorMesh(tree);
  EXPECT_EQ(whole.positions.size(),
            parts[0].mesh.positions.size() + parts[1].mesh.positions.size());
  EXPECT_EQ(whole.TriangleCount(), parts[0].mesh.TriangleCount() + parts[1].mesh.TriangleCount());
}

TEST(ActorMeshesTest, AppendShiftsTheIndicesOfTheAppendedMesh) {
  TriangleMesh a = CylinderMesh(1.0f, 0.0f, 1.0f, 6);
  const TriangleMesh b = ConeMesh(1.0f, 0.0f, 1.0f, 6);
  const size_t offset = a.positions.size();
  const size_t first = a.indices.size();
  a.Append(b);
  ASSERT_EQ(a.indices.size(), first + b.indices.size());
  for (size_t i = 0; i < b.indices.size(); ++i)
    EXPECT_EQ(a.indices[first + i], b.indices[i] + offset);
  EXPECT_NEAR(SignedVolume(a), SignedVolume(CylinderMesh(1.0f, 0.0f, 1.0f, 6)) + SignedVolume(b),
              1e-5);
}

TEST(ActorMeshesTest, PlacedMeshIsScaledRotatedAndMovedAsTheInstance) {
  const ActorKind& tree = *ShippedCatalog().Find(testing::kTree);
  ActorInstance actor;
  actor.kind = &tree;
  actor.position = {10.0, 20.0, 1.5};
  actor.scale = 1.5;
  actor.yaw = 90.0;
  actor.orientation = Eigen::AngleAxisd(kPi / 2, Eigen::Vector3d::UnitZ());
  const TriangleMesh local = ActorMesh(tree);
  const TriangleMesh placed = PlacedActorMesh(actor);
  ASSERT_EQ(placed.positions.size(), local.positions.size());
  ExpectWellFormed(placed);
  const Eigen::AlignedBox3f box = Bounds(placed);
  EXPECT_NEAR(box.min().z(), 1.5f, 1e-4f);
  EXPECT_NEAR(box.max().z() - box.min().z(), actor.Height(), 0.02 * actor.Height());
  EXPECT_NEAR(SignedVolume(placed), std::pow(1.5, 3) * SignedVolume(local),
              1e-3 * SignedVolume(placed));
  // A quarter turn maps local +x onto world +y.
  const Eigen::Vector3f p = local.positions[0];
  const Eigen::Vector3f expected(10.0f - 1.5f * p.y(), 20.0f + 1.5f * p.x(), 1.5f + 1.5f * p.z());
  EXPECT_LT((placed.positions[0] - expected).norm(), 1e-4f);
  EXPECT_LT((placed.normals[0] -
             Eigen::Vector3f(-local.normals[0].y(), local.normals[0].x(), local.normals[0].z()))
                .norm(),
            1e-5f);
}

TEST(ActorMeshesTest, FootprintRadiusScalesWithTheInstance) {
  const ActorKind& tree = *ShippedCatalog().Find(testing::kTree);
  const ActorKind& bush = *ShippedCatalog().Find(testing::kBush);
  ActorInstance actor;
  actor.kind = &tree;
  actor.scale = 2.0;
  EXPECT_DOUBLE_EQ(FootprintRadius(actor), 2.0 * tree.tree.trunk_radius);
  actor.kind = &bush;
  EXPECT_DOUBLE_EQ(FootprintRadius(actor), 2.0 * std::max(bush.bush.radii[0], bush.bush.radii[1]));
}

}  // namespace
}  // namespace asg::scene
