#include "terrain/landscape.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/check.h"
#include "core/number_format.h"
#include "terrain/relief.h"

namespace asg::terrain {
namespace {

using core::FormatNumber;

constexpr int kMaxSubdivisions = 10;
// Relative tolerance when turning border / spacing into a whole number of border vertices.
constexpr double kBorderTolerance = 1e-9;

void ValidateDescription(const protocol::LandscapeDescription& description) {
  if (!(description.nominal_size > 0.0) || !std::isfinite(description.nominal_size)) {
    throw std::invalid_argument(
        "landscape.nominal_size: " + FormatNumber(description.nominal_size) + " must be > 0");
  }
  if (description.subdivisions < 0 || description.subdivisions > kMaxSubdivisions) {
    throw std::invalid_argument(
        "landscape.subdivisions: " + std::to_string(description.subdivisions) + " is outside 0.." +
        std::to_string(kMaxSubdivisions));
  }
  if (!(description.border >= 0.0) || !std::isfinite(description.border)) {
    throw std::invalid_argument("landscape.border: " + FormatNumber(description.border) +
                                " must be >= 0");
  }
  for (size_t k = 0; k < description.relief.size(); ++k) {
    ValidateReliefFeature(description.relief[k], "landscape.relief[" + std::to_string(k) + "]");
  }
}

}  // namespace

LandscapeGrid PlanLandscapeGrid(const protocol::LandscapeDescription& description) {
  ValidateDescription(description);
  const int cells = 1 << description.subdivisions;
  LandscapeGrid grid;
  grid.spacing = description.nominal_size / cells;

  // nb = ceil(border / l), minus a relative tolerance so that rounding in the division does not
  // add a vertex when the border is a whole number of spacings.
  const double ratio = description.border / grid.spacing;
  const double max_border_vertices = (Landscape::kMaxVerticesPerSide - 1 - cells) / 2;
  const double border_vertices = std::ceil(ratio - kBorderTolerance * std::max(1.0, ratio));
  if (border_vertices > max_border_vertices) {
    throw std::invalid_argument(
        "landscape.border: " + FormatNumber(description.border) + " needs " +
        FormatNumber(border_vertices) + " border vertices per side at spacing " +
        FormatNumber(grid.spacing) + " m, more than " + FormatNumber(max_border_vertices) +
        " (at most " + std::to_string(Landscape::kMaxVerticesPerSide) + " vertices per side)");
  }
  grid.border_vertices = static_cast<int>(std::max(0.0, border_vertices));
  grid.vertices_per_side = cells + 1 + 2 * grid.border_vertices;
  ASG_CHECK(grid.vertices_per_side >= 2 &&
            grid.vertices_per_side <= Landscape::kMaxVerticesPerSide);
  return grid;
}

Landscape::Landscape(const protocol::LandscapeDescription& description)
    : description_(description) {
  const LandscapeGrid grid = PlanLandscapeGrid(description_);
  spacing_ = grid.spacing;
  border_vertices_ = grid.border_vertices;
  n_ = grid.vertices_per_side;

  // Heights: the sum of the features at every vertex, evaluated once.
  heights_.assign(static_cast<size_t>(n_) * n_, 0.0f);
  const double origin = min_xy();
  for (int j = 0; j < n_; ++j) {
    const double y = origin + j * spacing_;
    float* row = heights_.data() + static_cast<size_t>(j) * n_;
    for (int i = 0; i < n_; ++i) {
      row[i] = static_cast<float>(EvaluateRelief(description_.relief, origin + i * spacing_, y));
    }
  }
  const auto [lowest, highest] = std::minmax_element(heights_.begin(), heights_.end());
  min_height_ = *lowest;
  max_height_ = *highest;
}

bool Landscape::Contains(double x, double y) const {
  return x >= min_xy() && x <= max_xy() && y >= min_xy() && y <= max_xy();
}

Landscape::CellPoint Landscape::Locate(double x, double y) const {
  if (!std::isfinite(x) || !std::isfinite(y)) {
    throw std::invalid_argument("landscape query point (" + FormatNumber(x) + ", " +
                                FormatNumber(y) + ") is not finite");
  }
  // Grid coordinates of the clamped point, in spacings from vertex (0, 0).
  const double last = n_ - 1;
  const double gx = std::clamp((x - min_xy()) / spacing_, 0.0, last);
  const double gy = std::clamp((y - min_xy()) / spacing_, 0.0, last);
  CellPoint cell;
  cell.i = std::min(static_cast<int>(gx), n_ - 2);
  cell.j = std::min(static_cast<int>(gy), n_ - 2);
  cell.u = gx - cell.i;
  cell.v = gy - cell.j;
  return cell;
}

double Landscape::HeightAt(double x, double y) const {
  const CellPoint c = Locate(x, y);
  const double h00 = VertexHeight(c.i, c.j);
  const double h11 = VertexHeight(c.i + 1, c.j + 1);
  if (c.u >= c.v) {
    // Lower triangle (i, j), (i+1, j), (i+1, j+1).
    const double h10 = VertexHeight(c.i + 1, c.j);
    return h00 + c.u * (h10 - h00) + c.v * (h11 - h10);
  }
  // Upper triangle (i, j), (i+1, j+1), (i, j+1).
  const double h01 = VertexHeight(c.i, c.j + 1);
  return h00 + c.v * (h01 - h00) + c.u * (h11 - h01);
}

Eigen::Vector2d Landscape::Gradient(double x, double y) const {
  const CellPoint c = Locate(x, y);
  const double h00 = VertexHeight(c.i, c.j);
  const double h11 = VertexHeight(c.i + 1, c.j + 1);
  if (c.u >= c.v) {
    const double h10 = VertexHeight(c.i + 1, c.j);
    return Eigen::Vector2d(h10 - h00, h11 - h10) / spacing_;
  }
  const double h01 = VertexHeight(c.i, c.j + 1);
  return Eigen::Vector2d(h11 - h01, h01 - h00) / spacing_;
}

Eigen::Vector3d Landscape::NormalAt(double x, double y) const {
  const Eigen::Vector2d g = Gradient(x, y);
  return Eigen::Vector3d(-g.x(), -g.y(), 1.0).normalized();
}

double Landscape::SlopeAt(double x, double y) const {
  // The angle between (-gx, -gy, 1) and +z is atan(|gradient|).
  return std::atan(Gradient(x, y).norm()) * 180.0 / std::numbers::pi;
}

LandscapeMesh Landscape::BuildMesh() const {
  const auto n = static_cast<size_t>(n_);
  LandscapeMesh mesh;
  mesh.positions.resize(n * n);
  const double origin = min_xy();
  for (size_t j = 0; j < n; ++j) {
    for (size_t i = 0; i < n; ++i) {
      mesh.positions[j * n + i] = Eigen::Vector3f(
          static_cast<float>(origin + static_cast<double>(i) * spacing_),
          static_cast<float>(origin + static_cast<double>(j) * spacing_), heights_[j * n + i]);
    }
  }

  // Two counter-clockwise triangles per cell, split along (i, j)-(i+1, j+1). Each face's cross
  // product (length = twice its area) is added to its three vertices: area-weighted normals.
  mesh.indices.resize((n - 1) * (n - 1) * 6);
  std::vector<Eigen::Vector3d> sums(n * n, Eigen::Vector3d::Zero());
  size_t next = 0;
  auto add_triangle = [&](uint32_t a, uint32_t b, uint32_t c) {
    mesh.indices[next++] = a;
    mesh.indices[next++] = b;
    mesh.indices[next++] = c;
    const Eigen::Vector3d pa = mesh.positions[a].cast<double>();
    const Eigen::Vector3d face =
        (mesh.positions[b].cast<double>() - pa).cross(mesh.positions[c].cast<double>() - pa);
    sums[a] += face;
    sums[b] += face;
    sums[c] += face;
  };
  for (size_t j = 0; j + 1 < n; ++j) {
    for (size_t i = 0; i + 1 < n; ++i) {
      const auto v00 = static_cast<uint32_t>(j * n + i);
      const auto v10 = v00 + 1;
      const auto v01 = static_cast<uint32_t>(v00 + n);
      const auto v11 = v01 + 1;
      add_triangle(v00, v10, v11);
      add_triangle(v00, v11, v01);
    }
  }
  ASG_CHECK(next == mesh.indices.size());
  mesh.normals.resize(n * n);
  for (size_t k = 0; k < n * n; ++k) {
    ASG_CHECK(sums[k].z() > 0.0);
    mesh.normals[k] = sums[k].normalized().cast<float>();
  }
  return mesh;
}

}  // namespace asg::terrain
