// Tests for protocol/token_gate.h.
#include "protocol/token_gate.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "protocol/token_guard.h"
#include "tests/protocol/loopback_fixture.h"

namespace asg::protocol {
namespace {

TEST(CheckPeerTokenTest, AcceptsTheRightTokenOrNoneAskedFor) {
  EXPECT_EQ(CheckPeerToken("s3cret", "s3cret", "10.0.0.7:5000"), "");
  EXPECT_EQ(CheckPeerToken("", "anything", "10.0.0.7:5000"), "");
}

TEST(CheckPeerTokenTest, NamesTheRefusalOfTheProcessGuard) {
  EXPECT_EQ(CheckPeerToken("s3cret", "guess", "127.0.0.1:5000"), "wrong token");
  for (int i = 0; i < TokenGuard::kMaxFailures; ++i) {
    EXPECT_EQ(CheckPeerToken("s3cret", "guess", "10.0.0.8:" + std::to_string(5000 + i)),
              "wrong token");
  }
  // The guard shared by every port of the process now refuses the address, right token or not.
  EXPECT_EQ(CheckPeerToken("s3cret", "s3cret", "10.0.0.8:6000"),
            "too many wrong tokens from 10.0.0.8; try again in 10 s");
  TokenGuard::Process().Clear();
}

// The server side of a raw client's connection to `server`, once accepted.
std::shared_ptr<Connection> AcceptedConnection(testing::TestServer& server) {
  const auto deadline = std::chrono::steady_clock::now() + testing::kWait;
  while (server.accepted() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  return server.Accepted(0);
}

TEST(AdmitTokenTest, RefusalLogsRepliesAnErrorAndCloses) {
  testing::TestServer server;
  testing::RawClient raw(server.port());
  const std::shared_ptr<Connection> connection = AcceptedConnection(server);
  ASSERT_NE(connection, nullptr);
  Message request;
  request.type = "Hello";
  request.reference = 41;
  std::vector<std::string> logged;
  EXPECT_FALSE(AdmitToken(*connection, request, "s3cret", "guess", "Hello refused: ",
                          [&](const std::string& reason) { logged.push_back(reason); }));
  EXPECT_EQ(logged, std::vector<std::string>{"wrong token"});
  const testing::RawReadResult result = raw.ReadUntilClosed();
  EXPECT_TRUE(result.closed);
  ASSERT_EQ(result.frames.size(), 1u);
  EXPECT_EQ(result.frames[0].type, kErrorType);
  EXPECT_EQ(result.frames[0].reference, 41);
  EXPECT_EQ(ErrorDescription(result.frames[0].message), "Hello refused: wrong token");
  EXPECT_EQ(server.WaitForCloses(1), std::vector<std::string>{"wrong token"});
}

TEST(AdmitTokenTest, AcceptedTokenLeavesTheConnectionOpen) {
  testing::TestServer server;
  testing::RawClient raw(server.port());
  const std::shared_ptr<Connection> connection = AcceptedConnection(server);
  ASSERT_NE(connection, nullptr);
  bool logged = false;
  EXPECT_TRUE(AdmitToken(*connection, Message{}, "s3cret", "s3cret",
                         "refused: ", [&](const std::string&) { logged = true; }));
  EXPECT_FALSE(logged);
  EXPECT_TRUE(connection->IsOpen());
}

}  // namespace
}  // namespace asg::protocol
