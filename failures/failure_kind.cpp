#include "failures/failure_kind.h"

#include "core/check.h"

namespace asg::failures {

std::string_view FailureKindName(FailureKind kind) {
  for (const auto& entry : kFailureKindTable) {
    if (entry.value == kind) return entry.name;
  }
  ASG_CHECK(false);
}

bool FailureKindFromName(std::string_view name, FailureKind* kind) {
  for (const auto& entry : kFailureKindTable) {
    if (entry.name == name) {
      *kind = entry.value;
      return true;
    }
  }
  return false;
}

bool IsFailure(FailureKind kind) { return kind != FailureKind::kContact; }

namespace {

/// The kind of a run that ended for `reason`, which is not REASON_SUCCESS.
FailureKind KindOfFailedRun(protocol::TerminationReason reason) {
  using protocol::TerminationReason;
  switch (reason) {
    case TerminationReason::REASON_VEHICLE_COLLISION:
      return FailureKind::kCollision;
    case TerminationReason::REASON_VEHICLE_FLIPPED:
      return FailureKind::kFlip;
    case TerminationReason::REASON_SIM_TIMEOUT:
    case TerminationReason::REASON_VEHICLE_IDLING_TIMEOUT:
      return FailureKind::kTimeout;
    case TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT:
      return FailureKind::kStuck;
    case TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS:
      return FailureKind::kOutOfBounds;
    case TerminationReason::REASON_SUCCESS:
      break;
  }
  ASG_CHECK(false);
}

}  // namespace

std::optional<FailureKind> ClassifyRun(protocol::TerminationReason reason,
                                       std::optional<double> regret, double threshold,
                                       bool touched) {
  if (reason != protocol::TerminationReason::REASON_SUCCESS) return KindOfFailedRun(reason);
  if (regret && *regret >= threshold) return FailureKind::kHighRegret;
  if (touched) return FailureKind::kContact;
  return std::nullopt;
}

}  // namespace asg::failures
