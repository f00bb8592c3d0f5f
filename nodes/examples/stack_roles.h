// asg-node-stack's three roles as three node processes of one worker (vehicle_nodes.count 3),
// as the original stack ran: the mapper, the planner and the follower each register with the
// client and attach to the worker, and all three answer every lock-step Step. Only the follower
// sends a control. They exchange their data over a side channel of their own: ASG1 frames
// (protocol/frame.h) on TCP, two requests:
//
//   StackPlan (follower -> planner), at each planning tick:
//     {"scenario_number", "tick", "from": [x, y], "goal": [x, y]}
//     reply {"found": bool, "points": [[x, y], ...]}   the A* path, [m] world frame
//   StackMap (planner -> mapper), for the plan:
//     {"scenario_number", "tick"}
//     reply {"min": m, "size": n} + attachment: the n x n vote grid, one byte per cell, row-major
//     by y (cell (i, j) at byte j * n + i, x = min + i m)
//
// The mapper answers StackMap for tick k once it has integrated the Step of tick k (it may
// receive the request first). In lock-step the worker sends Step k + 1 only when every node has
// answered Step k, and the follower answers only after its plan, so the map a plan uses is the
// map after tick k in every process: the three processes compute exactly what the one-process
// stack (stack_node.h) computes, and drive the same trajectories.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "nodes/examples/stack_node.h"
#include "protocol/connection.h"
#include "protocol/io_threads.h"
#include "protocol/server.h"

namespace asg::nodes::examples {

/// The mapper: integrates the camera into the vote map at every Step and serves StackMap on
/// `listen` ("HOST:PORT"). Saves votes.pgm at the end of a run.
class MapperNode : public VehicleNode {
 public:
  MapperNode(NodeSettings settings, StackSettings stack, const std::string& listen);
  ~MapperNode() override;
  /// The side channel's port (useful with port 0).
  uint16_t port() const;

 protected:
  void OnRunStart(const RunStart& run) override;
  std::optional<Control> OnStep(const Step& step) override;
  RerunDecision OnRunEnd(const RunEnd& end, bool preempted) override;
  void OnReset() override;

 private:
  void OnMapRequest(const std::shared_ptr<protocol::Connection>& connection,
                    const protocol::Message& request);
  /// Answers the pending request when its tick has been integrated; mutex_ held.
  void AnswerPending();

  StackSettings stack_;
  std::optional<protocol::CameraSpec> camera_;
  protocol::IoThreads io_;
  std::unique_ptr<protocol::Server> server_;
  std::mutex mutex_;  // guards the members below, shared with the side channel's io thread
  std::vector<std::shared_ptr<protocol::Connection>> peers_;
  std::unique_ptr<VoteMap> map_;
  uint32_t scenario_number_ = 0;
  std::optional<uint32_t> integrated_tick_;  // the last Step integrated in this run
  struct Pending {
    std::shared_ptr<protocol::Connection> connection;
    protocol::Message request;
    uint32_t tick = 0;
  };
  std::optional<Pending> pending_;
};

/// The planner: serves StackPlan on `listen`, asking the mapper at `mapper` ("HOST:PORT") for the
/// map of the tick; answers Steps without a control.
class PlannerNode : public VehicleNode {
 public:
  PlannerNode(NodeSettings settings, const std::string& listen, std::string mapper);
  ~PlannerNode() override;
  uint16_t port() const;

 protected:
  std::optional<Control> OnStep(const Step& step) override;

 private:
  void OnPlanRequest(const std::shared_ptr<protocol::Connection>& connection,
                     const protocol::Message& request);
  std::shared_ptr<protocol::Connection> Mapper();

  std::string mapper_endpoint_;
  protocol::IoThreads io_;
  std::unique_ptr<protocol::Server> server_;
  std::mutex mutex_;  // guards peers_ and mapper_
  std::vector<std::shared_ptr<protocol::Connection>> peers_;
  std::shared_ptr<protocol::Connection> mapper_;
  GridPlanner planner_;
};

/// The follower: at each planning tick asks the planner at `planner` for a path from its
/// look-ahead point, and follows the path at every tick; its control drives the vehicle. Saves
/// last_path.csv at the end of a run.
class FollowerNode : public VehicleNode {
 public:
  FollowerNode(NodeSettings settings, StackSettings stack, std::string planner);
  ~FollowerNode() override;

 protected:
  void OnRunStart(const RunStart& run) override;
  std::optional<Control> OnStep(const Step& step) override;
  RerunDecision OnRunEnd(const RunEnd& end, bool preempted) override;
  void OnReset() override;

 private:
  std::shared_ptr<protocol::Connection> Planner();

  StackSettings stack_;
  std::string planner_endpoint_;
  protocol::IoThreads io_;
  std::shared_ptr<protocol::Connection> planner_;
  LookaheadFollower follower_;
  Eigen::Vector2d goal_ = Eigen::Vector2d::Zero();
  uint32_t scenario_number_ = 0;
  double next_plan_ = 0.0;  // [s]
};

}  // namespace asg::nodes::examples
