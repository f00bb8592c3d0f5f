// asg-worker's command line: the node spin and its range.
#include "worker/worker_options.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
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

TEST(WorkerOptions, PrintServiceSchemasNeedsNothingElse) {
  EXPECT_EQ(Parse({"--print-service-schemas"}).mode, WorkerCommand::Mode::kPrintServiceSchemas);
}

/// The UsageError of a command line, or "" when it parses.
std::string UsageErrorOf(std::vector<const char*> arguments) {
  try {
    Parse(std::move(arguments));
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(WorkerOptions, ADataPortOtherHostsCanReachNeedsAToken) {
  ::unsetenv("ASG_TOKEN");
  EXPECT_EQ(UsageErrorOf({"--connect", "127.0.0.1:9000", "--data-listen", "0.0.0.0:0"}),
            "--data-listen 0.0.0.0 accepts vehicle nodes from other hosts: give --token (or set "
            "ASG_TOKEN)");
  EXPECT_EQ(Parse({"--connect", "127.0.0.1:9000", "--data-listen", "0.0.0.0:0", "--token", "t"})
                .settings.data_listen,
            "0.0.0.0:0");
  EXPECT_EQ(Parse({"--connect", "127.0.0.1:9000"}).settings.data_listen, "127.0.0.1:0");
}

TEST(WorkerOptions, HostNamesOfListeningAddressesAreResolved) {
  ::unsetenv("ASG_TOKEN");
  EXPECT_EQ(
      Parse({"--connect", "localhost:9000", "--data-listen", "localhost:0"}).settings.data_listen,
      "127.0.0.1:0");
  EXPECT_EQ(Parse({"--serve", "localhost:0"}).interactive.host, "127.0.0.1");
  EXPECT_NE(UsageErrorOf({"--serve", "nosuch.invalid:0"}).find("does not resolve"),
            std::string::npos);
  EXPECT_NE(
      UsageErrorOf({"--connect", "127.0.0.1:9000", "--data-listen", "nosuch.invalid:0"})
          .find("--data-listen \"nosuch.invalid:0\": host \"nosuch.invalid\" does not resolve"),
      std::string::npos);
}

TEST(WorkerOptions, TheLiveViewListensWithServeAndNeedsATokenBeyondLoopback) {
  ::unsetenv("ASG_TOKEN");
  const WorkerCommand plain = Parse({"--serve", "127.0.0.1:0"});
  EXPECT_FALSE(plain.interactive.foxglove);
  const WorkerCommand view = Parse({"--serve", "127.0.0.1:0", "--foxglove", "localhost:8765"});
  EXPECT_TRUE(view.interactive.foxglove);
  EXPECT_EQ(view.interactive.foxglove_host, "127.0.0.1");
  EXPECT_EQ(view.interactive.foxglove_port, 8765);
  // Beyond loopback only with a token, as --serve itself.
  const std::string refusal = UsageErrorOf({"--serve", "127.0.0.1:0", "--foxglove", "0.0.0.0:0"});
  EXPECT_EQ(refusal,
            "--foxglove 0.0.0.0 accepts viewers from other hosts: give --token (or set "
            "ASG_TOKEN)");
  const WorkerCommand shared =
      Parse({"--serve", "127.0.0.1:0", "--foxglove", "0.0.0.0:0", "--token", "t"});
  EXPECT_EQ(shared.interactive.foxglove_host, "0.0.0.0");
  EXPECT_EQ(shared.interactive.token, "t");
  EXPECT_EQ(UsageErrorOf({"--connect", "127.0.0.1:9000", "--foxglove", "127.0.0.1:0"}),
            "--foxglove needs --serve");
}

}  // namespace
}  // namespace asg::worker
