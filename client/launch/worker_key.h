// How the farm names a worker's connection, and the clock of its deadlines: shared by the
// launchers, which report their workers by connection, and the farm above them.
#pragma once

#include <chrono>
#include <cstdint>

namespace asg::client {

/// Identifies one worker connection for the farm's lifetime; never reused.
using WorkerKey = uint64_t;
/// The clock of every attempt, scheduler deadline and launcher tick.
using SteadyClock = std::chrono::steady_clock;

}  // namespace asg::client
