// FormatNumber: integers as integers, everything else as the shortest round-trip text, which
// nlohmann's serializer (Grisu2) writes.
#include "core/number_format.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

std::string FormatNumber(double value, int significant_digits) {
  if (!std::isfinite(value)) return FormatNumber(value);
  // Rounded in decimal, as printf rounds, then read back: the shortest text of the result.
  char text[64];
  std::snprintf(text, sizeof text, "%.*e", significant_digits - 1, value);
  return FormatNumber(std::strtod(text, nullptr));
}

}  // namespace asg::core
