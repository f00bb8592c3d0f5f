// Files of hand-made batch folders for the report's tests: text written and read back whole, and
// the smallest result.json of a done scenario.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace asg::report::testing {

/// Writes `text` into `file`, creating its folders.
inline void WriteText(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

/// The whole content of `file` (empty when it cannot be read).
inline std::string ReadText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// result.json of done scenario `number` that ended for termination reason `reason` (its number
/// and name), with no counters.
inline std::string DoneResultJson(int number, int reason = 1,
                                  const std::string& reason_name = "REASON_SUCCESS") {
  return "{\"scenario_number\": " + std::to_string(number) +
         ", \"status\": \"done\", \"seed\": 0, \"reruns\": [], \"captures\": [], "
         "\"termination_reason\": " +
         std::to_string(reason) + ", \"termination_reason_name\": \"" + reason_name +
         "\", \"vehicle_sim_time\": 0.0, \"counters\": {}}";
}

}  // namespace asg::report::testing
