// The square grid the path searches run on: cell geometry (row-major cells covering a square of
// the world's x-y plane) and the connected areas of a cell mask.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace asg::planning {

/// Geometry of a square grid of cells covering [min, min + size * resolution]^2 in world x, y.
/// Cells are indexed row-major: index = iy * size + ix. A plain value, thread-safe to share.
struct Grid {
  double min = 0.0;         ///< [m] lowest x and y covered
  double resolution = 1.0;  ///< [m] side of one cell
  int size = 60;            ///< cells per side

  /// A grid covering [min, max]^2 with cells of `resolution` (the last cell may overhang max;
  /// a span within 1e-9 cells of a whole number of cells takes that number).
  static Grid Covering(double min, double max, double resolution);
  /// Number of cells.
  int CellCount() const { return size * size; }
  /// The column (x) or row (y) holding coordinate v [m], clamped into the grid.
  int Coordinate(double v) const;
  /// The cell holding world point (x, y) [m], clamped into the grid.
  int CellAt(double x, double y) const { return Index(Coordinate(x), Coordinate(y)); }
  /// The cell holding world point p [m], clamped into the grid.
  int CellAt(const Eigen::Vector2d& p) const { return CellAt(p.x(), p.y()); }
  /// Whether world point (x, y) [m] lies inside the grid.
  bool Contains(double x, double y) const;
  /// Row-major index of column ix and row iy.
  int Index(int ix, int iy) const { return iy * size + ix; }
  /// [m] world x, y of the centre of a cell.
  Eigen::Vector2d Center(int index) const;
};

/// The cells of `mask` (one entry per cell of `grid`, non-zero = set) connected to `seed`
/// through set cells, 8-connected, as a mask of the same size; all zero when `seed` is not set.
std::vector<uint8_t> ConnectedArea(const Grid& grid, const std::vector<uint8_t>& mask, int seed);

}  // namespace asg::planning
