#include "capture/terrain_mesh.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace asg::capture {
namespace {

// A square of the quadtree: cells [i, i + size) x [j, j + size).
struct Square {
  int i = 0;
  int j = 0;
  int size = 1;
};

class TerrainSimplifier {
 public:
  TerrainSimplifier(const terrain::Landscape& landscape, double tolerance)
      : landscape_(landscape),
        n_(landscape.vertices_per_side()),
        cells_(n_ - 1),
        tolerance_(tolerance),
        leaf_size_(static_cast<size_t>(cells_) * cells_, 0) {}

  Mesh Build() {
    for (int j = 0; j < cells_; j += kMaxTerrainSquare) {
      for (int i = 0; i < cells_; i += kMaxTerrainSquare) Subdivide({i, j, kMaxTerrainSquare});
    }
    Balance();
    return Triangulate();
  }

 private:
  double Height(int i, int j) const { return landscape_.VertexHeight(i, j); }
  int& LeafSizeAt(int i, int j) { return leaf_size_[static_cast<size_t>(j) * cells_ + i]; }

  // True when every grid vertex of the square lies within the tolerance of the plane through
  // the mean of its corners with the corners' mean slopes.
  bool NearlyPlanar(const Square& q) const {
    const int s = q.size;
    const double h00 = Height(q.i, q.j), h10 = Height(q.i + s, q.j);
    const double h01 = Height(q.i, q.j + s), h11 = Height(q.i + s, q.j + s);
    const double a = ((h10 - h00) + (h11 - h01)) / (2.0 * s);
    const double b = ((h01 - h00) + (h11 - h10)) / (2.0 * s);
    const double c = 0.25 * (h00 + h10 + h01 + h11) - 0.5 * s * (a + b);
    for (int v = 0; v <= s; ++v) {
      for (int u = 0; u <= s; ++u) {
        if (std::abs(Height(q.i + u, q.j + v) - (c + a * u + b * v)) > tolerance_) return false;
      }
    }
    return true;
  }

  void AddLeaf(const Square& q) {
    leaves_.push_back(q);
    for (int v = 0; v < q.size; ++v) {
      for (int u = 0; u < q.size; ++u) LeafSizeAt(q.i + u, q.j + v) = q.size;
    }
  }

  // Keeps the square whole when it lies on the grid and is nearly planar; splits it otherwise.
  void Subdivide(const Square& q) {
    if (q.i >= cells_ || q.j >= cells_) return;
    const bool on_grid = q.i + q.size <= cells_ && q.j + q.size <= cells_;
    if (q.size == 1 || (on_grid && NearlyPlanar(q))) {
      AddLeaf(q);
      return;
    }
    const int h = q.size / 2;
    for (const Square& child : {Square{q.i, q.j, h}, Square{q.i + h, q.j, h},
                                Square{q.i, q.j + h, h}, Square{q.i + h, q.j + h, h}}) {
      Subdivide(child);
    }
  }

  // Smallest leaf size among the cells just outside the square's four edges (the square's own
  // size when it has no neighbour).
  int SmallestNeighbour(const Square& q) {
    int smallest = q.size;
    for (int k = 0; k < q.size; ++k) {
      if (q.i > 0) smallest = std::min(smallest, LeafSizeAt(q.i - 1, q.j + k));
      if (q.i + q.size < cells_) smallest = std::min(smallest, LeafSizeAt(q.i + q.size, q.j + k));
      if (q.j > 0) smallest = std::min(smallest, LeafSizeAt(q.i + k, q.j - 1));
      if (q.j + q.size < cells_) smallest = std::min(smallest, LeafSizeAt(q.i + k, q.j + q.size));
    }
    return smallest;
  }

  // Splits leaves until every neighbour is at least half as large (restricted quadtree).
  void Balance() {
    bool changed = true;
    while (changed) {
      changed = false;
      std::vector<Square> current;
      current.swap(leaves_);
      for (const Square& q : current) {
        if (q.size >= 4 && SmallestNeighbour(q) < q.size / 2) {
          const int h = q.size / 2;
          for (const Square& child : {Square{q.i, q.j, h}, Square{q.i + h, q.j, h},
                                      Square{q.i, q.j + h, h}, Square{q.i + h, q.j + h, h}}) {
            AddLeaf(child);
          }
          changed = true;
        } else {
          leaves_.push_back(q);
        }
      }
    }
  }

  uint32_t Vertex(int i, int j) {
    const uint32_t grid_index = static_cast<uint32_t>(j * n_ + i);
    const auto [it, inserted] =
        output_index_.emplace(grid_index, static_cast<uint32_t>(mesh_.positions.size()));
    if (inserted) {
      mesh_.positions.push_back(grid_.positions[grid_index]);
      mesh_.normals.push_back(grid_.normals[grid_index]);
    }
    return it->second;
  }

  void Triangle(int i0, int j0, int i1, int j1, int i2, int j2) {
    mesh_.indices.push_back(Vertex(i0, j0));
    mesh_.indices.push_back(Vertex(i1, j1));
    mesh_.indices.push_back(Vertex(i2, j2));
  }

  // Two triangles along the landscape's diagonal, or a fan around the centre that takes in the
  // midpoint of each edge with a smaller neighbour (balance makes it exactly half as large).
  Mesh Triangulate() {
    grid_ = landscape_.BuildMesh();
    for (const Square& q : leaves_) {
      const int s = q.size, i = q.i, j = q.j;
      const bool split[4] = {s > 1 && j > 0 && LeafSizeAt(i, j - 1) < s,
                             s > 1 && i + s < cells_ && LeafSizeAt(i + s, j) < s,
                             s > 1 && j + s < cells_ && LeafSizeAt(i, j + s) < s,
                             s > 1 && i > 0 && LeafSizeAt(i - 1, j) < s};
      if (!split[0] && !split[1] && !split[2] && !split[3]) {
        Triangle(i, j, i + s, j, i + s, j + s);
        Triangle(i, j, i + s, j + s, i, j + s);
        continue;
      }
      // Corners counter-clockwise from (i, j); edge e runs from corner e to corner e + 1.
      const int ci[5] = {i, i + s, i + s, i, i}, cj[5] = {j, j, j + s, j + s, j};
      const int mi = i + s / 2, mj = j + s / 2;
      for (int e = 0; e < 4; ++e) {
        if (split[e]) {
          const int hi = (ci[e] + ci[e + 1]) / 2, hj = (cj[e] + cj[e + 1]) / 2;
          Triangle(mi, mj, ci[e], cj[e], hi, hj);
          Triangle(mi, mj, hi, hj, ci[e + 1], cj[e + 1]);
        } else {
          Triangle(mi, mj, ci[e], cj[e], ci[e + 1], cj[e + 1]);
        }
      }
    }
    return std::move(mesh_);
  }

  const terrain::Landscape& landscape_;
  const int n_;
  const int cells_;
  const double tolerance_;
  std::vector<int> leaf_size_;  // per cell, the size of the leaf covering it
  std::vector<Square> leaves_;
  terrain::LandscapeMesh grid_;
  std::unordered_map<uint32_t, uint32_t> output_index_;  // grid vertex -> mesh vertex
  Mesh mesh_;
};

}  // namespace

Mesh SimplifiedTerrainMesh(const terrain::Landscape& landscape, double tolerance) {
  return TerrainSimplifier(landscape, tolerance).Build();
}

}  // namespace asg::capture
