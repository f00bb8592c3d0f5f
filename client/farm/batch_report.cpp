// The batch report with its failures page (batch_report.h).
#include "client/farm/batch_report.h"

#include "client/failures/failures_file.h"
#include "client/failures/reproduction.h"
#include "report/report.h"

namespace asg::client {

report::FailuresPage FailuresPageOf(const BatchFailures& found) {
  report::FailuresPage page;
  page.regret_threshold = found.regret_threshold;
  page.reproduce = found.reproduce;
  page.reliable_minimum = ReliableMinimum(found.reproduce);
  page.failing_scenarios = found.failing_scenarios;
  for (const failures::FailureCluster& cluster : found.clusters) {
    page.cards.push_back({cluster, IsReliable(cluster, found.reproduce)});
  }
  page.contact_scenarios = found.contact_scenarios;
  return page;
}

void WriteFailuresPage(const std::filesystem::path& batch_dir, const BatchFailures& found) {
  report::WriteFailuresPage(batch_dir, FailuresPageOf(found));
}

void WriteBatchReportWithFailures(const std::filesystem::path& batch_dir) {
  report::WriteBatchReport(batch_dir);
  if (std::filesystem::is_regular_file(batch_dir / "failures.json")) {
    WriteFailuresPage(batch_dir, ReadFailuresJson(batch_dir));
  }
}

}  // namespace asg::client
