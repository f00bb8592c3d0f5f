// Tests for protocol/local_channel.h: where the same-host socket lives, and that a connection to
// a server's HOST:PORT on this host takes it when the server offers it.
#include "protocol/local_channel.h"

#include <gtest/gtest.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <string>

#include "protocol/io_threads.h"
#include "protocol/server.h"

namespace asg::protocol {
namespace {

using std::chrono::seconds;

/// A TCP server on a free loopback port answering Ping with {"pong": true}, and optionally its
/// same-host socket.
class PingServer {
 public:
  explicit PingServer(bool local_channel) : io_(1) {
    const auto answer = [](std::shared_ptr<Connection> connection) {
      connection->SetRequestHandler("Ping", [](const Message&) { return Json{{"pong", true}}; });
      connection->Start();
    };
    tcp_ = std::make_unique<Server>(io_.context().get_executor(), "127.0.0.1", 0,
                                    ConnectionSettings{}, answer);
    endpoint_ = "127.0.0.1:" + std::to_string(tcp_->port());
    if (!local_channel) return;
    path_ = LocalChannelPath({"127.0.0.1", tcp_->port()});
    EXPECT_EQ(PrepareLocalChannelPath(path_), std::nullopt);
    local_ =
        std::make_unique<Server>(io_.context().get_executor(), path_, ConnectionSettings{}, answer);
  }
  ~PingServer() {
    if (local_) local_->Stop();
    tcp_->Stop();
  }

  /// The channel a client connecting to the TCP endpoint gets, after one Ping round trip.
  std::string ClientChannel() {
    IoThreads client_io(1);
    auto connection = Connect(client_io.context().get_executor(), endpoint_, seconds(2));
    connection->Start();
    EXPECT_EQ(connection->Request("Ping", Json::object()).message["pong"], true);
    const std::string channel(connection->channel());
    connection->Close("done");
    return channel;
  }

  const std::string& endpoint() const { return endpoint_; }
  const std::string& path() const { return path_; }
  Server& local() { return *local_; }

 private:
  IoThreads io_;
  std::unique_ptr<Server> tcp_;
  std::unique_ptr<Server> local_;
  std::string endpoint_;
  std::string path_;
};

TEST(LocalChannelTest, ThePathNamesTheUserAndTheAddress) {
  EXPECT_EQ(LocalChannelPath({"127.0.0.1", 7419}),
            "/tmp/asg-local-" + std::to_string(::getuid()) + "/127.0.0.1-7419.sock");
}

TEST(LocalChannelTest, ThisHostIsLoopbackOrAnAddressItCanBind) {
  EXPECT_TRUE(IsThisHost("127.0.0.1"));
  EXPECT_TRUE(IsThisHost("127.3.4.5"));
  EXPECT_FALSE(IsThisHost("203.0.113.7"));  // documentation range: no host has it
  EXPECT_FALSE(IsThisHost("0.0.0.0"));
  EXPECT_FALSE(IsThisHost("example.org"));
}

TEST(LocalChannelTest, AClientOfThisHostTakesTheSocketWhenOffered) {
  PingServer offered(true);
  EXPECT_EQ(LocalChannelFor(offered.endpoint()), offered.path());
  EXPECT_EQ(offered.ClientChannel(), kChannelUnix);
  PingServer tcp_only(false);
  EXPECT_EQ(tcp_only.ClientChannel(), kChannelTcp);
  EXPECT_EQ(LocalChannelFor("203.0.113.7:7419"), "");
}

TEST(LocalChannelTest, AsgLocalChannelOffKeepsTcp) {
  PingServer offered(true);
  ::setenv("ASG_LOCAL_CHANNEL", "off", 1);
  EXPECT_EQ(LocalChannelFor(offered.endpoint()), "");
  EXPECT_EQ(offered.ClientChannel(), kChannelTcp);
  ::unsetenv("ASG_LOCAL_CHANNEL");
  EXPECT_EQ(offered.ClientChannel(), kChannelUnix);
}

TEST(LocalChannelTest, AUnixEndpointConnectsAndNamesItsPeer) {
  PingServer offered(true);
  IoThreads client_io(1);
  auto connection = Connect(client_io.context().get_executor(),
                            std::string(kUnixEndpointPrefix) + offered.path(), seconds(2));
  EXPECT_EQ(connection->peer(), "unix:" + offered.path());
  connection->Close("done");
  EXPECT_THROW(
      Connect(client_io.context().get_executor(), "unix:/nonexistent/asg.sock", seconds(2)),
      std::runtime_error);
}

TEST(LocalChannelTest, ASocketInUseIsRefusedAndStopRemovesIt) {
  PingServer offered(true);
  const std::optional<std::string> problem = PrepareLocalChannelPath(offered.path());
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(*problem, offered.path() + " is in use by another server");
  offered.local().Stop();
  EXPECT_FALSE(std::filesystem::exists(offered.path()));
  EXPECT_EQ(offered.ClientChannel(), kChannelTcp);  // the file is gone: TCP
}

TEST(LocalChannelTest, SocketsLeftByKilledServersAreRemovedOnceOld) {
  PingServer offered(true);  // makes the directory
  const std::string directory = std::filesystem::path(offered.path()).parent_path();
  const auto left = [&](const std::string& name) {
    const std::string path = directory + "/" + name;
    boost::asio::io_context io;
    boost::asio::local::stream_protocol::acceptor acceptor(io);
    acceptor.open();
    acceptor.bind(boost::asio::local::stream_protocol::endpoint(path));
    return path;  // closed without removing it, as a killed server leaves it
  };
  const std::string old_path = left("test-old.sock");
  const std::string new_path = left("test-new.sock");
  const timeval old_times[2] = {{::time(nullptr) - 120, 0}, {::time(nullptr) - 120, 0}};
  ASSERT_EQ(::utimes(old_path.c_str(), old_times), 0);
  EXPECT_EQ(PrepareLocalChannelPath(directory + "/test-next.sock"), std::nullopt);
  EXPECT_FALSE(std::filesystem::exists(old_path));
  EXPECT_TRUE(std::filesystem::exists(new_path));        // young: maybe a server about to listen
  EXPECT_TRUE(std::filesystem::exists(offered.path()));  // accepts
  std::filesystem::remove(new_path);
}

}  // namespace
}  // namespace asg::protocol
