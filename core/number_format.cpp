// FormatNumber: integers as integers, everything else as the shortest round-trip text, which
// nlohmann's serializer (Grisu2) writes.
#include "core/number_format.h"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace asg::core {

std::string FormatNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == std::trunc(value) && std::abs(value) < 1e15) {
    return std::to_string(static_cast<int64_t>(value));
  }
  return nlohmann::json(value).dump();
}

}  // namespace asg::core
