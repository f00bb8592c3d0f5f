// Lock-step and paced Steps, control selection, and preemption on node failure.
#include "worker/node_driver.h"

#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "protocol/messages_json.h"
#include "protocol/typed_connection.h"

namespace asg::worker {

namespace {

/// The replies of one sync tick, filled by the connections' strands.
struct TickReplies {
  std::mutex mutex;
  std::condition_variable done;
  size_t remaining = 0;
  std::vector<std::optional<protocol::Message>> replies;
  std::string failure;  // the first failure, "node 'NAME': ..."
};

std::chrono::milliseconds DeadlineMs(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(seconds * 1000.0)));
}

}  // namespace

ExternalNodeDriver::ExternalNodeDriver(std::vector<std::shared_ptr<NodeLink>> nodes,
                                       const NodeDriverSettings& settings, NodeSensors* sensors)
    : nodes_(std::move(nodes)), settings_(settings), sensors_(sensors) {}

scene::DriverVerdict ExternalNodeDriver::Tick(const scene::DriverInput& input) {
  std::string attachment;
  const protocol::StepRequest step = MakeStep(input, &attachment);
  std::optional<std::string> failure = settings_.spec.sync
                                           ? TickSync(step, std::move(attachment))
                                           : TickAsync(input, step, std::move(attachment));
  if (failure) return scene::DriverAbort{std::move(*failure)};
  ++tick_;
  return control_;
}

protocol::StepRequest ExternalNodeDriver::MakeStep(const scene::DriverInput& input,
                                                   std::string* attachment) {
  protocol::StepRequest step;
  step.scenario_number = settings_.scenario_number;
  step.tick = tick_;
  step.time = input.time;
  if (input.odometry != nullptr) step.odometry = *input.odometry;
  if (sensors_ != nullptr) {
    StepSensorData data = sensors_->Sample(input);
    step.readings = std::move(data.readings);
    *attachment = std::move(data.attachment);
  }
  return step;
}

std::optional<std::string> ExternalNodeDriver::TickSync(const protocol::StepRequest& step,
                                                        std::string attachment) {
  const json::Json body(step);
  auto state = std::make_shared<TickReplies>();
  state->remaining = nodes_.size();
  state->replies.resize(nodes_.size());
  const auto timeout = DeadlineMs(settings_.spec.step_deadline);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    nodes_[i]->connection().AsyncRequest(
        protocol::TypeOf<protocol::StepRequest>(), body,
        i + 1 == nodes_.size() ? std::move(attachment) : attachment, timeout,
        [state, i, node = nodes_[i]](protocol::RequestResult result) {
          {
            std::lock_guard lock(state->mutex);
            if (result.success) {
              state->replies[i] = std::move(result.reply);
            } else if (state->failure.empty()) {
              state->failure = "node '" + node->name() + "': " + result.description;
            }
            --state->remaining;
          }
          // Notified after unlocking, so the woken thread does not block again on the mutex.
          state->done.notify_all();
        });
  }
  std::vector<std::optional<protocol::StepResponse>> responses(nodes_.size());
  // Each request's own timer completes it by the deadline; the margin covers a stalled strand.
  const auto deadline = std::chrono::steady_clock::now() + timeout + std::chrono::seconds(1);
  const auto answered = [&state] { return state->remaining == 0 || !state->failure.empty(); };
  if (settings_.io != nullptr) {
    // This thread runs the nodes' io context: the replies are read and handled right here.
    settings_.io->RunUntil(
        [&] {
          std::lock_guard lock(state->mutex);
          return answered();
        },
        deadline);
  }
  {
    std::unique_lock lock(state->mutex);
    const bool finished = state->done.wait_until(lock, deadline, answered);
    if (!state->failure.empty()) return state->failure;
    if (!finished) return "no Step reply within the step deadline";
    for (size_t i = 0; i < nodes_.size(); ++i) {
      // A reply that does not decode is the node's failure, like a missing one.
      try {
        responses[i] = protocol::DecodeMessage<protocol::StepResponse>(state->replies[i]->message);
      } catch (const json::DecodeError& error) {
        return "node '" + nodes_[i]->name() + "': bad StepResponse: " + error.what();
      }
    }
  }
  Choose(responses);
  return std::nullopt;
}

std::optional<std::string> ExternalNodeDriver::TickAsync(const scene::DriverInput& input,
                                                         const protocol::StepRequest& step,
                                                         std::string attachment) {
  if (std::optional<std::string> failure = FirstDisconnected()) return failure;
  const auto now = std::chrono::steady_clock::now();
  if (tick_ == 0) start_ = now;
  const auto due =
      start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(input.time / settings_.spec.realtime_factor));
  if (due > now) std::this_thread::sleep_until(due);
  std::vector<std::optional<protocol::StepResponse>> responses;
  responses.reserve(nodes_.size());
  for (const auto& node : nodes_) responses.push_back(node->TakeControl());
  Choose(responses);
  const json::Json body(step);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    nodes_[i]->connection().Send(protocol::TypeOf<protocol::StepRequest>(), body,
                                 i + 1 == nodes_.size() ? std::move(attachment) : attachment);
  }
  return std::nullopt;
}

bool ExternalNodeDriver::Choose(
    const std::vector<std::optional<protocol::StepResponse>>& responses) {
  for (const auto& response : responses) {
    if (!response) continue;
    if (response->has_control) {
      control_ = response->control;
      return true;
    }
    if (response->has_ego_control) {
      control_ = protocol::ToPhysXControl(response->ego_control, settings_.vehicle);
      return true;
    }
  }
  return false;
}

std::optional<std::string> ExternalNodeDriver::FirstDisconnected() const {
  for (const auto& node : nodes_) {
    if (!node->open()) return "node '" + node->name() + "' disconnected";
  }
  return std::nullopt;
}

}  // namespace asg::worker
