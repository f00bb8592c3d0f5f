// A result folder's CSV file as a table (csv_table.h).
#include "report/csv_table.h"

#include <charconv>
#include <string>
#include <string_view>

#include "results/files.h"

namespace asg::report {

namespace fs = std::filesystem;
using json::Json;

Json ReadCsvTable(const fs::path& file) {
  const std::string text = results::ReadTextFile(file);
  Json table = {{"columns", Json::array()}, {"rows", Json::array()}};
  std::string_view rest = text;
  bool header = true;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (line.empty()) continue;
    Json row = Json::array();
    for (const std::string_view field : results::CsvFields(line)) {
      double value = 0.0;
      const auto [ptr, error] = std::from_chars(field.data(), field.data() + field.size(), value);
      if (!header && error == std::errc() && ptr == field.data() + field.size() && !field.empty()) {
        row.push_back(value);
      } else {
        row.push_back(std::string(field));
      }
    }
    (header ? table["columns"] : table["rows"].emplace_back()) = row;
    header = false;
  }
  return table;
}

}  // namespace asg::report
