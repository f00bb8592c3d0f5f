// archive.csv: the archive of a quality-diversity search (search/map_elites_strategy.h) after
// each told generation, one row per occupied cell, rewritten whole (atomically) after each
// generation like search.csv. Written only for a strategy that keeps an archive. Every value is
// deterministic: the same search writes the same file with 1 or N workers and after --resume.
// Columns: generation (the one just told), cell_x, cell_y (the point's column and row on the
// grid over the landscape, 0 at its low edge), outcome ("none" or the failure kind), near_path
// (the obstacles-near-path bin), candidate_id (the cell's elite), scenario (the elite's first
// run's scenario number), regret (the elite's, as told: the mean over its runs).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "search/strategy.h"

namespace asg::client {

/// The rows of archive.csv so far.
class ArchiveLog {
 public:
  /// Writes into `out_dir`.
  explicit ArchiveLog(std::filesystem::path out_dir);

  /// Adds the archive after `generation` was told: its `entries` in cell order, each elite named
  /// by its first run's number in `number_of_id` (candidate id -> scenario number; every elite
  /// must be there).
  void Add(uint32_t generation, const std::vector<search::ArchiveEntry>& entries,
           const std::map<uint64_t, uint32_t>& number_of_id);
  /// Rewrites archive.csv. Throws results::ResultError on an I/O error.
  void Write() const;

 private:
  std::filesystem::path out_dir_;
  std::string rows_;  // the CSV's lines after its header
};

}  // namespace asg::client
