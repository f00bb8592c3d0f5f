// archive.csv, rebuilt from the rows after every told generation.
#include "client/search/archive_log.h"

#include <cstdio>
#include <utility>

#include "client/search/run_outcome.h"
#include "core/check.h"
#include "results/files.h"

namespace asg::client {

ArchiveLog::ArchiveLog(std::filesystem::path out_dir) : out_dir_(std::move(out_dir)) {}

void ArchiveLog::Add(uint32_t generation, const std::vector<search::ArchiveEntry>& entries,
                     const std::map<uint64_t, uint32_t>& number_of_id) {
  for (const search::ArchiveEntry& entry : entries) {
    const auto number = number_of_id.find(entry.elite);
    ASG_CHECK(number != number_of_id.end());
    char regret[32];
    std::snprintf(regret, sizeof regret, "%.6f", entry.regret);
    rows_ += std::to_string(generation) + "," + std::to_string(entry.cell.x) + "," +
             std::to_string(entry.cell.y) + "," + OutcomeName(entry.cell.outcome) + "," +
             std::to_string(entry.cell.near_path) + "," + std::to_string(entry.elite) + "," +
             std::to_string(number->second) + "," + regret + "\n";
  }
}

void ArchiveLog::Write() const {
  results::WriteFileAtomically(
      out_dir_ / "archive.csv",
      "generation,cell_x,cell_y,outcome,near_path,candidate_id,scenario,regret\n" + rows_);
}

}  // namespace asg::client
