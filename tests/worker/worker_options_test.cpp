// asg-worker's command line: the node spin and its range.
#include "worker/worker_options.h"

#include <gtest/gtest.h>

#include <vector>

namespace asg::worker {
namespace {

WorkerCommand Parse(std::vector<const char*> arguments) {
  arguments.insert(arguments.begin(), "asg-worker");
  return ParseWorkerCommandLine(static_cast<int>(arguments.size()), arguments.data());
}

TEST(WorkerOptions, TheNodeSpinIsOffByDefaultAndBounded) {
  EXPECT_EQ(Parse({"--connect", "127.0.0.1:9000"}).settings.node_spin.count(), 0);
  EXPECT_EQ(Parse({"--connect", "127.0.0.1:9000", "--node-spin-us", "50"}).settings.node_spin,
            std::chrono::microseconds(50));
  try {
    Parse({"--connect", "127.0.0.1:9000", "--node-spin-us", "5000"});
    ADD_FAILURE() << "a spin of 5 ms was accepted";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "--node-spin-us 5000 is outside 0..1000");
  }
}

}  // namespace
}  // namespace asg::worker
