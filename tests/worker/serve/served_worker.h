// Test harness of the interactive worker: the real asg-worker executable started with
// --serve 127.0.0.1:0 as a child process, and connections to it (served_client.h).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "protocol/io_threads.h"
#include "tests/client/e2e_process.h"
#include "tests/temp_dir.h"
#include "tests/worker/serve/served_client.h"

namespace asg::worker::testing {

using client::testing::Child;
using client::testing::Executable;

/// A fresh folder of its own (ServedWorker's TempDir has the test's name and would empty a
/// testutil::TempDir of the same test), removed on destruction.
class FarmDir {
 public:
  FarmDir()
      : path_(std::filesystem::temp_directory_path() /
              ("asg_test_serve_farm_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~FarmDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  FarmDir(const FarmDir&) = delete;
  FarmDir& operator=(const FarmDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
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
  /// The worker's process id.
  int pid() const { return child_->pid(); }

 private:
  testutil::TempDir dir_;
  std::filesystem::path output_;
  std::unique_ptr<Child> child_;
  std::string address_;
  protocol::IoThreads io_{1};
};

}  // namespace asg::worker::testing
