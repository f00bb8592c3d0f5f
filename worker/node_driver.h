// ExternalNodeDriver: a scene::Driver whose controls come from the attached vehicle nodes over
// the data plane (docs/vehicle-nodes.md).
//
// Sync (lock-step): at each tick the driver sends every node the Step of that tick as a request
// and waits for all replies, at most step_deadline. The control applied at tick k is the one of
// tick k's replies from the node whose name sorts first among those that sent one (PhysXControl
// as is, EgoControl through protocol::ToPhysXControl); without any, the previous control (zero
// at first) is held.
// Async: simulated time is paced to wall time / realtime_factor; Steps are sent as messages and
// the control applied at a tick is chosen, by the same rule, among the Control messages received
// since the previous tick.
// A node that disconnects, misses the deadline or answers with an Error or an undecodable reply
// makes Tick answer scene::DriverAbort naming the node and the cause; the run then ends as
// scene::RunAborted.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/hand_over_io.h"
#include "protocol/messages.h"
#include "protocol/node_messages.h"
#include "scene/driver.h"
#include "worker/node_sensors.h"
#include "worker/node_server.h"

namespace asg::worker {

/// What a driver needs besides its nodes.
struct NodeDriverSettings {
  uint32_t scenario_number = 0;
  protocol::VehicleNodesSpec spec;  ///< sync, realtime_factor, step_deadline
  protocol::VehicleParams vehicle;  ///< for EgoControl
  /// Sync only: the nodes' io context, taken over by the run's thread, which then runs it while
  /// it waits for Step replies instead of being woken by the io thread. Null: wait to be woken.
  protocol::HandOverIo::TakeOver* io = nullptr;
};

/// Drives the vehicle with the controls of `nodes`. Owned by one run; Tick runs on the run's
/// thread.
class ExternalNodeDriver : public scene::Driver {
 public:
  /// `nodes` sorted by name (NodeServer::WaitForNodes); `sensors` may be null (odometry only) and
  /// must outlive the driver.
  ExternalNodeDriver(std::vector<std::shared_ptr<NodeLink>> nodes,
                     const NodeDriverSettings& settings, NodeSensors* sensors);

  /// Sends the tick's Step and returns the control to apply, or scene::DriverAbort naming the
  /// node that failed and how (the reason sent in RunEnd and RunPreempted).
  scene::DriverVerdict Tick(const scene::DriverInput& input) override;

  /// Ticks completed so far (a tick that ends in DriverAbort is not counted).
  uint32_t ticks() const { return tick_; }
  /// Sets NodeDriverSettings::io for the ticks that follow (null: wait to be woken).
  void SetIo(protocol::HandOverIo::TakeOver* io) { settings_.io = io; }

 private:
  protocol::StepRequest MakeStep(const scene::DriverInput& input, std::string* attachment);
  /// Each returns the failure that ends the run, if any.
  std::optional<std::string> TickSync(const protocol::StepRequest& step, std::string attachment);
  std::optional<std::string> TickAsync(const scene::DriverInput& input,
                                       const protocol::StepRequest& step, std::string attachment);
  /// Applies the first control among `responses` (in node order); false when none has one.
  bool Choose(const std::vector<std::optional<protocol::StepResponse>>& responses);
  /// The first node that has disconnected, as a failure.
  std::optional<std::string> FirstDisconnected() const;

  std::vector<std::shared_ptr<NodeLink>> nodes_;
  NodeDriverSettings settings_;
  NodeSensors* sensors_;
  uint32_t tick_ = 0;
  protocol::PhysXControl control_;               // held until a node sends another
  std::chrono::steady_clock::time_point start_;  // wall time of tick 0 (async)
};

}  // namespace asg::worker
