// Tests for worker/serve/client_hub.h: a stranger's large frame to asg-worker --serve is refused
// at once, and the worker keeps answering its client.
#include <gtest/gtest.h>

#include <string>

#include "protocol/frame.h"
#include "tests/protocol/loopback_fixture.h"
#include "tests/worker/serve/served_worker.h"
#include "tests/worker/small_request.h"

namespace asg::worker {
namespace {

using protocol::testing::RawClient;
using testing::ServedWorker;
using testing::SmallRequest;

/// About 960 kB: a StepSimulation whose body holds 320,000 objects, the last with a repeated key.
std::string RepeatedKeyFrame() {
  return protocol::testing::RepeatedKeyFrame("StepSimulation", 320'000);
}

uint16_t PortOf(const std::string& address) {
  return static_cast<uint16_t>(std::stoi(address.substr(address.rfind(':') + 1)));
}

/// Loads a scenario on a client of `worker`, sends the frame from a stranger's connection and
/// returns the description of the Error reply; then the client steps the scenario.
std::string RefusalWhileAClientSteps(ServedWorker& worker) {
  auto client = worker.Connect();
  const json::Json loaded =
      client->Body("LoadScenario", {{"request", json::Json(SmallRequest(1))}});
  EXPECT_EQ(loaded["success"], true) << loaded.dump();
  std::string description;
  {
    RawClient stranger(PortOf(worker.address()));
    stranger.Write(RepeatedKeyFrame());
    const protocol::Message reply = stranger.ReadReply();  // within protocol::testing::kWait
    EXPECT_EQ(reply.type, protocol::kErrorType);
    description = protocol::ErrorDescription(reply.message);
  }
  EXPECT_EQ(client->Body("StepSimulation", {{"steps", 20}})["result"]["result"], 1);
  return description;
}

TEST(ServeHostileFrames, ARepeatedKeyDeepInALargeFrameIsRefusedAtOnce) {
  ServedWorker worker;
  const std::string description = RefusalWhileAClientSteps(worker);
  EXPECT_NE(description.find("message.items[320000].a: duplicate key in one object"),
            std::string::npos)
      << description;
}

TEST(ServeHostileFrames, WithATokenALargeFrameBeforeHelloIsRefusedFromItsHeader) {
  ServedWorker worker({"--token", "secret"});
  auto client = worker.Connect();
  EXPECT_EQ(client->Body("Hello", {{"token", "secret"}})["success"], true);
  RawClient stranger(PortOf(worker.address()));
  stranger.Write(RepeatedKeyFrame());
  const protocol::Message reply = stranger.ReadReply();
  const std::string description = protocol::ErrorDescription(reply.message);
  EXPECT_NE(description.find("over the cap of 65536 bytes for a peer not yet registered"),
            std::string::npos)
      << description;
  EXPECT_EQ(client->Body("GetSimulationState")["result"]["result"], 1);
}

}  // namespace
}  // namespace asg::worker
