// asg-node-stack's node: the research autonomy stack as three components on one VehicleNode
// connection, called in order at every Step on the Run thread:
//   VoteMap (stack_mapper.h)           camera depth + segmentation -> 1 m vote grid
//   GridPlanner (stack_planner.h)      votes -> A* path on a 2 m grid, every replan_period
//   LookaheadFollower (stack_follower.h) path -> the PhysXControl this node sends
// The components share data through plain values (the vote grid, a polyline), so each can move to
// a process of its own by sending those values over a socket; one process keeps the lock-step
// simple (one answer per tick, no inter-process clock) and is what this example does.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "nodes/examples/stack_follower.h"
#include "nodes/examples/stack_mapper.h"
#include "nodes/examples/stack_planner.h"
#include "nodes/vehicle_node.h"

namespace asg::nodes::examples {

/// Settings of the stack beyond the connection.
struct StackSettings {
  std::string camera;          ///< camera sensor to map from; empty: the first with depth and
                               ///< segmentation in RunStart's sensors
  double replan_period = 2.0;  ///< [s] between plans (0.5 Hz)
  FollowerGains follower;      ///< look-ahead, gains, speed (max steering comes from RunStart)
};

/// The stack. Every method runs on the Run thread.
class StackNode : public VehicleNode {
 public:
  StackNode(NodeSettings settings, StackSettings stack);

  /// The vote map of the current run, or nullptr between runs.
  const VoteMap* map() const { return map_.get(); }
  /// The follower (its path and look-ahead point).
  const LookaheadFollower& follower() const { return follower_; }

 protected:
  void OnRunStart(const RunStart& run) override;
  std::optional<Control> OnStep(const Step& step) override;
  RerunDecision OnRunEnd(const RunEnd& end, bool preempted) override;
  void OnReset() override;

 private:
  StackSettings stack_;
  std::unique_ptr<VoteMap> map_;
  GridPlanner planner_;
  LookaheadFollower follower_;
  std::optional<protocol::CameraSpec> camera_;
  Eigen::Vector2d goal_ = Eigen::Vector2d::Zero();
  double next_plan_ = 0.0;  // [s]
  int plans_ = 0;
};

/// The vote map as a binary PGM image (votes * 5, row 0 = highest y).
std::string VoteMapPgm(const VoteMap& map);
/// The follower's path as CSV ("x,y" then one point per line).
std::string PathCsv(const LookaheadFollower& follower);

// The steps of the stack, shared by StackNode and the three-process roles (stack_roles.h).

/// An empty vote map over the run's landscape and a margin around it.
std::unique_ptr<VoteMap> MakeVoteMap(const RunStart& run);
/// The camera to map from: `wanted` by name, else the first with depth and segmentation; warns
/// on stderr when there is none.
std::optional<protocol::CameraSpec> ChooseCamera(const RunStart& run, const std::string& wanted);
/// Integrates the step's depth and segmentation images of `camera`, when the step has them.
void IntegrateCamera(const std::optional<protocol::CameraSpec>& camera, const Step& step,
                     VoteMap* map);
/// The follower's gains for a run: the stack's, with the vehicle's max steering angle.
FollowerGains GainsFor(const StackSettings& stack, const RunStart& run);
/// Where a plan starts: the follower's look-ahead point, or `position` before the first path.
Eigen::Vector2d PlanStart(const LookaheadFollower& follower, const Eigen::Vector2d& position);
/// Hands a found path to the follower, from the vehicle's position; returns whether it was found.
bool TakePath(StackPath path, const Eigen::Vector2d& position, LookaheadFollower* follower);

}  // namespace asg::nodes::examples
