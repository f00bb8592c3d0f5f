// A batch folder's CSV file (search.csv, archive.csv) read as a table for the report's pages.
#pragma once

#include <filesystem>

#include "json/json.h"

namespace asg::report {

/// The CSV file `file` (results::CsvFields: no quoted fields) as {"columns": [the header's
/// names], "rows": [[...], ...]}: a field that reads whole as a number is that number, any other
/// a string; empty lines are skipped. Throws results::ResultError when it cannot be read.
json::Json ReadCsvTable(const std::filesystem::path& file);

}  // namespace asg::report
