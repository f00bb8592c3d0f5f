#include "scene/sensor_occupancy.h"

#include <algorithm>
#include <cmath>

#include "scene/actor_meshes.h"

namespace asg::scene {

OccupancyGridSensor::OccupancyGridSensor(const protocol::OccupancyGridSpec& spec,
                                         const World& world)
    : spec_(spec), world_(world) {
  for (size_t a = 0; a < world.actors.size(); ++a) {
    if (!world.actors[a].traversable) obstacles_.push_back(a);
  }
}

SensorReading OccupancyGridSensor::Sample(const SensorInput& input) const {
  const int width = static_cast<int>(spec_.width);
  const int height = static_cast<int>(spec_.height);
  const double r = spec_.resolution;
  const Eigen::Vector3d centre = input.pose.translation();
  const Eigen::Matrix3d rotation = input.pose.rotation();
  const double yaw = std::atan2(rotation(1, 0), rotation(0, 0));
  const double c = std::cos(yaw), s = std::sin(yaw);
  // Grid-frame coordinates of the corner of cell (0, 0).
  const double x0 = -0.5 * width * r, y0 = -0.5 * height * r;

  std::string cells(static_cast<size_t>(width) * height, static_cast<char>(kCellFree));
  for (size_t a : obstacles_) {
    const ActorInstance& actor = world_.actors[a];
    const double dx = actor.position.x() - centre.x();
    const double dy = actor.position.y() - centre.y();
    if (dx * dx + dy * dy > spec_.range * spec_.range) continue;
    // Actor centre in the grid frame, then the cells its footprint's bounding square touches.
    const double lx = c * dx + s * dy, ly = -s * dx + c * dy;
    const double radius = FootprintRadius(actor);
    const int i_low = std::max(0, static_cast<int>(std::floor((lx - radius - x0) / r)));
    const int i_high = std::min(width - 1, static_cast<int>(std::floor((lx + radius - x0) / r)));
    const int j_low = std::max(0, static_cast<int>(std::floor((ly - radius - y0) / r)));
    const int j_high = std::min(height - 1, static_cast<int>(std::floor((ly + radius - y0) / r)));
    for (int j = j_low; j <= j_high; ++j) {
      for (int i = i_low; i <= i_high; ++i) {
        // Closest point of the cell to the centre: overlap when nearer than the radius.
        const double cx = std::clamp(lx, x0 + i * r, x0 + (i + 1) * r);
        const double cy = std::clamp(ly, y0 + j * r, y0 + (j + 1) * r);
        const double ex = cx - lx, ey = cy - ly;
        if (ex * ex + ey * ey < radius * radius) {
          cells[static_cast<size_t>(j) * width + i] = static_cast<char>(kCellOccupied);
        }
      }
    }
  }

  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  origin.translate(centre + Eigen::Vector3d(c * x0 - s * y0, s * x0 + c * y0, 0.0));
  origin.rotate(Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()));

  SensorReading reading;
  reading.header = ReadingHeader(spec_.name, "occupancy_grid", input.time, "world");
  reading.header["encoding"] = "mono8";
  reading.header["width"] = spec_.width;
  reading.header["height"] = spec_.height;
  reading.header["step"] = spec_.width;
  reading.header["resolution"] = r;
  reading.header["origin"] = PoseJson(origin);
  reading.header["range"] = spec_.range;
  reading.data = std::move(cells);
  return reading;
}

}  // namespace asg::scene
