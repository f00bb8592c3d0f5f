// Tests for client/nodes/node_registry.h: what the real asg-client keeps, logs and answers when
// vehicle-node registrations arrive with huge names or wrong tokens (loopback, real process).
#include <gtest/gtest.h>

#include <csignal>
#include <optional>
#include <thread>

#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/node_messages.h"
#include "protocol/typed_connection.h"
#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

using std::chrono::seconds;

/// [bytes] The node name of the flood: 60 KiB, within the 64 KiB a frame may hold before
/// registration (a 4 MiB one is refused from its header).
constexpr size_t kHugeName = size_t{60} << 10;

/// asg-client waiting for workers that never come (--launcher none) on a loopback port with the
/// token "s3cret"; interrupted when destroyed.
class WaitingClient {
 public:
  explicit WaitingClient(const std::filesystem::path& dir) : out_(dir / "out") {
    testing::WriteJson(dir / "batch.json",
                       testing::SmallBatch("admission", testing::PlainScenarios(1)));
    child_.emplace(testing::Executable("asg-client"),
                   std::vector<std::string>{"run", (dir / "batch.json").string(), "--out",
                                            out_.string(), "--launcher", "none", "--listen",
                                            "127.0.0.1:0", "--token", "s3cret"},
                   dir / "client.txt");
    endpoint_ = testing::ListeningEndpoint(log());
    EXPECT_FALSE(endpoint_.empty()) << ReadText(log());
  }
  ~WaitingClient() {
    child_->Signal(SIGINT);
    child_->Wait(seconds(30));
  }
  std::filesystem::path log() const { return out_ / "asg_log.txt"; }

  /// A new connection to the client's port, started.
  std::shared_ptr<protocol::Connection> Connect() {
    auto connection = protocol::Connect(io_.context().get_executor(), endpoint_, seconds(5));
    connection->Start();
    return connection;
  }

  /// The Error a RegisterVehicleNode gets on `connection`; "" when it is accepted.
  static std::string Register(protocol::Connection& connection, const std::string& name,
                              const std::string& token) {
    try {
      protocol::RequestMessage<protocol::RegisterVehicleNodeResponse>(
          connection, protocol::NodeRegistration{1, name, token}, {}, seconds(30));
    } catch (const protocol::RequestError& error) {
      return error.what();
    }
    return "";
  }

 private:
  std::filesystem::path out_;
  std::optional<testing::Child> child_;
  std::string endpoint_;
  protocol::IoThreads io_{1};
};

/// Waits until `connection` has closed; false when it is still open after a generous deadline.
bool WaitClosed(const protocol::Connection& connection) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(10);
  while (connection.IsOpen() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return !connection.IsOpen();
}

TEST(NodeAdmissionTest, RefusedRegistrationsWithHugeNamesLeaveTheLogSmall) {
  testutil::TempDir dir;
  WaitingClient client(dir.path());
  const size_t before = std::filesystem::file_size(client.log());
  for (int i = 0; i < 10; ++i) {
    auto connection = client.Connect();
    const std::string refusal =
        WaitingClient::Register(*connection, std::string(kHugeName, 'n'), "s3cret");
    EXPECT_NE(refusal.find("a node name is 1..64 letters"), std::string::npos)
        << refusal.substr(0, 400);
    EXPECT_LT(refusal.size(), 1000u);
  }
  // A refusal is one line naming the first 200 bytes of the name and its length (without the
  // bound, the 10 names took 600 KB).
  const std::string log = ReadText(client.log());
  EXPECT_NE(log.find(std::string(200, 'n') + "... (61440 bytes)"), std::string::npos);
  EXPECT_LT(std::filesystem::file_size(client.log()) - before, 64u << 10);
}

TEST(NodeAdmissionTest, AWrongTokenClosesTheConnectionAndLoopbackGuessesLockNoOneOut) {
  testutil::TempDir dir;
  WaitingClient client(dir.path());
  auto guessing = client.Connect();
  EXPECT_NE(WaitingClient::Register(*guessing, "stack", "guess").find("wrong token"),
            std::string::npos);
  // No second guess on the same connection: it is closed, not answered by the registry (which
  // would refuse worker 1 as unknown, since no worker runs).
  const std::string second = WaitingClient::Register(*guessing, "stack", "s3cret");
  EXPECT_NE(second, "");
  EXPECT_EQ(second.find("unknown worker id"), std::string::npos) << second;
  EXPECT_TRUE(WaitClosed(*guessing));
  for (int i = 1; i < 10; ++i) {
    auto next = client.Connect();
    EXPECT_NE(WaitingClient::Register(*next, "stack", "guess").find("wrong token"),
              std::string::npos);
  }
  // Ten wrong tokens from 127.0.0.1, which the farm's own local peers share: the right token
  // still passes and reaches the registry (which refuses worker 1 as unknown: no worker runs).
  auto right = client.Connect();
  const std::string refusal = WaitingClient::Register(*right, "stack", "s3cret");
  EXPECT_EQ(refusal.find("too many wrong tokens"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("unknown worker id"), std::string::npos) << refusal;
}

}  // namespace
}  // namespace asg::client::testing
