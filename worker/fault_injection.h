// Deliberate faults a worker can be told to commit, for testing the farm's fault handling
// end to end (asg-worker --fault-inject, asg-client --fault-inject). Never set in production.
//
// Spec: comma-separated KIND=SCENARIO items, e.g. "crash-on=3,hang-on=7":
//   crash-on=N     the process kills itself with SIGKILL when it is about to run scenario N
//   hang-on=N      the worker starts scenario N and never finishes it (heartbeats go on)
//   silent-on=N    the worker accepts scenario N but never starts it (no StatusCode RUNNING)
//   mismatch-on=N  the worker reports scenario N's result under the number N + 1
#pragma once

#include <cstdint>
#include <set>
#include <string>

namespace asg::worker {

/// The faults to commit, by scenario number.
struct FaultInjection {
  std::set<uint32_t> crash_on;
  std::set<uint32_t> hang_on;
  std::set<uint32_t> silent_on;
  std::set<uint32_t> mismatch_on;
  bool operator==(const FaultInjection&) const = default;
};

/// Parses a spec (see above); an empty spec injects nothing. Throws std::invalid_argument naming
/// the item for an unknown kind or a scenario number that is not an integer in 1..65535.
FaultInjection ParseFaultInjection(const std::string& spec);

}  // namespace asg::worker
