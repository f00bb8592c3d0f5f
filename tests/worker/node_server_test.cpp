// Tests for worker/node_server.h.
#include "worker/node_server.h"

#include <gtest/gtest.h>

#include <thread>

#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/token_guard.h"
#include "tests/worker/node_fake_node.h"

namespace asg::worker {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

NodeServerSettings WithToken(const std::string& token) {
  NodeServerSettings settings;
  settings.token = token;
  return settings;
}

class NodeServerTest : public ::testing::Test {
 protected:
  ~NodeServerTest() override { protocol::TokenGuard::Process().Clear(); }

  /// Connects to the server and sends AttachNode; returns the connection (started).
  std::shared_ptr<protocol::Connection> Connect() {
    auto connection = protocol::Connect(client_io_.context().get_executor(), server_.endpoint(),
                                        std::chrono::seconds(2));
    connection->Start();
    return connection;
  }
  static protocol::Message Attach(protocol::Connection& connection, const std::string& name,
                                  const std::string& token = {}) {
    return connection.Request("AttachNode", json::Json(protocol::AttachNodeRequest{name, token}));
  }

  protocol::IoThreads io_{1};
  protocol::IoThreads client_io_{1};
  NodeServer server_{io_.context().get_executor(), WithToken("secret")};
};

TEST_F(NodeServerTest, EndpointIsTheBoundLoopbackPort) {
  const protocol::HostPort endpoint = protocol::ParseHostPort(server_.endpoint());
  EXPECT_EQ(endpoint.host, "127.0.0.1");
  EXPECT_GT(endpoint.port, 0);
}

TEST_F(NodeServerTest, AttachesWithTheTokenAndRefusesAWrongOne) {
  auto good = Connect();
  EXPECT_EQ(Attach(*good, "planner", "secret").message, json::Json({{"received", true}}));
  auto bad = Connect();
  try {
    Attach(*bad, "intruder", "guess");
    FAIL() << "a wrong token was accepted";
  } catch (const protocol::RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("wrong token"), std::string::npos) << error.what();
  }
  EXPECT_EQ(server_.AttachedNames(), std::vector<std::string>{"planner"});
}

/// Waits until `connection` has closed; false when it is still open after a generous deadline.
bool WaitClosed(const protocol::Connection& connection) {
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (connection.IsOpen() && Clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  return !connection.IsOpen();
}

TEST_F(NodeServerTest, AWrongTokenClosesTheConnectionSoTheRightOneCannotFollowOnIt) {
  auto guessing = Connect();
  EXPECT_THROW(Attach(*guessing, "intruder", "guess"), protocol::RequestError);
  EXPECT_THROW(Attach(*guessing, "intruder", "secret"), protocol::RequestError);
  EXPECT_TRUE(server_.AttachedNames().empty());
  EXPECT_TRUE(WaitClosed(*guessing));
}

TEST_F(NodeServerTest, LoopbackGuessesAreRefusedOneByOneWithoutLockingTheRightTokenOut) {
  for (int i = 0; i < 2 * protocol::TokenGuard::kMaxFailures; ++i) {
    auto guessing = Connect();
    EXPECT_THROW(Attach(*guessing, "intruder", "guess" + std::to_string(i)),
                 protocol::RequestError);
    EXPECT_TRUE(WaitClosed(*guessing));
  }
  // 127.0.0.1 is shared with the farm's own local nodes: after the guesses the right token
  // still attaches (an address other hosts use is refused for a while: token_guard_test).
  auto right = Connect();
  Attach(*right, "planner", "secret");
  EXPECT_EQ(server_.AttachedNames(), std::vector<std::string>{"planner"});
}

TEST(NodeServerListenTest, AHostNameIsResolvedToTheAddressItBinds) {
  protocol::IoThreads io{1};
  NodeServerSettings settings;
  settings.listen = "localhost:0";
  NodeServer server(io.context().get_executor(), settings);
  EXPECT_EQ(server.endpoint().rfind("127.0.0.1:", 0), 0u) << server.endpoint();
}

TEST_F(NodeServerTest, RefusesADuplicateNameUntilTheHolderLeaves) {
  auto first = Connect();
  Attach(*first, "perception", "secret");
  auto second = Connect();
  EXPECT_THROW(Attach(*second, "perception", "secret"), protocol::RequestError);
  EXPECT_THROW(Attach(*first, "other", "secret"), protocol::RequestError);  // already attached
  first->Close("leaving");
  const auto deadline = Clock::now() + std::chrono::seconds(3);
  while (!server_.AttachedNames().empty() && Clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  EXPECT_TRUE(server_.AttachedNames().empty());
  EXPECT_NO_THROW(Attach(*second, "perception", "secret"));
}

TEST_F(NodeServerTest, WaitForNodesReturnsSortedNodesOrWhatCameByTheDeadline) {
  auto b = Connect();
  Attach(*b, "b", "secret");
  const auto start = Clock::now();
  EXPECT_EQ(server_.WaitForNodes(2, start + milliseconds(100)).size(), 1u);
  EXPECT_GE(Clock::now() - start, milliseconds(100));
  auto a = Connect();
  std::thread late([&] {
    std::this_thread::sleep_for(milliseconds(50));
    Attach(*a, "a", "secret");
  });
  const auto nodes = server_.WaitForNodes(2, Clock::now() + std::chrono::seconds(5));
  late.join();
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0]->name(), "a");
  EXPECT_EQ(nodes[1]->name(), "b");
}

}  // namespace
}  // namespace asg::worker
