// The research stack's mapper: back-projects the camera's non-traversable pixels (segmentation
// label 2) through the depth image into a world-aligned vote grid of 1 m cells. Each camera frame
// adds at most one vote to each cell it saw an obstacle in; a cell holds at most kMaxVotes.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <vector>

#include "nodes/readings.h"
#include "protocol/sensor_specs.h"

namespace asg::nodes::examples {

/// A square vote grid over the world's x, y. Owned by one stack; not thread-safe.
class VoteMap {
 public:
  static constexpr uint8_t kMaxVotes = 50;  ///< votes per cell at most
  static constexpr double kCell = 1.0;      ///< [m] cell edge

  /// Covers [min, max] [m] in x and y.
  VoteMap(double min, double max);
  /// The map of `size` x `size` cells from `min` [m] with these votes (a copy sent elsewhere);
  /// throws std::invalid_argument when votes does not hold size * size cells.
  VoteMap(double min, int size, std::vector<uint8_t> votes);

  /// Adds the votes of one camera frame. depth: 32FC1 z-depths [m]; labels: mono8 segmentation of
  /// the same size; camera: the spec (fov, mount); vehicle: body -> world [m]. Pixels beyond
  /// max_range [m] or outside the grid are ignored. Returns the cells voted.
  int Integrate(const CameraImage& depth, const CameraImage& labels,
                const protocol::CameraSpec& camera, const Eigen::Isometry3d& vehicle,
                double max_range = 40.0);

  /// Votes of the cell holding world (x, y) [m]; 0 outside the grid.
  uint8_t VotesAt(double x, double y) const;
  /// [m] lowest x and y of the grid.
  double min() const { return min_; }
  /// Cells per side.
  int size() const { return size_; }
  /// Votes of cell (i, j), row-major by j (y), i along x.
  const std::vector<uint8_t>& votes() const { return votes_; }

 private:
  double min_;
  int size_;
  std::vector<uint8_t> votes_;
  std::vector<uint8_t> seen_;  // cells hit in the current frame
};

/// The camera frame -> body transform of a mount: offset, then yaw (z), pitch (y'), roll (x'')
/// [deg].
Eigen::Isometry3d MountToBody(const protocol::SensorMount& mount);

/// Body -> world transform of an odometry pose.
Eigen::Isometry3d PoseToIsometry(const protocol::Pose& pose);

}  // namespace asg::nodes::examples
