// The batch HTML report: DIR/index.html, DIR/report/ (style, scripts, data.js) and one page per
// scenario, DIR/scenario_NNNN[_<variant>]/index.html, rebuilt from the folders alone.
//
//   DIR/index.html             batch facts (the batch's wall time and throughput, a resumed
//                              run's beside them; the failing scenarios beside the distinct and
//                              reliable failures and the near misses, linked to failures.html),
//                              outcome charts, histograms, the landscape map, a search's regret
//                              per generation and its archive map, a replay's family trees, and
//                              a sortable, filterable, paged table (regret, collisions, failure
//                              kind, "edited", origin and generation, a replay's source, zooming
//                              thumbnails; state kept in the URL fragment)
//   DIR/report/data.js         window.ASG_REPORT = {batch, rows, search, archive, family_trees}:
//                              one row per folder
//   DIR/report/archive_map.png a map-elites search's archive (archive_map.h)
//   DIR/report/*.css, *.js     the page code (report_assets.h), no network, no server
//   DIR/scenario_*/index.html  the outcome (reason, sim time, regret, collisions, failure kind,
//                              "edited"), the driven path (broken at teleports) beside the
//                              reference path over the ortho aerial or the obstacles, with the
//                              first contact and the obstacle hit, also drawn over the ortho
//                              captures; speed, roll, pitch and yaw over time, a searched
//                              scenario's candidate, origin, parents and generation, its distinct
//                              failure, a replay's source, a person's interventions and the
//                              interactive runs, request and result, nodes/ files
//   DIR/failures.html          the distinct failures (failures_page.h), written by whoever found
//                              them, not by WriteBatchReport
//
// Inputs: result.json (required in every scenario folder; its `interventions` as written),
// timing.json, request.json, trajectory.csv, search.json, captures/, nodes/ and
// interactive/scenario_*/ when present; DIR/summary.json, DIR/failures.json, DIR/replay.json,
// DIR/family_trees.png, DIR/search.csv, DIR/search.json and DIR/archive.csv when present. No
// clock is read: the same folders give the same bytes.
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "json/json.h"

namespace asg::report {

/// A batch folder whose report cannot be written; the message names the path.
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// True when `dir` is a folder holding batch_identity.json (what `run` writes first).
bool IsBatchFolder(const std::filesystem::path& dir);

/// True when `dir` is a scenario folder's interactive/ folder (docs/interactive.md) holding a
/// scenario folder with a result.json: its report is written like a batch's.
bool IsInteractiveFolder(const std::filesystem::path& dir);

/// Writes the page code of report_assets.h into `batch_dir`/report/ (each file atomically).
/// Throws ReportError or results::ResultError naming the folder or file that cannot be written.
void InstallReportAssets(const std::filesystem::path& batch_dir);

/// What the writes of one batch's report remember of each scenario folder, so that the next
/// write neither reads a folder again nor writes its page when nothing changed: the folder,
/// result.json, timing.json, request.json and trajectory.csv each of the same inode, size and
/// modification time (folders are published whole and files replaced, never rewritten in
/// place), the same failure kind, replay source and interactive runs, and the page on disk the
/// one written. Holds each folder's table row, not its page. Not thread-safe: one write at a
/// time.
class ReportCache {
 public:
  /// What was read of one folder and written of its page.
  struct Entry {
    std::string stamp;       ///< the inodes, sizes and modification times of the folder's files
    json::Json row;          ///< the table row as read (before failure kind and source)
    json::Json extras;       ///< failure kind, source and interactive runs of the page
    std::string page_stamp;  ///< inode, size and time of the page written; empty: none yet
  };
  /// The entry of scenario folder `name` (created empty).
  Entry& Of(const std::string& name) { return entries_[name]; }

 private:
  std::map<std::string, Entry> entries_;
};

/// Writes the report of the batch folder (or interactive folder) `batch_dir` (see above), replacing
/// an earlier one file by file atomically (a reader sees each page old or new, never a short one;
/// the scenario pages as one group with one sync). With `cache`, what an earlier write of the same
/// report read and wrote is used where the folder is unchanged (ReportCache). Throws ReportError
/// when `batch_dir` is neither, and ReportError or results::ResultError naming the file that
/// cannot be read or written.
void WriteBatchReport(const std::filesystem::path& batch_dir, ReportCache* cache = nullptr);

/// Rewrites a running batch's report on a thread of its own whenever scenario folders were
/// published since the last write (the batch folder's modification time changed), at most
/// every `period` and at most every ten times the last write's duration, so that a large batch
/// spends at most a tenth of a core on it. Each file is replaced atomically: a browser reload
/// shows a whole page. Failures are given to `on_error` (called on that thread) and retried at
/// the next period.
class ReportRefresher {
 public:
  /// `cache` (owned by the caller, outliving the refresher; may be null) is used by each write
  /// and may be given to the final WriteBatchReport once the refresher is gone.
  ReportRefresher(std::filesystem::path batch_dir, std::chrono::milliseconds period,
                  std::function<void(const std::string&)> on_error, ReportCache* cache = nullptr);
  /// Stops the thread (a write in progress finishes first).
  ~ReportRefresher();
  ReportRefresher(const ReportRefresher&) = delete;
  ReportRefresher& operator=(const ReportRefresher&) = delete;

 private:
  void Loop();

  std::filesystem::path batch_dir_;
  std::chrono::milliseconds period_;
  std::function<void(const std::string&)> on_error_;
  ReportCache* cache_;
  std::mutex mutex_;
  std::condition_variable stop_requested_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace asg::report
