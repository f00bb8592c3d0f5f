// failures.csv and failures.json: the distinct failures of a batch, one row each, and the
// terminal's table of them. Byte-deterministic: the same failures give the same bytes.
//
// failures.csv: header kFailuresCsvHeader, then one line per distinct failure by failure_id:
// failure_id (1, 2, ... in order of first appearance by scenario number), kind (collision, flip,
// stuck, out_of_bounds, timeout, high_regret), representative (its highest-regret member),
// members (how many scenarios are copies of it), first_found (its smallest member), x, y [m]
// (where it happened: the first member's failure point) and max_regret (empty when no member's
// regret was measured); numbers in their shortest round-trip form. When reproduction runs were
// judged (reproduce > 0, reproduction.h) two more columns follow, kReproductionCsvColumns:
// reproduced and runs (empty for a failure none of whose runs ran); with reproduce 0 the file
// has the first eight columns only.
// failures.json: {"regret_threshold", "reproduce", "failing_scenarios", "distinct_failures",
// "reliable_failures" and "reproduction_runs" (when reproduce > 0), "failures": [{the same keys
// as the CSV's columns, "member_scenarios": [every member, ascending], "reproduction_folders":
// [each run's folder] (when judged)}], "contacts", "contact_scenarios": [the near misses'
// scenario numbers, ascending]}. The near misses (kind contact: successes below the threshold
// that touched a non-traversable obstacle) are no failures and have no row in failures.csv;
// "contacts" is their count.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "client/failures/batch_failures.h"
#include "json/declare.h"
#include "json/json.h"

namespace asg::client {

/// The first line of failures.csv (without the newline).
inline constexpr std::string_view kFailuresCsvHeader =
    "failure_id,kind,representative,members,first_found,x,y,max_regret";
/// The columns failures.csv's header ends with when reproduction runs were judged.
inline constexpr std::string_view kReproductionCsvColumns = ",reproduced,runs";

/// failures.csv's text.
std::string FailuresCsv(const BatchFailures& batch_failures);

/// failures.json's object.
json::Json FailuresJson(const BatchFailures& batch_failures);

/// Writes `batch_dir`/failures.csv and failures.json, each atomically. Throws
/// results::ResultError naming the file.
void WriteFailuresFiles(const std::filesystem::path& batch_dir,
                        const BatchFailures& batch_failures);

/// Reads `batch_dir`/failures.json back strictly (its `done` stays empty; a file without
/// "contacts" and "contact_scenarios", written before they were, reads with none). Throws
/// results::ResultError "<file>: <json path>: <problem>" when it cannot be read or parsed.
BatchFailures ReadFailuresJson(const std::filesystem::path& batch_dir);

/// The terminal's table: a line with the threshold and the counts (failing scenarios, distinct
/// failures, the reliable ones when reproduction runs were judged, near misses), then one line
/// per distinct failure (failure_id, kind, representative, members, first_found, x, y,
/// max_regret, and reproduced as "4/5").
std::string FormatFailuresTable(const BatchFailures& batch_failures);

}  // namespace asg::client
