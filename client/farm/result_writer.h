// Writes scenario folders on a thread of its own, so that the farm loop keeps handing out
// scenarios while results are written. Folders queued together are committed as a group: their
// files are written (by two threads when the group is large), made durable by one syncfs, and
// only then renamed into place, so a folder that exists is complete even after a machine crash,
// at one sync per group rather than per file.
//
// A write that fails (a full disk) leaves no staging folder behind and is kept as the writer's
// error, naming the scenario, the path and the system's reason; from then on nothing more is
// written: the records queued or submitted later are dropped (their scenarios are not on disk,
// and --resume runs them). TakeWritten tells which records are on disk.
#pragma once

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "client/nodes/node_files.h"
#include "results/folder.h"

namespace asg::client {

/// Adds files to a record's staged folder (`staged`), once its own files are written and before
/// the folder is made durable and renamed into place (e.g. a recording of the run). Called on the
/// writer's threads, two at once for a large group, so it must be thread-safe; an exception fails
/// the record's write as a file error does.
using StageHook =
    std::function<void(const results::ScenarioRecord& record, const std::filesystem::path& staged)>;

/// A background writer of ScenarioRecords into one batch folder. Thread-safe.
class ResultWriter {
 public:
  /// Starts the writer thread for `batch_dir`. With `node_files` (which must outlive the
  /// writer), every folder is written through NodeFileStore::PublishScenario so that vehicle
  /// nodes' files are kept and moved in. `stage_hook`, when set, is called for every folder.
  explicit ResultWriter(std::filesystem::path batch_dir, NodeFileStore* node_files = nullptr,
                        StageHook stage_hook = {});
  /// Writes what is queued, then stops.
  ~ResultWriter();
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;

  /// Queues a record; it is written in submission order, as its scenario's folder in the batch
  /// folder, or, when `folder` is given, as that folder (e.g. a reproduction run's,
  /// "<batch>/reproduce/scenario_0042_run_1", its parent in the batch folder; written without
  /// the vehicle nodes' files).
  void Submit(results::ScenarioRecord record, std::filesystem::path folder = {});

  /// Blocks until every record submitted so far is written.
  void Drain();

  /// The first write error, "scenario 7: <path>: cannot write: No space left on device", empty
  /// when every write succeeded.
  std::string error() const;

  /// The outcomes (result and timing) of the records written since the last call, in the order
  /// they were renamed into place.
  std::vector<results::ScenarioOutcome> TakeWritten();

 private:
  /// A queued record and the folder it goes to (empty: its scenario's own).
  struct Entry {
    results::ScenarioRecord record;
    std::filesystem::path folder;
  };

  void Loop();
  /// Writes one group of records; returns the first error, empty when all were written.
  std::string WriteGroup(const std::vector<Entry>& group);
  /// Makes the staged folders durable and renames them into place; returns the first error.
  std::string PublishGroup(
      const std::vector<std::pair<const Entry*, std::filesystem::path>>& staged);
  /// Renames one staged folder into place.
  void Publish(const Entry& entry, const std::filesystem::path& staged);

  static constexpr size_t kMaxGroup = 64;  ///< records committed by one sync at most
  /// Records of a group from which two threads stage its folders.
  static constexpr size_t kParallelStaging = 8;

  std::filesystem::path batch_dir_;
  NodeFileStore* node_files_;
  StageHook stage_hook_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Entry> queue_;
  bool busy_ = false;      // a record is being written
  bool stopping_ = false;  // the destructor asked the thread to finish
  std::string error_;
  std::vector<results::ScenarioOutcome> written_;  // see TakeWritten
  std::thread thread_;                             // last: starts after the members it uses
};

}  // namespace asg::client
