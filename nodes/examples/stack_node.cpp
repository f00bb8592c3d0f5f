// StackNode: map, plan at 0.5 Hz from the look-ahead point, follow at every tick.
#include "nodes/examples/stack_node.h"

#include <iostream>
#include <sstream>

namespace asg::nodes::examples {

namespace {
// [m] the vote map extends this far beyond the landscape grid.
constexpr double kMapMargin = 10.0;
}  // namespace

StackNode::StackNode(NodeSettings settings, StackSettings stack)
    : VehicleNode(std::move(settings)), stack_(std::move(stack)), follower_(stack_.follower) {}

void StackNode::OnRunStart(const RunStart& run) {
  const protocol::LandscapeDescription& landscape = run.scene_description.landscape;
  map_ = std::make_unique<VoteMap>(-landscape.border - kMapMargin,
                                   landscape.nominal_size + landscape.border + kMapMargin);
  camera_.reset();
  for (const protocol::SensorSpec& sensor : run.sensors) {
    if (sensor.type != protocol::SensorSpec::Type::kCamera) continue;
    const protocol::CameraSpec& camera = sensor.camera;
    const bool named =
        stack_.camera.empty() ? camera.depth && camera.segmentation : camera.name == stack_.camera;
    if (named && !camera_) camera_ = camera;
  }
  if (!camera_) {
    std::cerr << "asg-node-stack: no camera with depth and segmentation; planning blind\n";
  }
  FollowerGains gains = stack_.follower;
  gains.max_steering_angle = run.vehicle.max_steering_angle;
  follower_ = LookaheadFollower(gains);
  goal_ = {run.vehicle_goal_location.x, run.vehicle_goal_location.y};
  next_plan_ = 0.0;
  plans_ = 0;
}

std::optional<Control> StackNode::OnStep(const Step& step) {
  const protocol::Point& p = step.odometry().pose.position;
  const Eigen::Vector2d position(p.x, p.y);
  if (camera_ && map_ && step.Find(camera_->name, "32FC1") && step.Find(camera_->name, "mono8")) {
    map_->Integrate(step.Depth(camera_->name), step.Segmentation(camera_->name), *camera_,
                    PoseToIsometry(step.odometry().pose));
  }
  if (map_ && step.time() + 1e-9 >= next_plan_) {
    const Eigen::Vector2d from = follower_.path().empty() ? position : follower_.lookahead_point();
    StackPath path = planner_.Plan(*map_, from, goal_);
    if (path.found) {
      path.points.insert(path.points.begin(), position);
      follower_.SetPath(std::move(path.points));
      ++plans_;
    }
    next_plan_ = step.time() + stack_.replan_period;
  }
  return follower_.Update(step.time(), position, step.yaw());
}

RerunDecision StackNode::OnRunEnd(const RunEnd& end, bool preempted) {
  if (preempted) return {};
  std::ostringstream csv;
  csv << "x,y\n";
  for (const Eigen::Vector2d& point : follower_.path())
    csv << point.x() << "," << point.y() << "\n";
  SaveFile("last_path.csv", csv.str());
  if (!end.save_minimal && map_) SaveFile("votes.pgm", VoteMapPgm(*map_));
  return {};
}

void StackNode::OnReset() {
  map_.reset();
  follower_.Reset();
}

std::string VoteMapPgm(const VoteMap& map) {
  const int n = map.size();
  std::string image = "P5\n" + std::to_string(n) + " " + std::to_string(n) + "\n255\n";
  for (int j = n - 1; j >= 0; --j) {
    for (int i = 0; i < n; ++i) {
      image.push_back(static_cast<char>(map.votes()[static_cast<size_t>(j) * n + i] * 5));
    }
  }
  return image;
}

}  // namespace asg::nodes::examples
