// Tests for worker/fault_injection.h.
#include "worker/fault_injection.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace asg::worker {
namespace {

TEST(FaultInjection, ParsesEveryKind) {
  const FaultInjection faults =
      ParseFaultInjection("crash-on=3,hang-on=7,silent-on=1,mismatch-on=65535,crash-on=4");
  EXPECT_EQ(faults.crash_on, (std::set<uint32_t>{3, 4}));
  EXPECT_EQ(faults.hang_on, (std::set<uint32_t>{7}));
  EXPECT_EQ(faults.silent_on, (std::set<uint32_t>{1}));
  EXPECT_EQ(faults.mismatch_on, (std::set<uint32_t>{65535}));
  EXPECT_EQ(ParseFaultInjection(""), FaultInjection{});
}

TEST(FaultInjection, RejectsUnknownKindsAndBadNumbers) {
  for (const char* spec : {"explode-on=3", "crash-on=0", "crash-on=2147483648", "crash-on=3x",
                           "crash-on", "crash-on="}) {
    EXPECT_THROW(ParseFaultInjection(spec), std::invalid_argument) << spec;
  }
  try {
    ParseFaultInjection("crash-on=2,explode-on=3");
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("unknown kind \"explode-on\""), std::string::npos);
  }
}

}  // namespace
}  // namespace asg::worker
