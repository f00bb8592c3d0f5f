// Tests for capture/terrain_mesh.h.
#include "capture/terrain_mesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

namespace asg::capture {
namespace {

terrain::Landscape MakeLandscape(bool with_relief) {
  protocol::LandscapeDescription description;
  description.nominal_size = 60.0;
  description.subdivisions = 6;
  description.border = 10.0;
  if (with_relief) {
    protocol::ReliefFeature hill;
    hill.x = 32.0;
    hill.y = 24.0;
    hill.radius = 18.0;
    hill.height = 6.0;
    protocol::ReliefFeature ramp;
    ramp.type = protocol::ReliefFeature::Type::kRamp;
    ramp.x0 = 5.0;
    ramp.y0 = 45.0;
    ramp.x1 = 15.0;
    ramp.y1 = 45.0;
    ramp.width = 6.0;
    ramp.height = 1.5;
    description.relief = {hill, ramp};
  }
  return terrain::Landscape(description);
}

// Height of the mesh above (x, y) from the triangle that contains the point; NaN when none does.
double MeshHeightAt(const Mesh& mesh, double x, double y) {
  for (size_t t = 0; t < mesh.indices.size(); t += 3) {
    const Eigen::Vector3d a = mesh.positions[mesh.indices[t]].cast<double>();
    const Eigen::Vector3d b = mesh.positions[mesh.indices[t + 1]].cast<double>();
    const Eigen::Vector3d c = mesh.positions[mesh.indices[t + 2]].cast<double>();
    const double area = (b.x() - a.x()) * (c.y() - a.y()) - (c.x() - a.x()) * (b.y() - a.y());
    const double wa = ((b.x() - x) * (c.y() - y) - (c.x() - x) * (b.y() - y)) / area;
    const double wb = ((c.x() - x) * (a.y() - y) - (a.x() - x) * (c.y() - y)) / area;
    const double wc = 1.0 - wa - wb;
    if (wa >= -1e-6 && wb >= -1e-6 && wc >= -1e-6) return wa * a.z() + wb * b.z() + wc * c.z();
  }
  return std::nan("");
}

TEST(SimplifiedTerrainMesh, FlatGroundBecomesAFewLargeTriangles) {
  const terrain::Landscape landscape = MakeLandscape(false);
  const Mesh mesh = SimplifiedTerrainMesh(landscape);
  const int cells = landscape.vertices_per_side() - 1;  // 86: 64 + 2 x 11 border cells
  ASSERT_EQ(cells, 86);
  // Squares of up to 32 cells (86 = 2 x 32 + 16 + 4 + 2): under a tenth of the grid's 2 x 86 x 86
  // triangles.
  EXPECT_LT(mesh.indices.size() / 3, static_cast<size_t>(2 * cells * cells) / 10);
  for (const Eigen::Vector3f& p : mesh.positions) EXPECT_EQ(p.z(), 0.0f);
  for (const Eigen::Vector3f& n : mesh.normals) EXPECT_NEAR(n.z(), 1.0f, 1e-6f);
}

TEST(SimplifiedTerrainMesh, StaysWithinTwiceTheToleranceOfEveryGridVertex) {
  const terrain::Landscape landscape = MakeLandscape(true);
  const Mesh mesh = SimplifiedTerrainMesh(landscape, 0.01);
  const int n = landscape.vertices_per_side();
  EXPECT_LT(mesh.indices.size() / 3, static_cast<size_t>(2 * (n - 1) * (n - 1)) / 2);
  for (int j = 0; j < n; j += 3) {
    for (int i = 0; i < n; i += 3) {
      const double x = landscape.min_xy() + i * landscape.spacing();
      const double y = landscape.min_xy() + j * landscape.spacing();
      const double z = MeshHeightAt(mesh, x, y);
      ASSERT_FALSE(std::isnan(z)) << "no triangle over vertex " << i << ", " << j;
      EXPECT_NEAR(z, landscape.VertexHeight(i, j), 0.02 + 1e-4) << "vertex " << i << ", " << j;
    }
  }
}

TEST(SimplifiedTerrainMesh, IsWatertightWithoutTJunctions) {
  const terrain::Landscape landscape = MakeLandscape(true);
  const Mesh mesh = SimplifiedTerrainMesh(landscape);
  // Each directed edge must be matched by its reverse unless it lies on the grid's outline.
  std::map<std::pair<uint32_t, uint32_t>, int> directed;
  double area = 0.0;
  for (size_t t = 0; t < mesh.indices.size(); t += 3) {
    for (int k = 0; k < 3; ++k) ++directed[{mesh.indices[t + k], mesh.indices[t + (k + 1) % 3]}];
    const Eigen::Vector3f& a = mesh.positions[mesh.indices[t]];
    const Eigen::Vector3f& b = mesh.positions[mesh.indices[t + 1]];
    const Eigen::Vector3f& c = mesh.positions[mesh.indices[t + 2]];
    const double signed_area =
        0.5 * ((b.x() - a.x()) * (c.y() - a.y()) - (c.x() - a.x()) * (b.y() - a.y()));
    EXPECT_GT(signed_area, 0.0) << "triangle " << t / 3 << " is not counter-clockwise from above";
    area += signed_area;
  }
  const double side = landscape.max_xy() - landscape.min_xy();
  EXPECT_NEAR(area, side * side, 1e-3 * side * side);
  auto on_outline = [&](const Eigen::Vector3f& p, const Eigen::Vector3f& q) {
    const float lo = static_cast<float>(landscape.min_xy());
    const float hi = static_cast<float>(landscape.max_xy());
    auto same = [](float u, float v, float w) {
      return std::abs(u - w) < 1e-3f && std::abs(v - w) < 1e-3f;
    };
    return same(p.x(), q.x(), lo) || same(p.x(), q.x(), hi) || same(p.y(), q.y(), lo) ||
           same(p.y(), q.y(), hi);
  };
  int unmatched_inside = 0;
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1);
    if (directed.count({edge.second, edge.first})) continue;
    if (!on_outline(mesh.positions[edge.first], mesh.positions[edge.second])) ++unmatched_inside;
  }
  EXPECT_EQ(unmatched_inside, 0);
}

}  // namespace
}  // namespace asg::capture
