// What the network side of the farm tells the farm loop, and the queue that carries it.
//
// Connection handlers run on io threads; they decode what arrives, answer what needs no farm
// state, and push everything else here. The farm loop is the only consumer, so all farm state
// is touched by one thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "client/farm/worker_channel.h"
#include "client/launch/worker_key.h"
#include "client/nodes/node_links.h"
#include "protocol/frame.h"
#include "protocol/messages.h"

namespace asg::client {

/// The kinds of FarmEvent, one struct each.
namespace farm_event {

/// A worker presented the right token and was registered.
struct Registered {
  std::unique_ptr<WorkerChannel> channel;  ///< the worker's connection, now the loop's
};

/// A StatusCode arrived.
struct Status {
  uint8_t status = 0;  ///< a protocol::StatusCode value
};

/// A RunScenario got an Error reply or none.
struct RunRefused {
  uint32_t scenario_number = 0;  ///< the scenario sent
  std::string reason;            ///< why
};

/// An AnalyzeScenario arrived; it is to be answered (accepted or refused) by the farm loop.
struct Result {
  protocol::Message request;  ///< the frame to reply to (type and reference; no attachment)
  protocol::AnalyzeScenarioRequest analysis;     ///< meaningful when `error` is empty
  std::vector<protocol::CaptureImage> captures;  ///< the PNGs cut from the attachment
  std::string error;  ///< why the report does not decode; empty when it does
};

/// A WorkerIssueNotification arrived (already answered).
struct Issue {
  protocol::WorkerIssueNotificationRequest issue;
};

/// The worker connection closed.
struct Closed {
  std::string reason;
};

/// SIGINT or SIGTERM.
struct Signal {
  int signal_number = 0;
};

/// A vehicle-node request, or the close of a node connection.
struct Node {
  NodeEvent node;
};

/// A RunPreempted arrived (already answered).
struct Preempted {
  protocol::RunPreemptedRequest preempted;
};

}  // namespace farm_event

/// One thing that happened on the network side: which connection, and what.
struct FarmEvent {
  using Payload = std::variant<farm_event::Registered, farm_event::Status, farm_event::RunRefused,
                               farm_event::Result, farm_event::Issue, farm_event::Closed,
                               farm_event::Signal, farm_event::Node, farm_event::Preempted>;
  WorkerKey worker = 0;  ///< the connection it concerns (0 for a Signal)
  Payload payload = farm_event::Closed{};
};

/// A multi-producer, single-consumer queue of events. Thread-safe.
class EventQueue {
 public:
  /// Appends an event and wakes the consumer.
  void Push(FarmEvent event) {
    {
      std::lock_guard lock(mutex_);
      events_.push_back(std::move(event));
    }
    ready_.notify_one();
  }

  /// Waits up to `timeout` for at least one event, then takes every event queued.
  std::vector<FarmEvent> WaitAll(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, timeout, [this] { return !events_.empty(); });
    std::vector<FarmEvent> taken(std::make_move_iterator(events_.begin()),
                                 std::make_move_iterator(events_.end()));
    events_.clear();
    return taken;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<FarmEvent> events_;
};

}  // namespace asg::client
