// A cap on the size of the files this process writes (RLIMIT_FSIZE), for tests of write
// failures: a write past it fails with EFBIG ("File too large") the way a write to a full disk
// fails with ENOSPC, after writing what fits.
#pragma once

#include <signal.h>
#include <sys/resource.h>

namespace asg::testutil {

/// Caps every file this process writes at `bytes` while it lives (SIGXFSZ ignored, so that
/// the write fails instead of the process); restores the limit and the signal afterwards.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    saved_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    ::signal(SIGXFSZ, saved_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  sighandler_t saved_handler_ = SIG_DFL;
};

}  // namespace asg::testutil
