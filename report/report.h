// The batch HTML report: DIR/index.html, DIR/report/ (style, scripts, data.js) and one page per
// scenario, DIR/scenario_NNNN[_<variant>]/index.html, rebuilt from the folders alone.
//
//   DIR/index.html             batch facts, outcome charts, histograms, the landscape map and a
//                              sortable, filterable, paged table (state kept in the URL fragment)
//   DIR/report/data.js         window.ASG_REPORT = {batch, rows, search}: one row per folder
//   DIR/report/*.css, *.js     the page code (report_assets.h), no network, no server
//   DIR/scenario_*/index.html  captures, trajectory over the ortho aerial or the obstacles, speed,
//                              roll, pitch and yaw over time, request and result, nodes/ files
//
// Inputs: result.json (required in every scenario folder), timing.json, request.json,
// trajectory.csv, captures/ and nodes/ when present; DIR/summary.json and DIR/search.csv when
// present. No clock is read: the same folders give the same bytes.
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace asg::report {

/// A batch folder whose report cannot be written; the message names the path.
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// True when `dir` is a folder holding batch_identity.json (what `run` writes first).
bool IsBatchFolder(const std::filesystem::path& dir);

/// Writes the report of the batch folder `batch_dir` (see above), replacing an earlier one.
/// Throws ReportError when `batch_dir` is not a batch folder, and ReportError or
/// results::ResultError naming the file that cannot be read or written.
void WriteBatchReport(const std::filesystem::path& batch_dir);

/// Rewrites a running batch's report on a thread of its own whenever scenario folders were
/// published since the last write (the batch folder's modification time changed), at most
/// every `period` and at most every ten times the last write's duration, so that a large batch
/// spends at most a tenth of a core on it. Each file is replaced atomically: a browser reload
/// shows a whole page. Failures are given to `on_error` (called on that thread) and retried at
/// the next period.
class ReportRefresher {
 public:
  ReportRefresher(std::filesystem::path batch_dir, std::chrono::milliseconds period,
                  std::function<void(const std::string&)> on_error);
  /// Stops the thread (a write in progress finishes first).
  ~ReportRefresher();
  ReportRefresher(const ReportRefresher&) = delete;
  ReportRefresher& operator=(const ReportRefresher&) = delete;

 private:
  void Loop();

  std::filesystem::path batch_dir_;
  std::chrono::milliseconds period_;
  std::function<void(const std::string&)> on_error_;
  std::mutex mutex_;
  std::condition_variable stop_requested_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace asg::report
