// A framed connection to an interactive worker (asg-worker --serve, or a serve::ClientHub in a
// test) that collects the frames the worker sends on its own (SimulateStepsFeedback,
// SimulateStepsResult, Event), and a poll for conditions with a generous deadline.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "protocol/connection.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"

namespace asg::worker::testing {

/// Polls `condition` until it holds; false when it still does not after `timeout`, which is
/// generous: a test waits for what it expects, never for a set time.
inline bool Eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

/// A connection to a served worker with a queue of the frames it pushes.
class ServedClient {
 public:
  ServedClient(protocol::IoThreads& io, const std::string& address) {
    connection_ = protocol::Connect(io.context().get_executor(), address, std::chrono::seconds(5));
    for (const char* type : {"SimulateStepsFeedback", "SimulateStepsResult", "Event"}) {
      connection_->SetHandler(type, [this](const protocol::Message& message) {
        std::lock_guard lock(mutex_);
        pushed_.push_back(message);
        arrived_.notify_all();
      });
    }
    connection_->Start();
  }
  ~ServedClient() { connection_->Close("test done"); }

  /// Calls a service and returns its reply (a Response; an Error reply throws RequestError).
  protocol::Message Call(const std::string& service, const json::Json& body = {},
                         std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    return connection_->Request(service, body.is_null() ? json::Json::object() : body, {}, timeout);
  }
  /// The reply body of a call.
  json::Json Body(const std::string& service, const json::Json& body = {}) {
    return Call(service, body).message;
  }
  /// The description of the Error reply a call gets; fails the test when it succeeds.
  std::string ErrorOf(const std::string& service, const json::Json& body) {
    try {
      Call(service, body);
    } catch (const protocol::RequestError& error) {
      return error.what();
    }
    ADD_FAILURE() << service << " " << body.dump() << " was not refused";
    return {};
  }
  /// The next pushed frame of `type` (earlier ones of other types are kept); fails after 20 s.
  protocol::Message Next(const std::string& type) {
    std::unique_lock lock(mutex_);
    protocol::Message found;
    const bool ok = arrived_.wait_for(lock, std::chrono::seconds(20), [&] {
      for (auto it = pushed_.begin(); it != pushed_.end(); ++it) {
        if (it->type == type) {
          found = *it;
          pushed_.erase(it);
          return true;
        }
      }
      return false;
    });
    EXPECT_TRUE(ok) << "no " << type << " frame within 20 s";
    return found;
  }
  /// Pushed frames of `type` received so far (removed from the queue).
  std::vector<protocol::Message> Take(const std::string& type) {
    std::lock_guard lock(mutex_);
    std::vector<protocol::Message> taken;
    for (auto it = pushed_.begin(); it != pushed_.end();) {
      if (it->type == type) {
        taken.push_back(*it);
        it = pushed_.erase(it);
      } else {
        ++it;
      }
    }
    return taken;
  }
  protocol::Connection& connection() { return *connection_; }

 private:
  std::shared_ptr<protocol::Connection> connection_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<protocol::Message> pushed_;
};

/// Sends a request without waiting; the future holds its outcome.
inline std::future<protocol::RequestResult> Later(ServedClient& client, const std::string& service,
                                                  const json::Json& body) {
  auto promise = std::make_shared<std::promise<protocol::RequestResult>>();
  std::future<protocol::RequestResult> future = promise->get_future();
  client.connection().AsyncRequest(
      service, body, {}, std::chrono::seconds(30),
      [promise](protocol::RequestResult result) { promise->set_value(std::move(result)); });
  return future;
}

}  // namespace asg::worker::testing
