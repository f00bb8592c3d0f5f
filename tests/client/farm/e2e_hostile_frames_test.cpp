// Tests for client/farm/farm_links.h: frames from a peer that never registers, sent to the
// client's port while a batch runs, are refused at once and stop neither the batch nor a worker.
#include <gtest/gtest.h>

#include <string>

#include "tests/client/e2e_test.h"
#include "tests/protocol/loopback_fixture.h"

namespace asg::client::testing {
namespace {

using protocol::testing::RawClient;

/// Sends `bytes` from a new connection to `port` and returns the description of the Error
/// reply (throws when none comes within protocol::testing::kWait).
std::string ErrorReplyTo(uint16_t port, const std::string& bytes) {
  RawClient raw(port);
  raw.Write(bytes);
  return protocol::ErrorDescription(raw.ReadReply().message);
}

/// Lines of `text` that contain `needle`.
size_t CountLines(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(HostileFrames, AStrangersLargeFramesStopNeitherTheBatchNorItsWorkers) {
  TempDir dir;
  nlohmann::json batch = testing::SmallBatch("hostile", testing::PlainScenarios(300));
  // Finer physics steps: the batch lasts a few seconds, long enough for the stranger.
  batch["defaults"]["simulation"] = {{"physics_rate", 300.0}, {"control_rate", 20.0}};
  testing::WriteJson(dir.path() / "batch.json", batch);
  const auto out = dir.path() / "out";
  Child client(Executable("asg-client"),
               {"run", (dir.path() / "batch.json").string(), "--out", out.string(), "--workers",
                "2", "--listen", "127.0.0.1:0", "--quiet"},
               dir.path() / "client.txt");
  const std::string address = testing::ListeningEndpoint(out / "asg_log.txt");
  ASSERT_FALSE(address.empty()) << client.Output();
  const auto port = static_cast<uint16_t>(std::stoi(address.substr(address.find(':') + 1)));
  ASSERT_TRUE(
      testing::WaitForText(out / "asg_log.txt", "scenario 1 done", std::chrono::seconds(20)));

  // Both are refused from their headers: a stranger's frame may hold 64 KiB.
  const std::string cap = "over the cap of 65536 bytes for a peer not yet registered";
  const std::string repeated_key =
      ErrorReplyTo(port, protocol::testing::RepeatedKeyFrame("RegisterWorker", 320'000));
  EXPECT_NE(repeated_key.find(cap), std::string::npos) << repeated_key;
  const std::string announced =
      ErrorReplyTo(port, protocol::testing::FrameHeader(60 << 20, 0) + std::string(1 << 20, ' '));
  EXPECT_NE(announced.find(cap), std::string::npos) << announced;
  // A small frame whose bad value the error message cuts short within a two-byte character
  // (written \u00e9 in the JSON text, two bytes once parsed).
  const std::string cut_value = ErrorReplyTo(
      port, protocol::testing::RawFrame(R"({"type": "RegisterWorker", "reference": 1, )"
                                        R"("message": {"worker_id": ")" +
                                        std::string(35, 'a') + R"(\u00e9\u00e9"}})"));
  EXPECT_NE(cut_value.find("worker_id: expected an integer (uint16), got string"),
            std::string::npos)
      << cut_value;

  ASSERT_EQ(client.Wait(std::chrono::seconds(60)), 0) << client.Output();
  const nlohmann::json summary = nlohmann::json::parse(ReadText(out / "summary.json"));
  EXPECT_EQ(summary["status_counts"]["done"], 300) << summary.dump();
  const std::string log = ReadText(out / "asg_log.txt");
  EXPECT_EQ(CountLines(log, "launched worker"), 2u) << log;       // none replaced
  EXPECT_EQ(CountLines(log, "connection to worker"), 0u) << log;  // none dropped
  EXPECT_EQ(CountLines(log, "closed before registering: bad frame"), 2u) << log;
}

}  // namespace
}  // namespace asg::client::testing
