// What the batch report reads of one scenario folder (results::ReadScenarioFolder): the table
// row of data.js, the scenario page's data, and the captures the pages show.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/report_pages.h"
#include "results/folder.h"

namespace asg::report {

/// The capture a table row and a failure card show: the first annotated ortho aerial, else the
/// first ortho aerial, else the first annotated view; empty without one.
std::string Thumbnail(const std::vector<std::string>& captures);

/// Reads the scenario folder `folder` into `scenario` (its page's data and files) and returns its
/// table row: the fields of result.json and timing.json that the index's table shows, null where
/// the folder has none. Throws results::ResultError naming the file that cannot be read.
json::Json ReadScenario(const std::filesystem::path& folder, ReportScenario* scenario);

}  // namespace asg::report
