// Parsing of --fault-inject specs.
#include "worker/fault_injection.h"

#include <charconv>
#include <sstream>
#include <stdexcept>

#include "protocol/messages.h"

namespace asg::worker {

FaultInjection ParseFaultInjection(const std::string& spec) {
  FaultInjection faults;
  std::istringstream items(spec);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty()) continue;
    const size_t equals = item.find('=');
    const std::string kind = item.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : item.substr(equals + 1);
    uint32_t number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (value.empty() || error != std::errc() || end != value.data() + value.size() || number < 1 ||
        number > protocol::kMaxScenarioNumber) {
      throw std::invalid_argument("fault injection \"" + item +
                                  "\": expected KIND=N with N a scenario number in 1..2147483647");
    }
    const uint32_t scenario = number;
    if (kind == "crash-on") {
      faults.crash_on.insert(scenario);
    } else if (kind == "hang-on") {
      faults.hang_on.insert(scenario);
    } else if (kind == "silent-on") {
      faults.silent_on.insert(scenario);
    } else if (kind == "mismatch-on") {
      faults.mismatch_on.insert(scenario);
    } else {
      throw std::invalid_argument("fault injection \"" + item + "\": unknown kind \"" + kind +
                                  "\" (expected crash-on, hang-on, silent-on, mismatch-on)");
    }
  }
  return faults;
}

}  // namespace asg::worker
