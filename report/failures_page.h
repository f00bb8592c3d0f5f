// The failures page of the batch report, DIR/failures.html (docs/failures.md): one card per
// distinct failure, most reproducible first, and the near misses.
//
// A card shows the representative's annotated ortho aerial (the capture the index's table shows;
// without captures, its trajectory over the obstacles, drawn by report/failures.js, with the
// failure point marked), the kind, where it happened (x, y), the representative and every copy
// (links to their scenario pages), the highest regret and the reproducibility: "4/5 runs,
// reliable" with a link to each reproduction run's result.json. Cards are sorted by reproduced /
// runs, descending (failures whose runs were not judged last), then by max_regret, descending
// (none last), then by failure_id. A batch without failures gets a page that says so. The page
// is written by whoever found or read the failures (failures.json's content, handed in as
// FailuresPage): the same failures and folders give the same bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "failures/clustering.h"
#include "failures/failure_kind.h"

namespace asg::report {

/// A distinct failure as its card shows it.
struct FailureCard {
  failures::FailureCluster cluster;  ///< its row of failures.json
  bool reliable = false;  ///< reproduced in at least FailuresPage::reliable_minimum of its runs
};

/// What the failures page shows: the content of failures.json.
struct FailuresPage {
  double regret_threshold = failures::kDefaultRegretThreshold;  ///< the one they were judged at
  uint32_t reproduce = 0;          ///< failures.reproduce: runs per representative; 0 for none
  uint32_t reliable_minimum = 0;   ///< reproducing runs, of `reproduce`, that make one reliable
  uint32_t failing_scenarios = 0;  ///< scenarios that are failures
  std::vector<FailureCard> cards;  ///< every distinct failure, in any order
  std::vector<uint32_t> contact_scenarios;  ///< the near misses' scenario numbers, ascending
};

/// `cards` in the page's order (see above).
std::vector<FailureCard> PageOrder(std::vector<FailureCard> cards);

/// Writes `batch_dir`/failures.html (atomically) for `page`, reading each representative's
/// folder for its captures and trajectory, and the page code it uses (InstallReportAssets). Throws
/// ReportError when `batch_dir` is not a batch folder, and ReportError or results::ResultError
/// naming the file that cannot be read or written.
void WriteFailuresPage(const std::filesystem::path& batch_dir, const FailuresPage& page);

}  // namespace asg::report
