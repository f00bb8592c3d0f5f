// The worker's log: lines in the client's format ("[YYYY-MM-DD hh:mm:ss.ffffff] [LEVEL] ...")
// on stderr, which the client sends to the worker's log file. Thread-safe.
#pragma once

#include <string_view>

#include "core/log.h"

namespace asg::worker {

/// Writes one timestamped line to stderr; lines from different threads never interleave.
void Log(core::LogLevel level, std::string_view message);

}  // namespace asg::worker
