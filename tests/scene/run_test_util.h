// Unwrapping driver verdicts and run outcomes in tests: an abort fails the calling test.
#pragma once

#include <gtest/gtest.h>

#include <utility>
#include <variant>

#include "scene/driver.h"
#include "scene/scenario_runner.h"

namespace asg::scene::testing {

/// The control of `verdict`; a DriverAbort adds a test failure naming its reason and gives a
/// zero control.
inline protocol::PhysXControl ControlOf(const DriverVerdict& verdict) {
  if (const auto* abort = std::get_if<DriverAbort>(&verdict)) {
    ADD_FAILURE() << "the driver aborted: " << abort->reason;
    return {};
  }
  return std::get<protocol::PhysXControl>(verdict);
}

/// The result of `outcome`; a RunAborted adds a test failure naming its reason and gives an
/// empty result.
inline RunResult ResultOf(RunOutcome outcome) {
  if (const auto* aborted = std::get_if<RunAborted>(&outcome)) {
    ADD_FAILURE() << "the run was aborted: " << aborted->reason;
    return {};
  }
  return std::get<RunResult>(std::move(outcome));
}

}  // namespace asg::scene::testing
