// Writes scenario folders on a thread of its own, so that the farm loop keeps handing out
// scenarios while results are written and fsynced.
#pragma once

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "client/results.h"

namespace asg::client {

/// A background writer of ScenarioRecords into one batch folder. Thread-safe.
class ResultWriter {
 public:
  /// Starts the writer thread for `batch_dir`.
  explicit ResultWriter(std::filesystem::path batch_dir);
  /// Writes what is queued, then stops.
  ~ResultWriter();
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  /// Queues a record; it is written in submission order.
  void Submit(ScenarioRecord record);

  /// Blocks until every record submitted so far is written.
  void Drain();

  /// The first write error, empty when every write succeeded.
  std::string error() const;

 private:
  void Loop();

  std::filesystem::path batch_dir_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ScenarioRecord> queue_;
  bool busy_ = false;      // a record is being written
  bool stopping_ = false;  // the destructor asked the thread to finish
  std::string error_;
  std::thread thread_;  // last: starts after the members it uses
};

}  // namespace asg::client
