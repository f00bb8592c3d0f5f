// Tests for worker/serve/client_hub.cpp's same-host channel: asg-ctl reaches the interactive
// worker's Unix-domain socket from its HOST:PORT (or unix:PATH), and a session over it answers
// exactly as one over TCP.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "protocol/messages_json.h"
#include "tests/worker/serve/served_worker.h"
#include "tests/worker/small_request.h"

namespace asg::worker {
namespace {

using testing::ServedWorker;
using testing::SmallRequest;

/// What one asg-ctl call printed (stdout and stderr), `environment` ("NAME=VALUE") set for it.
std::string Ctl(const std::string& environment, const std::vector<std::string>& arguments,
                const std::filesystem::path& output) {
  std::vector<std::string> command = {environment, client::testing::Executable("asg-ctl").string()};
  command.insert(command.end(), arguments.begin(), arguments.end());
  client::testing::Child ctl("/usr/bin/env", command, output);
  EXPECT_EQ(ctl.Wait(std::chrono::seconds(20)), 0) << ctl.Output();
  return ctl.Output();
}

/// The replies of a short asg-ctl session (load, step, read the vehicle) with `address`.
std::string Session(const std::string& environment, const std::string& address,
                    const std::filesystem::path& dir) {
  const std::string load = json::Json{{"request", json::Json(SmallRequest(1))}}.dump();
  std::string replies;
  replies += Ctl(environment, {address, "LoadScenario", load}, dir / "load.txt");
  replies += Ctl(environment, {address, "StepSimulation", R"({"steps": 30})"}, dir / "step.txt");
  replies +=
      Ctl(environment, {address, "GetEntityState", R"({"entity": "vehicle"})"}, dir / "state.txt");
  return replies;
}

/// The channel of every client connection the worker logged, in order ("unix", "tcp").
std::vector<std::string> ClientChannels(const std::string& worker_output) {
  static const std::regex connected(R"(client [0-9]+ connected over ([a-z]+))");
  std::vector<std::string> channels;
  for (auto it = std::sregex_iterator(worker_output.begin(), worker_output.end(), connected);
       it != std::sregex_iterator(); ++it) {
    channels.push_back((*it)[1]);
  }
  return channels;
}

TEST(ServeLocalChannelTest, AsgCtlOverTheSameHostSocketAnswersAsOverTcp) {
  testing::FarmDir dir;
  std::string over_unix;
  std::string over_tcp;
  {
    ServedWorker worker;
    ASSERT_NE(worker.Output().find("same-host channel for clients: unix:"), std::string::npos)
        << worker.Output();
    over_unix = Session("ASG_LOCAL_CHANNEL=on", worker.address(), dir.path());
    EXPECT_EQ(ClientChannels(worker.Output()), std::vector<std::string>(3, "unix"));
  }
  {
    ServedWorker worker;
    over_tcp = Session("ASG_LOCAL_CHANNEL=off", worker.address(), dir.path());
    EXPECT_EQ(ClientChannels(worker.Output()), std::vector<std::string>(3, "tcp"));
  }
  EXPECT_NE(over_unix.find("\"pose\""), std::string::npos) << over_unix;
  EXPECT_EQ(over_unix, over_tcp);
}

TEST(ServeLocalChannelTest, AsgCtlTakesAUnixEndpoint) {
  testing::FarmDir dir;
  ServedWorker worker;
  static const std::regex offered(R"(same-host channel for clients: (unix:\S+))");
  std::smatch match;
  const std::string output = worker.Output();
  ASSERT_TRUE(std::regex_search(output, match, offered)) << output;
  const std::string reply =
      Ctl("ASG_LOCAL_CHANNEL=off", {match[1].str(), "GetSimulationState"}, dir.path() / "x.txt");
  EXPECT_NE(reply.find("\"state\""), std::string::npos) << reply;
  EXPECT_EQ(ClientChannels(worker.Output()), std::vector<std::string>{"unix"});
}

}  // namespace
}  // namespace asg::worker
