// Tests for client/search/archive_log.h.
#include "client/search/archive_log.h"

#include <gtest/gtest.h>

#include "results/files.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

TEST(ArchiveLog, WritesEveryToldGenerationsCellsWithTheirElitesScenarios) {
  testutil::TempDir dir;
  ArchiveLog log(dir.path());
  const std::map<uint64_t, uint32_t> number_of_id{{1, 11}, {2, 14}, {5, 23}};
  log.Add(0, {{{2, 3, 0, 1}, 1, 0.25}}, number_of_id);
  log.Add(1, {{{2, 3, 0, 1}, 1, 0.25}, {{5, 2, 1, 3}, 5, 1.5}}, number_of_id);
  log.Write();
  EXPECT_EQ(results::ReadTextFile(dir.path() / "archive.csv"),
            "generation,cell_x,cell_y,outcome,near_path,candidate_id,scenario,regret\n"
            "0,2,3,none,1,1,11,0.250000\n"
            "1,2,3,none,1,1,11,0.250000\n"
            "1,5,2,collision,3,5,23,1.500000\n");
}

TEST(ArchiveLog, WritesTheHeaderAloneBeforeAnyCell) {
  testutil::TempDir dir;
  ArchiveLog log(dir.path());
  log.Add(0, {}, {});
  log.Write();
  EXPECT_EQ(results::ReadTextFile(dir.path() / "archive.csv"),
            "generation,cell_x,cell_y,outcome,near_path,candidate_id,scenario,regret\n");
}

}  // namespace
}  // namespace asg::client
