// The process's limit of open files.
#pragma once

#include <cstdint>

namespace asg::core {

/// Raises this process's soft limit of open files (RLIMIT_NOFILE) to its hard limit and returns
/// the soft limit now in force: a process holding a thousand connections needs more descriptors
/// than the usual soft limit of 1024, and without them accepting and writing files fail.
uint64_t RaiseOpenFileLimit();

}  // namespace asg::core
