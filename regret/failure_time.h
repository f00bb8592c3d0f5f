// Up to which moment a failed run's path cost C and time T are measured (docs/regret.md, "A
// failure's regret does not depend on the timer"). A plain value with no dependencies: the
// request carries it (protocol::RegretSpec) and regret::ComputeRegret reads it.
#pragma once

#include <cstdint>

namespace asg::regret {

/// Where a failed run's C and T stop; a successful run is always measured to its end.
enum class FailureTime : uint8_t {
  /// Up to the failure moment: the first trajectory sample from which the vehicle stays within
  /// kStopRadius of its final position to the end of the run. The default.
  kFailureMoment,
  /// Up to the run's last sample, whichever timeout ended it: the research code's formula.
  kEndOfRun,
};

/// [m] how close to its final position a failed vehicle stays from its failure moment on.
inline constexpr double kStopRadius = 0.5;

}  // namespace asg::regret
