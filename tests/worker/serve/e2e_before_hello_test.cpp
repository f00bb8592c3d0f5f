// Tests for worker/serve/client_hub.h: what the real interactive worker keeps and logs under a
// flood of frames with huge types, with and without a token (loopback, real process).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "protocol/messages_json.h"
#include "tests/worker/serve/served_worker.h"
#include "tests/worker/small_request.h"

namespace asg::worker::serve {
namespace {

using testing::Eventually;
using testing::FarmDir;
using testing::ServedClient;
using testing::ServedWorker;

/// [bytes] The type of every frame of a registered client's flood: 4 MiB.
constexpr size_t kHugeType = size_t{4} << 20;
/// [bytes] The type of the frame of a connection that has not said Hello: 60 KiB, within the
/// 64 KiB its frames may hold (a larger one is refused from its header).
constexpr size_t kLargeType = size_t{60} << 10;
/// [KiB] Resident memory a flood may add (without the bounds, 50 frames added 200 MiB).
constexpr size_t kMaxGrowthKiB = 64 * 1024;

/// [KiB] The resident memory of process `pid` (VmRSS of /proc/PID/status).
size_t ResidentKiB(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6));
  }
  ADD_FAILURE() << "no VmRSS for process " << pid;
  return 0;
}

/// DIR/scenario_0001 holding the small request, for --open (the logs are written in it).
std::filesystem::path OpenableFolder(const std::filesystem::path& dir) {
  const std::filesystem::path folder = dir / "scenario_0001";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "request.json") << json::Json(testing::SmallRequest(1)).dump();
  return folder;
}

std::filesystem::path CommunicationLog(const std::filesystem::path& folder) {
  return folder / "interactive" / "communication_log.jsonl";
}

/// Sends a request whose type is `bytes` of `fill` on `client` and waits for its answer; a
/// client whose connection was closed is replaced first.
void SendLongType(ServedWorker& worker, std::unique_ptr<ServedClient>* client, size_t bytes,
                  char fill) {
  if (!(*client)->connection().IsOpen()) *client = worker.Connect();
  try {
    (*client)->connection().Request(std::string(bytes, fill), json::Json::object());
  } catch (const protocol::RequestError&) {
    // Refused, as it should be: an unknown service, or a frame over a limit.
  }
}

TEST(ServeBeforeHelloTest, AFloodOfHugeTypesLeavesMemoryAndTheLogsBounded) {
  const FarmDir dir;
  const std::filesystem::path folder = OpenableFolder(dir.path());
  ServedWorker worker({"--open", folder.string()});
  auto client = worker.Connect();
  client->Body("GetSimulationState");
  const size_t before = ResidentKiB(worker.pid());
  for (int i = 0; i < 50; ++i) {
    SendLongType(worker, &client, kHugeType, static_cast<char>('a' + i % 26));
  }
  if (!client->connection().IsOpen()) client = worker.Connect();
  const json::Json entries = client->Body("QueryCommunicationLog", json::Json::object())["entries"];
  EXPECT_LT(ResidentKiB(worker.pid()), before + kMaxGrowthKiB);
  for (const json::Json& entry : entries) {
    EXPECT_LE(entry["type"].get<std::string>().size(), 256u);
  }
  // The worker writes its files out when idle: the last reply is there once it has.
  ASSERT_TRUE(Eventually([&] {
    return client::testing::ReadText(CommunicationLog(folder))
               .find("QueryCommunicationLogResponse") != std::string::npos;
  }));
  EXPECT_LT(std::filesystem::file_size(CommunicationLog(folder)), 1u << 20);
}

TEST(ServeBeforeHelloTest, ConnectionsThatNeverSayHelloAreNeitherKeptNorLogged) {
  const FarmDir dir;
  const std::filesystem::path folder = OpenableFolder(dir.path());
  ServedWorker worker({"--open", folder.string(), "--token", "s3cret"});
  const size_t before = ResidentKiB(worker.pid());
  for (int i = 0; i < 25; ++i) {
    auto anonymous = worker.Connect();
    SendLongType(worker, &anonymous, kLargeType, static_cast<char>('a' + i % 26));
    EXPECT_TRUE(Eventually([&] { return !anonymous->connection().IsOpen(); }));
  }
  auto client = worker.Connect();
  ASSERT_EQ(client->Body("Hello", {{"token", "s3cret"}})["success"], true);
  const json::Json entries = client->Body("QueryCommunicationLog", json::Json::object())["entries"];
  EXPECT_LT(ResidentKiB(worker.pid()), before + kMaxGrowthKiB);
  // Only the client that said Hello is in the log: its Hello and the query.
  for (const json::Json& entry : entries) EXPECT_EQ(entry["client_id"], 26) << entry.dump();
  ASSERT_TRUE(Eventually([&] {
    return client::testing::ReadText(CommunicationLog(folder))
               .find("QueryCommunicationLogResponse") != std::string::npos;
  }));
  EXPECT_LT(std::filesystem::file_size(CommunicationLog(folder)), 4u << 10);
  // One clipped line each on stderr.
  EXPECT_NE(worker.Output().find("... (61440 bytes)): send Hello {token} first"), std::string::npos)
      << worker.Output().substr(0, 2000);
  EXPECT_LT(worker.Output().size(), 64u << 10);
}

TEST(ServeBeforeHelloTest, LoopbackGuessesAreRefusedOneByOneWithoutLockingTheRightTokenOut) {
  ServedWorker worker({"--token", "s3cret"});
  for (int i = 0; i < 10; ++i) {
    auto guessing = worker.Connect();
    EXPECT_NE(guessing->ErrorOf("Hello", {{"token", "guess"}}).find("wrong token"),
              std::string::npos);
  }
  // 127.0.0.1 is shared with the host's other users: the right token still says Hello (an
  // address other hosts use is refused for a while: token_guard_test).
  auto right = worker.Connect();
  right->Call("Hello", {{"token", "s3cret"}});
  EXPECT_NO_THROW(right->Call("GetSimulationState"));
}

}  // namespace
}  // namespace asg::worker::serve
