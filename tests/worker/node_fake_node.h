// An in-test vehicle node on a real loopback connection: attaches to a worker's data port,
// answers RunStart, answers each Step with a control law (or falls silent, or disconnects, at a
// chosen tick), and records everything the worker sends.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/messages_json.h"
#include "protocol/node_messages.h"

namespace asg::worker::fake {

/// A node's control law: the answer to one Step (with its attachment).
using ControlLaw =
    std::function<protocol::StepResponse(const protocol::StepRequest&, const std::string&)>;

/// scene::StraightDriver's law computed from the Step alone, as a node would: yaw from the
/// odometry quaternion as the vehicle computes it, steering kGain * heading error, clamped.
inline ControlLaw StraightLaw(const protocol::Point& goal, double speed, double max_steer) {
  return [=](const protocol::StepRequest& step, const std::string&) {
    const protocol::Quaternion& q = step.odometry.pose.orientation;
    constexpr double kDegToRad = std::numbers::pi / 180.0;
    const double yaw =
        std::atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z)) / kDegToRad;
    const protocol::Point& p = step.odometry.pose.position;
    const double bearing = std::atan2(goal.y - p.y, goal.x - p.x) * 180.0 / std::numbers::pi;
    const double error = std::remainder(bearing - yaw, 360.0);
    protocol::StepResponse response;
    response.has_control = true;
    response.control.header.stamp = protocol::Time::FromSeconds(step.time);
    response.control.longitudinal_velocity = speed;
    response.control.steering_angle = std::clamp(-1.5 * error, -max_steer, max_steer);
    return response;
  };
}

/// Answers every Step with `response`.
inline ControlLaw ConstantLaw(const protocol::StepResponse& response) {
  return [=](const protocol::StepRequest&, const std::string&) { return response; };
}

/// One fake node with its own io thread.
class FakeNode {
 public:
  /// What the node does at tick `at_tick` and after.
  enum class Fault : uint8_t { kNone, kSilent, kDisconnect };

  FakeNode(const std::string& endpoint, const std::string& name, ControlLaw law,
           Fault fault = Fault::kNone, uint32_t at_tick = 0, const std::string& token = {},
           bool async = false)
      : io_(1), name_(name), law_(std::move(law)), fault_(fault), at_tick_(at_tick), async_(async) {
    connection_ =
        protocol::Connect(io_.context().get_executor(), endpoint, std::chrono::seconds(2));
    connection_->SetRequestHandler("RunStart", [this](const protocol::Message& message) {
      std::lock_guard lock(mutex_);
      start_ = protocol::DecodeMessage<protocol::RunStartRequest>(message.message);
      events_.push_back("RunStart");
      return json::Json(protocol::RunStartResponse{true});
    });
    connection_->SetHandler("Step", [this](const protocol::Message& message) { OnStep(message); });
    connection_->SetHandler("VehicleStatus", [this](const protocol::Message& message) {
      const auto status = protocol::DecodeMessage<protocol::VehicleStatus>(message.message);
      std::lock_guard lock(mutex_);
      statuses_.push_back(status);
      events_.push_back(std::string("VehicleStatus ") + (status.enabled ? "enabled" : "disabled"));
    });
    connection_->SetHandler("RunEnd", [this](const protocol::Message& message) {
      std::lock_guard lock(mutex_);
      run_end_ = protocol::DecodeMessage<protocol::RunEndMessage>(message.message);
      events_.push_back("RunEnd");
      changed_.notify_all();
    });
    connection_->Start();
    attach_ =
        connection_->Request("AttachNode", json::Json(protocol::AttachNodeRequest{name, token}));
  }
  ~FakeNode() {
    connection_->Close("test over");
    io_.Stop();
  }

  /// Waits up to `timeout` for RunEnd; true when it came.
  bool WaitForRunEnd(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [this] { return run_end_.has_value(); });
  }

  std::vector<protocol::StepRequest> steps() const {
    std::lock_guard l(mutex_);
    return steps_;
  }
  std::vector<std::string> attachments() const {
    std::lock_guard l(mutex_);
    return attachments_;
  }
  std::vector<std::string> events() const {
    std::lock_guard l(mutex_);
    return events_;
  }
  std::vector<protocol::VehicleStatus> statuses() const {
    std::lock_guard l(mutex_);
    return statuses_;
  }
  std::optional<protocol::RunEndMessage> run_end() const {
    std::lock_guard l(mutex_);
    return run_end_;
  }
  std::optional<protocol::RunStartRequest> start() const {
    std::lock_guard l(mutex_);
    return start_;
  }
  const protocol::Message& attach_reply() const { return attach_; }
  protocol::Connection& connection() { return *connection_; }

 private:
  void OnStep(const protocol::Message& message) {
    const auto step = protocol::DecodeMessage<protocol::StepRequest>(message.message);
    {
      std::lock_guard lock(mutex_);
      steps_.push_back(step);
      attachments_.push_back(message.attachment);
      events_.push_back("Step");
    }
    if (fault_ != Fault::kNone && step.tick >= at_tick_) {
      if (fault_ == Fault::kDisconnect) connection_->Close("node quits");
      return;
    }
    const protocol::StepResponse response = law_(step, message.attachment);
    if (async_) {
      connection_->Send("Control", json::Json(response));
    } else {
      connection_->Reply(message, json::Json(response));
    }
  }

  protocol::IoThreads io_;
  std::string name_;
  ControlLaw law_;
  Fault fault_;
  uint32_t at_tick_;
  bool async_;
  std::shared_ptr<protocol::Connection> connection_;
  protocol::Message attach_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<protocol::StepRequest> steps_;
  std::vector<std::string> attachments_;
  std::vector<std::string> events_;
  std::vector<protocol::VehicleStatus> statuses_;
  std::optional<protocol::RunEndMessage> run_end_;
  std::optional<protocol::RunStartRequest> start_;
};

}  // namespace asg::worker::fake
