// The writer thread: takes records in order and writes each scenario folder atomically.
#include "client/result_writer.h"

#include <utility>

namespace asg::client {

ResultWriter::ResultWriter(std::filesystem::path batch_dir)
    : batch_dir_(std::move(batch_dir)), thread_([this] { Loop(); }) {}

ResultWriter::~ResultWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ResultWriter::Submit(ScenarioRecord record) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(record));
  }
  changed_.notify_all();
}

void ResultWriter::Drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

std::string ResultWriter::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

void ResultWriter::Loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;
    ScenarioRecord record = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    std::string failure;
    try {
      WriteScenarioFolder(batch_dir_, record);
    } catch (const std::exception& error) {
      failure = error.what();
    }
    lock.lock();
    busy_ = false;
    if (!failure.empty() && error_.empty()) error_ = failure;
    changed_.notify_all();
  }
}

}  // namespace asg::client
