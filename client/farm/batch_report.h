// The batch report with its failures page (report/report.h, report/failures_page.h): the farm
// writes both at the end of a run, `asg-client report DIR` rewrites both from the folders and
// failures.json, `asg-client failures DIR` rewrites the failures page with the files it rebuilds.
#pragma once

#include <filesystem>

#include "client/failures/batch_failures.h"
#include "report/failures_page.h"

namespace asg::client {

/// The failures page's content for `found` (as FindBatchFailures and WriteBatchFailures left
/// it, or as ReadFailuresJson read it back): the same failures give the same page.
report::FailuresPage FailuresPageOf(const BatchFailures& found);

/// Writes `batch_dir`/failures.html for `found` (report::WriteFailuresPage). Throws
/// report::ReportError or results::ResultError naming the file.
void WriteFailuresPage(const std::filesystem::path& batch_dir, const BatchFailures& found);

/// Writes the batch report of `batch_dir` and, when it has failures.json, its failures page from
/// it (`asg-client report DIR`). Throws report::ReportError or results::ResultError naming the
/// file that cannot be read or written.
void WriteBatchReportWithFailures(const std::filesystem::path& batch_dir);

}  // namespace asg::client
