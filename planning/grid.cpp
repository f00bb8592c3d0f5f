// Cell geometry of the planning grid and flood fill of a cell mask.
#include "planning/grid.h"

#include <algorithm>
#include <cmath>

namespace asg::planning {

Grid Grid::Covering(double min, double max, double resolution) {
  Grid grid;
  grid.min = min;
  grid.resolution = resolution;
  grid.size = std::max(1, static_cast<int>(std::ceil((max - min) / resolution - 1e-9)));
  return grid;
}

int Grid::Coordinate(double v) const {
  const int c = static_cast<int>(std::floor((v - min) / resolution));
  return std::clamp(c, 0, size - 1);
}

bool Grid::Contains(double x, double y) const {
  const double max = min + size * resolution;
  return x >= min && x < max && y >= min && y < max;
}

Eigen::Vector2d Grid::Center(int index) const {
  const int ix = index % size;
  const int iy = index / size;
  return {min + (ix + 0.5) * resolution, min + (iy + 0.5) * resolution};
}

std::vector<uint8_t> ConnectedArea(const Grid& grid, const std::vector<uint8_t>& mask, int seed) {
  std::vector<uint8_t> area(mask.size(), 0);
  if (!mask[seed]) return area;
  // Depth-first flood fill over the eight neighbours of each cell reached.
  std::vector<int> stack{seed};
  area[seed] = 1;
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    const int x = cell % grid.size, y = cell / grid.size;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int nx = x + dx, ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= grid.size || ny >= grid.size) continue;
        const int next = grid.Index(nx, ny);
        if (mask[next] && !area[next]) {
          area[next] = 1;
          stack.push_back(next);
        }
      }
    }
  }
  return area;
}

}  // namespace asg::planning
