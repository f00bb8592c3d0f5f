// Tests for core/open_files.h.
#include "core/open_files.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

namespace asg::core {
namespace {

TEST(OpenFilesTest, RaisesTheSoftLimitToTheHardLimit) {
  rlimit before{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &before), 0);
  const uint64_t now = RaiseOpenFileLimit();
  rlimit after{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &after), 0);
  EXPECT_EQ(now, static_cast<uint64_t>(after.rlim_cur));
  EXPECT_EQ(after.rlim_cur, before.rlim_max);
  EXPECT_GE(after.rlim_cur, before.rlim_cur);
  EXPECT_EQ(RaiseOpenFileLimit(), now);  // idempotent
}

}  // namespace
}  // namespace asg::core
