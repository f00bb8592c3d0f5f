// Progress of a batch for a person watching: on a terminal one live line rewritten in place
// (carriage return), elsewhere a plain line every few seconds. Each shows scenarios finished of
// the total, counts per status and per termination reason, scenarios per second and the ETA:
//   [ 412/1000] done 405 invalid 5 failed 2 | success 301 collision 60 sim_timeout 44 |
//   17.2/s ETA 34 s
// With show_regret (a batch that searches), a regret part follows the reason counts: the best
// regret so far and how many results have a regret at or above 0.375, 0.5, 0.75 and 1.0:
//   ... | regret best 1.204 >=0.375 88 >=0.5 41 >=0.75 9 >=1 2 | 17.2/s ETA 34 s
// Not thread-safe: used by the farm's thread only (its records and its loop).
#pragma once

#include <chrono>
#include <cstddef>
#include <iterator>
#include <map>
#include <ostream>
#include <string>

#include "results/record.h"

namespace asg::client {

/// How progress is shown.
struct ProgressSettings {
  bool enabled = true;  ///< false prints nothing
  bool live = false;    ///< rewrite one line in place (a terminal); else periodic lines
  std::chrono::milliseconds live_period{200};    ///< [ms] between live redraws
  std::chrono::milliseconds plain_period{5000};  ///< [ms] between plain lines
  bool show_regret = false;  ///< add the best regret and the counts above the thresholds
};

/// The regret thresholds of the research metrics (docs/regret.md): counts at or above each.
inline constexpr double kRegretThresholds[] = {0.375, 0.5, 0.75, 1.0};

/// Counts outcomes and prints the progress line.
class Progress {
 public:
  /// `total` scenarios in the batch; `out` must outlive this object.
  Progress(size_t total, const ProgressSettings& settings, std::ostream& out);

  /// Counts a scenario already finished before this run (resumed); not part of the rate.
  void CountPrevious(const results::ScenarioResult& result);
  /// Counts a scenario finished in this run.
  void Count(const results::ScenarioResult& result);

  /// Prints when the period has passed since the last print (or always when `force`).
  void Update(std::chrono::steady_clock::time_point now, bool force = false);
  /// Prints the final state and ends the live line.
  void Finish(std::chrono::steady_clock::time_point now);
  /// Prints `message` on a line of its own (above the live line, which is drawn again at the
  /// next Update), even when quiet: things a person must see, such as a worker that died.
  void Note(const std::string& message);

  /// A state the line ends with until cleared with "", e.g. "waiting for vehicle nodes of
  /// worker 1 (0 of 1 registered) 12/60 s".
  void SetStatus(std::string status) { status_ = std::move(status); }
  /// The workers' launcher's state, shown before the status, e.g. "slurm job 42: 3 running, 1
  /// pending"; "" shows nothing.
  void SetWorkers(std::string workers) { workers_ = std::move(workers); }

  /// Scenarios counted so far.
  size_t finished() const { return finished_; }
  /// The progress text without line control, for tests and logs.
  std::string Line(std::chrono::steady_clock::time_point now) const;

 private:
  void Add(const results::ScenarioResult& result);

  size_t total_;
  ProgressSettings settings_;
  std::ostream& out_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
  size_t finished_ = 0;
  size_t finished_this_run_ = 0;
  size_t last_width_ = 0;  // length of the live line last drawn
  std::string status_;     // see SetStatus
  std::string workers_;    // see SetWorkers
  std::map<std::string, size_t> status_counts_;
  std::map<std::string, size_t> reason_counts_;
  size_t with_regret_ = 0;  // results of done scenarios whose regret was computed
  double best_regret_ = 0.0;
  size_t above_[std::size(kRegretThresholds)] = {};  // at or above each threshold
};

}  // namespace asg::client
