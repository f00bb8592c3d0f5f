// Non-inline parts of messages.h and geometry.h.
#include "protocol/messages.h"

#include <array>
#include <cmath>
#include <utility>

namespace asg::protocol {

Time Time::FromSeconds(double seconds) {
  const auto total_ns = static_cast<int64_t>(std::llround(seconds * 1e9));
  int64_t sec = total_ns / 1'000'000'000;
  int64_t ns = total_ns % 1'000'000'000;
  if (ns < 0) {
    ns += 1'000'000'000;
    sec -= 1;
  }
  return Time{static_cast<int32_t>(sec), static_cast<uint32_t>(ns)};
}

namespace {
constexpr std::array<std::pair<TerminationReason, std::string_view>, 7> kReasonNames{{
    {TerminationReason::REASON_SUCCESS, "REASON_SUCCESS"},
    {TerminationReason::REASON_VEHICLE_COLLISION, "REASON_VEHICLE_COLLISION"},
    {TerminationReason::REASON_VEHICLE_FLIPPED, "REASON_VEHICLE_FLIPPED"},
    {TerminationReason::REASON_SIM_TIMEOUT, "REASON_SIM_TIMEOUT"},
    {TerminationReason::REASON_VEHICLE_IDLING_TIMEOUT, "REASON_VEHICLE_IDLING_TIMEOUT"},
    {TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT, "REASON_VEHICLE_STUCK_TIMEOUT"},
    {TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS, "REASON_VEHICLE_OUT_OF_BOUNDS"},
}};
}  // namespace

std::string_view TerminationReasonName(TerminationReason reason) {
  for (const auto& [value, name] : kReasonNames) {
    if (value == reason) return name;
  }
  return "REASON_UNKNOWN";
}

bool TerminationReasonFromName(std::string_view name, TerminationReason* reason) {
  for (const auto& [value, known] : kReasonNames) {
    if (known == name) {
      *reason = value;
      return true;
    }
  }
  return false;
}

}  // namespace asg::protocol
