// ASG_CHECK: an always-on internal invariant check. A failed check prints the condition, file and
// line to stderr and aborts; it is for programming errors, never for bad input (which throws).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace asg::scene::internal {

/// Prints a failed check and aborts. Never returns.
[[noreturn]] inline void CheckFailed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "ASG_CHECK failed: %s at %s:%d\n", condition, file, line);
  std::abort();
}

}  // namespace asg::scene::internal

/// Aborts with file and line when `condition` is false; evaluated in every build type.
#define ASG_CHECK(condition)                                               \
  do {                                                                     \
    if (!(condition)) {                                                    \
      ::asg::scene::internal::CheckFailed(#condition, __FILE__, __LINE__); \
    }                                                                      \
  } while (false)
