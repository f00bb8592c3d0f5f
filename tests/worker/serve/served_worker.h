// Test harness of the interactive worker: the real asg-worker executable started with
// --serve 127.0.0.1:0 as a child process, and framed connections to it that collect the frames
// the worker sends on its own (SimulateStepsFeedback, SimulateStepsResult, Event).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "protocol/connection.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "tests/client/e2e_process.h"
#include "tests/temp_dir.h"

namespace asg::worker::testing {

using client::testing::Child;
using client::testing::Executable;

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

/// `asg-worker --serve 127.0.0.1:0 [extra...]` running until destroyed.
class ServedWorker {
 public:
  explicit ServedWorker(const std::vector<std::string>& extra = {})
      : output_(dir_.path() / "worker.out") {
    std::vector<std::string> arguments = {"--serve", "127.0.0.1:0"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    child_ = std::make_unique<Child>(Executable("asg-worker"), arguments, output_);
    const std::regex serving(R"(serving ([0-9.]+:[0-9]+))");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      std::smatch match;
      const std::string text = child_->Output();
      if (std::regex_search(text, match, serving)) {
        address_ = match[1];
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ADD_FAILURE() << "the worker did not start serving: " << child_->Output();
  }
  ~ServedWorker() {
    if (child_) child_->Wait(std::chrono::milliseconds(0));
  }

  const std::string& address() const { return address_; }
  /// A new connection to the worker.
  std::unique_ptr<ServedClient> Connect() { return std::make_unique<ServedClient>(io_, address_); }
  /// Waits for the process to exit; its exit code, or -1 (killed) after `timeout`.
  int Wait(std::chrono::milliseconds timeout) { return child_->Wait(timeout); }
  /// What the worker printed.
  std::string Output() const { return child_->Output(); }

 private:
  testutil::TempDir dir_;
  std::filesystem::path output_;
  std::unique_ptr<Child> child_;
  std::string address_;
  protocol::IoThreads io_{1};
};

}  // namespace asg::worker::testing
