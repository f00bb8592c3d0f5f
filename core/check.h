// ASG_CHECK: an always-on internal invariant check for every module. A failed check prints the
// condition, file and line to stderr and aborts; it is for programming errors, never for bad
// input (which throws with a message naming the item and value).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace asg::core {

/// Prints a failed check and aborts. Never returns.
[[noreturn]] inline void CheckFailed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "ASG_CHECK failed: %s at %s:%d\n", condition, file, line);
  std::abort();
}

}  // namespace asg::core

/// Aborts with file and line when `condition` is false; evaluated in every build type.
#define ASG_CHECK(condition)                                    \
  do {                                                          \
    if (!(condition)) {                                         \
      ::asg::core::CheckFailed(#condition, __FILE__, __LINE__); \
    }                                                           \
  } while (false)
