// The occupancy grid model: an exact, analytic map of the obstacles around the vehicle (no rays).
//
// The grid lies in the ground plane, centred on the vehicle and turned with its heading (yaw only;
// roll and pitch are ignored). Cell (i, j), i = 0 .. width-1 along the vehicle's forward axis and
// j = 0 .. height-1 along its left axis, covers x in [(i - width/2) r, (i + 1 - width/2) r) and
// y in [(j - height/2) r, (j + 1 - height/2) r) of that frame, r = resolution. A visible,
// non-traversable actor whose centre is within `range` (horizontal distance) of the vehicle marks
// every cell that its footprint disc (FootprintRadius in scene/actor_meshes.h) overlaps with
// positive area; traversable actors mark nothing.
//
// Reading header (besides the common keys, frame_id = "world"):
//   {"encoding": "mono8", "width": W, "height": H, "step": W, "resolution": r,
//    "origin": {"position", "orientation"}  (world pose of the corner of cell (0, 0) at the
//    lowest x and y; orientation = the grid's yaw), "range": [m]}
// data: W * H bytes, row j after row j-1 (cell (i, j) at byte j * W + i), 0 free, 100 occupied.
#pragma once

#include <vector>

#include "protocol/sensor_specs.h"
#include "scene/sensor_reading.h"
#include "scene/world.h"

namespace asg::scene {

/// Cell value of a free cell.
inline constexpr uint8_t kCellFree = 0;
/// Cell value of an occupied cell.
inline constexpr uint8_t kCellOccupied = 100;

/// An occupancy grid around the vehicle. Holds the world by reference (it must outlive the
/// sensor); Sample is const and thread-safe.
class OccupancyGridSensor {
 public:
  OccupancyGridSensor(const protocol::OccupancyGridSpec& spec, const World& world);

  /// The grid at the input's vehicle pose.
  SensorReading Sample(const SensorInput& input) const;

 private:
  protocol::OccupancyGridSpec spec_;
  const World& world_;
  std::vector<size_t> obstacles_;  ///< indices of non-traversable actors
};

}  // namespace asg::scene
