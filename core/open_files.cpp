// RaiseOpenFileLimit: getrlimit/setrlimit of RLIMIT_NOFILE.
#include "core/open_files.h"

#include <sys/resource.h>

namespace asg::core {

uint64_t RaiseOpenFileLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < limit.rlim_max) {
    const rlim_t before = limit.rlim_cur;
    limit.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) limit.rlim_cur = before;
  }
  return static_cast<uint64_t>(limit.rlim_cur);
}

}  // namespace asg::core
