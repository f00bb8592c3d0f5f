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
#include <vector>

#include "client/node_links.h"
#include "client/results.h"
#include "client/scheduler.h"
#include "client/worker_registration.h"
#include "protocol/connection.h"
#include "protocol/messages.h"

namespace asg::client {

/// One thing that happened on the network side.
struct FarmEvent {
  enum class Kind : uint8_t {
    kRegistered,  ///< a worker presented the right token; `connection`, `registration` set
    kStatus,      ///< StatusCode `status` arrived
    kRunRefused,  ///< a RunScenario got an Error reply or none; `text` says why
    kResult,      ///< AnalyzeScenario arrived: `request` (to reply to), `analysis` and
                  ///< `captures`, or `text` saying why it does not decode
    kIssue,       ///< WorkerIssueNotification arrived (already answered); `issue`
    kClosed,      ///< the connection closed; `text` is the reason
    kSignal,      ///< SIGINT or SIGTERM; `signal_number`
    kNode,        ///< a vehicle-node request or the close of a node connection; `node`
    kPreempted,   ///< RunPreempted arrived (already answered); `preempted`
  };
  Kind kind = Kind::kClosed;
  WorkerKey worker = 0;  ///< the connection it concerns (0 for kSignal)
  std::shared_ptr<protocol::Connection> connection;
  RegisterWorkerRequest registration;
  uint8_t status = 0;
  uint32_t scenario_number = 0;  ///< kRunRefused: the scenario sent
  protocol::Message request;     ///< kResult: the frame (type and reference) to reply to
  protocol::AnalyzeScenarioRequest analysis;
  std::vector<CaptureFile> captures;  ///< kResult: the PNGs cut from the attachment
  protocol::WorkerIssueNotificationRequest issue;
  std::string text;
  int signal_number = 0;
  NodeEvent node;                           ///< kNode
  protocol::RunPreemptedRequest preempted;  ///< kPreempted
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
