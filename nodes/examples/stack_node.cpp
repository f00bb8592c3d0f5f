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

std::unique_ptr<VoteMap> MakeVoteMap(const RunStart& run) {
  const protocol::LandscapeDescription& landscape = run.scene_description.landscape;
  return std::make_unique<VoteMap>(-landscape.border - kMapMargin,
                                   landscape.nominal_size + landscape.border + kMapMargin);
}

std::optional<protocol::CameraSpec> ChooseCamera(const RunStart& run, const std::string& wanted) {
  for (const protocol::SensorSpec& sensor : run.sensors) {
    if (sensor.type != protocol::SensorSpec::Type::kCamera) continue;
    const protocol::CameraSpec& camera = sensor.camera;
    if (wanted.empty() ? camera.depth && camera.segmentation : camera.name == wanted) {
      return camera;
    }
  }
  std::cerr << "asg-node-stack: no camera with depth and segmentation; planning blind\n";
  return std::nullopt;
}

void IntegrateCamera(const std::optional<protocol::CameraSpec>& camera, const Step& step,
                     VoteMap* map) {
  if (camera && map != nullptr && step.Find(camera->name, "32FC1") &&
      step.Find(camera->name, "mono8")) {
    map->Integrate(step.Depth(camera->name), step.Segmentation(camera->name), *camera,
                   PoseToIsometry(step.odometry().pose));
  }
}

FollowerGains GainsFor(const StackSettings& stack, const RunStart& run) {
  FollowerGains gains = stack.follower;
  gains.max_steering_angle = run.vehicle.max_steering_angle;
  return gains;
}

Eigen::Vector2d PlanStart(const LookaheadFollower& follower, const Eigen::Vector2d& position) {
  return follower.path().empty() ? position : follower.lookahead_point();
}

bool TakePath(StackPath path, const Eigen::Vector2d& position, LookaheadFollower* follower) {
  if (!path.found) return false;
  path.points.insert(path.points.begin(), position);
  follower->SetPath(std::move(path.points));
  return true;
}

void StackNode::OnRunStart(const RunStart& run) {
  map_ = MakeVoteMap(run);
  camera_ = ChooseCamera(run, stack_.camera);
  follower_ = LookaheadFollower(GainsFor(stack_, run));
  goal_ = {run.vehicle_goal_location.x, run.vehicle_goal_location.y};
  next_plan_ = 0.0;
  plans_ = 0;
}

std::optional<Control> StackNode::OnStep(const Step& step) {
  const protocol::Point& p = step.odometry().pose.position;
  const Eigen::Vector2d position(p.x, p.y);
  IntegrateCamera(camera_, step, map_.get());
  if (map_ && step.time() + 1e-9 >= next_plan_) {
    if (TakePath(planner_.Plan(*map_, PlanStart(follower_, position), goal_), position,
                 &follower_)) {
      ++plans_;
    }
    next_plan_ = step.time() + stack_.replan_period;
  }
  return follower_.Update(step.time(), position, step.yaw());
}

RerunDecision StackNode::OnRunEnd(const RunEnd& end, bool preempted) {
  if (preempted) return {};
  SaveFile("last_path.csv", PathCsv(follower_));
  if (!end.save_minimal && map_) SaveFile("votes.pgm", VoteMapPgm(*map_));
  return {};
}

void StackNode::OnReset() {
  map_.reset();
  follower_.Reset();
}

std::string PathCsv(const LookaheadFollower& follower) {
  std::ostringstream csv;
  csv << "x,y\n";
  for (const Eigen::Vector2d& point : follower.path()) csv << point.x() << "," << point.y() << "\n";
  return csv.str();
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
