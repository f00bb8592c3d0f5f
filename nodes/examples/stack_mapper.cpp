// VoteMap: pinhole back-projection of labelled depth pixels.
#include "nodes/examples/stack_mapper.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace asg::nodes::examples {

namespace {
constexpr double kDegToRad = std::numbers::pi / 180.0;
}  // namespace

Eigen::Isometry3d MountToBody(const protocol::SensorMount& mount) {
  Eigen::Isometry3d transform = Eigen::Isometry3d::Identity();
  transform.translate(Eigen::Vector3d(mount.offset.x, mount.offset.y, mount.offset.z));
  transform.rotate(Eigen::AngleAxisd(mount.yaw * kDegToRad, Eigen::Vector3d::UnitZ()) *
                   Eigen::AngleAxisd(mount.pitch * kDegToRad, Eigen::Vector3d::UnitY()) *
                   Eigen::AngleAxisd(mount.roll * kDegToRad, Eigen::Vector3d::UnitX()));
  return transform;
}

Eigen::Isometry3d PoseToIsometry(const protocol::Pose& pose) {
  Eigen::Isometry3d transform = Eigen::Isometry3d::Identity();
  transform.translate(Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z));
  transform.rotate(Eigen::Quaterniond(pose.orientation.w, pose.orientation.x, pose.orientation.y,
                                      pose.orientation.z)
                       .normalized());
  return transform;
}

VoteMap::VoteMap(double min, double max)
    : min_(min), size_(std::max(1, static_cast<int>(std::ceil((max - min) / kCell)))) {
  votes_.assign(static_cast<size_t>(size_) * size_, 0);
  seen_.assign(votes_.size(), 0);
}

VoteMap::VoteMap(double min, int size, std::vector<uint8_t> votes)
    : min_(min), size_(size), votes_(std::move(votes)) {
  if (size_ < 1 || votes_.size() != static_cast<size_t>(size_) * size_) {
    throw std::invalid_argument("VoteMap: " + std::to_string(votes_.size()) + " votes for " +
                                std::to_string(size_) + " x " + std::to_string(size_) + " cells");
  }
  seen_.assign(votes_.size(), 0);
}

int VoteMap::Integrate(const CameraImage& depth, const CameraImage& labels,
                       const protocol::CameraSpec& camera, const Eigen::Isometry3d& vehicle,
                       double max_range) {
  if (depth.width != labels.width || depth.height != labels.height ||
      depth.depth.size() != size_t{depth.width} * depth.height ||
      labels.bytes.size() != depth.depth.size()) {
    throw std::invalid_argument("depth and segmentation images differ in size");
  }
  const Eigen::Isometry3d to_world = vehicle * MountToBody(camera.mount);
  // Square pixels, horizontal field of view over the width; the camera looks along +x, image
  // right is -y and image up is +z.
  const double focal = 0.5 * depth.width / std::tan(0.5 * camera.fov * kDegToRad);
  const double cu = 0.5 * depth.width, cv = 0.5 * depth.height;
  std::fill(seen_.begin(), seen_.end(), 0);
  for (uint32_t v = 0; v < depth.height; ++v) {
    for (uint32_t u = 0; u < depth.width; ++u) {
      const size_t index = size_t{v} * depth.width + u;
      const double z = depth.depth[index];
      if (labels.bytes[index] != kLabelNonTraversable || !std::isfinite(z) || z > max_range) {
        continue;
      }
      const Eigen::Vector3d point(z, -(u + 0.5 - cu) * z / focal, -(v + 0.5 - cv) * z / focal);
      const Eigen::Vector3d world = to_world * point;
      const int i = static_cast<int>(std::floor((world.x() - min_) / kCell));
      const int j = static_cast<int>(std::floor((world.y() - min_) / kCell));
      if (i < 0 || j < 0 || i >= size_ || j >= size_) continue;
      seen_[static_cast<size_t>(j) * size_ + i] = 1;
    }
  }
  int voted = 0;
  for (size_t cell = 0; cell < votes_.size(); ++cell) {
    if (seen_[cell] == 0) continue;
    ++voted;
    if (votes_[cell] < kMaxVotes) ++votes_[cell];
  }
  return voted;
}

uint8_t VoteMap::VotesAt(double x, double y) const {
  const int i = static_cast<int>(std::floor((x - min_) / kCell));
  const int j = static_cast<int>(std::floor((y - min_) / kCell));
  if (i < 0 || j < 0 || i >= size_ || j >= size_) return 0;
  return votes_[static_cast<size_t>(j) * size_ + i];
}

}  // namespace asg::nodes::examples
