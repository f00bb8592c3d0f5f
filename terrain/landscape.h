// The landscape: AutoSceneGen's square vertex grid with a border, plus relief.
//
// Grid: spacing l = nominal_size / 2^subdivisions; nb = ceil(border / l) border vertices on each
// side; n = 2^subdivisions + 1 + 2 nb vertices per side; vertex (i, j) is at
// x = (i - nb) l, y = (j - nb) l, so the grid covers [-nb l, nominal_size + nb l] in x and y.
// Each cell (i, j)-(i+1, j+1) is two triangles split along the diagonal from (i, j) to
// (i+1, j+1). Heights are the sum of the relief features evaluated at each vertex; between
// vertices the ground is the plane of the triangle under the point.
//
// The relief features' formulas are in terrain/relief.h. A ramp is a wedge: 0 at and before its
// foot, rising linearly to its height at the top edge, and 0 again past the top edge (a cliff).
// nb is computed with a relative tolerance of 1e-9, so a border that is a whole number of
// spacings (up to floating-point rounding) gets exactly that many border vertices.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "protocol/messages.h"

namespace asg::terrain {

/// Sum of the relief features' heights at (x, y) [m]; 0 for an empty list.
double EvaluateRelief(const std::vector<protocol::ReliefFeature>& relief, double x, double y);

/// Triangle mesh of a landscape, for physics and rendering.
struct LandscapeMesh {
  std::vector<Eigen::Vector3f> positions;  ///< [m] world positions, vertex (i, j) at j * n + i
  std::vector<Eigen::Vector3f> normals;    ///< unit vertex normals (area-weighted)
  std::vector<uint32_t> indices;           ///< three per triangle, counter-clockwise from above
};

/// The grid of a landscape without its heights: what Landscape builds, known before building.
struct LandscapeGrid {
  double spacing = 1.0;                                         ///< [m] vertex spacing l
  int border_vertices = 0;                                      ///< nb
  int vertices_per_side = 2;                                    ///< n
  double min_xy() const { return -border_vertices * spacing; }  ///< [m]
  double max_xy() const { return min_xy() + (vertices_per_side - 1) * spacing; }  ///< [m]
};

/// The grid of `description`; throws std::invalid_argument as Landscape's constructor does.
LandscapeGrid PlanLandscapeGrid(const protocol::LandscapeDescription& description);

/// An immutable landscape grid. Thread-safe for concurrent reads once built.
class Landscape {
 public:
  /// Largest number of vertices per side (border included): bounds memory to 64 MiB of heights.
  static constexpr int kMaxVerticesPerSide = 4097;

  /// Builds the grid and evaluates the relief. Throws std::invalid_argument naming the field and
  /// value when the description is out of range (nominal_size <= 0, subdivisions outside 0..10,
  /// border < 0, a relief feature with a non-positive radius, width or wavelength; see
  /// ValidateReliefFeature in terrain/relief.h), or when the border would make the grid wider
  /// than kMaxVerticesPerSide vertices.
  explicit Landscape(const protocol::LandscapeDescription& description);

  const protocol::LandscapeDescription& description() const { return description_; }
  double spacing() const { return spacing_; }                       ///< [m] vertex spacing l
  int border_vertices() const { return border_vertices_; }          ///< nb
  int vertices_per_side() const { return n_; }                      ///< n
  double min_xy() const { return -border_vertices_ * spacing_; }    ///< [m]
  double max_xy() const { return min_xy() + (n_ - 1) * spacing_; }  ///< [m]
  double min_height() const { return min_height_; }                 ///< [m] lowest vertex
  double max_height() const { return max_height_; }                 ///< [m] highest vertex

  /// [m] height of vertex (i, j), 0 <= i, j < n.
  double VertexHeight(int i, int j) const { return heights_[static_cast<size_t>(j) * n_ + i]; }
  /// Heights of all vertices, row-major: vertex (i, j) at j * n + i.
  const std::vector<float>& heights() const { return heights_; }

  /// True when (x, y) [m] lies on the grid (border included).
  bool Contains(double x, double y) const;
  /// [m] ground height on the triangle under (x, y); points off the grid are clamped to it.
  /// Throws std::invalid_argument for a non-finite x or y (also NormalAt and SlopeAt).
  double HeightAt(double x, double y) const;
  /// Unit upward normal of the triangle under (x, y) (clamped like HeightAt).
  Eigen::Vector3d NormalAt(double x, double y) const;
  /// [deg] slope of the triangle under (x, y): angle between its normal and +z.
  double SlopeAt(double x, double y) const;

  /// The triangle mesh (two triangles per cell, see the file comment).
  LandscapeMesh BuildMesh() const;

 private:
  /// The cell under a clamped point and the point's position inside it, in [0, 1] spacings.
  struct CellPoint {
    int i = 0;
    int j = 0;
    double u = 0.0;  ///< along x from vertex (i, j)
    double v = 0.0;  ///< along y from vertex (i, j)
  };
  /// Finds the cell under (x, y) [m], clamped to the grid.
  CellPoint Locate(double x, double y) const;
  /// Slopes (dz/dx, dz/dy) of the triangle under (x, y).
  Eigen::Vector2d Gradient(double x, double y) const;

  protocol::LandscapeDescription description_;
  double spacing_ = 1.0;
  int border_vertices_ = 0;
  int n_ = 2;
  double min_height_ = 0.0;
  double max_height_ = 0.0;
  std::vector<float> heights_;
};

}  // namespace asg::terrain
