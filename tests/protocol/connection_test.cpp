// Tests for protocol/connection.h, protocol/server.h and protocol/endpoint.h over loopback.
#include "protocol/connection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <map>
#include <thread>

#include "tests/protocol/loopback_fixture.h"

namespace asg::protocol {
namespace {

using namespace std::chrono_literals;
using testing::kWait;
using testing::RawClient;
using testing::TestServer;

TEST(ConnectionTest, RequestGetsTheReplyWithItsReference) {
  TestServer server;
  auto client = server.ConnectClient();
  const std::string attachment("\x00\x01\xFE\xFF", 4);
  const Message reply = client->Request("Echo", Json{{"value", 3}}, attachment);
  EXPECT_EQ(reply.type, "EchoResponse");
  EXPECT_EQ(reply.message, (Json{{"value", 3}}));
  EXPECT_EQ(reply.attachment, attachment);
  EXPECT_GE(reply.reference, 1);
  const Message second = client->Request("Echo", Json{{"value", 4}});
  EXPECT_EQ(second.reference, reply.reference + 1);
}

TEST(ConnectionTest, RawRequestReplyCarriesTheRequestReference) {
  TestServer server;
  RawClient raw(server.port());
  raw.Write(testing::RequestBytes("Echo", 987654321012, Json{{"x", "y"}}));
  const Message reply = raw.ReadReply();
  EXPECT_EQ(reply.type, "EchoResponse");
  EXPECT_EQ(reply.reference, 987654321012);
  EXPECT_EQ(reply.message, (Json{{"x", "y"}}));
}

TEST(ConnectionTest, ConcurrentAsyncRequestsEachGetTheirOwnReply) {
  TestServer server;
  auto client = server.ConnectClient();
  constexpr int kRequests = 200;
  std::vector<std::promise<RequestResult>> outcomes(kRequests);
  for (int i = 0; i < kRequests; ++i) {
    client->AsyncRequest("Echo", Json{{"i", i}}, {}, kWait, [&outcomes, i](RequestResult result) {
      outcomes[i].set_value(std::move(result));
    });
  }
  for (int i = 0; i < kRequests; ++i) {
    auto future = outcomes[i].get_future();
    ASSERT_EQ(future.wait_for(kWait), std::future_status::ready);
    const RequestResult result = future.get();
    ASSERT_TRUE(result.success) << result.description;
    EXPECT_EQ(result.reply.message["i"], i);
  }
}

TEST(ConnectionTest, RequestTimesOutWhenThePeerNeverAnswers) {
  TestServer server;
  auto client = server.ConnectClient();
  const auto start = std::chrono::steady_clock::now();
  try {
    client->Request("Silent", Json::object(), {}, 200ms);
    FAIL() << "Request returned";
  } catch (const RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("no reply within 200 ms"), std::string::npos)
        << error.what();
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, 200ms);
  EXPECT_TRUE(client->IsOpen());
  EXPECT_EQ(client->Request("Echo", Json{{"after", true}}).message["after"], true);
}

TEST(ConnectionTest, HandlerExceptionBecomesAnErrorReplyAndTheConnectionStaysUp) {
  TestServer server;
  auto client = server.ConnectClient();
  try {
    client->Request("Throw", Json::object());
    FAIL() << "Request returned";
  } catch (const RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("thrown by handler: value 7"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(client->Request("Echo", Json{{"n", 1}}).message["n"], 1);
}

TEST(ConnectionTest, UnknownTypeGetsAnErrorReplyAndTheConnectionStaysUp) {
  TestServer server;
  auto client = server.ConnectClient();
  try {
    client->Request("NoSuchService", Json::object());
    FAIL() << "Request returned";
  } catch (const RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("unknown message type \"NoSuchService\""),
              std::string::npos)
        << error.what();
  }
  EXPECT_TRUE(client->IsOpen());
  EXPECT_EQ(client->Request("Echo", Json{{"n", 2}}).message["n"], 2);
}

TEST(ConnectionTest, BlockingRequestOnAnIoThreadIsRefused) {
  IoThreads io;
  Server server(io.context().get_executor(), "127.0.0.1", 0, {},
                [](std::shared_ptr<Connection> connection) {
                  Connection* raw = connection.get();
                  connection->SetRequestHandler("Nested", [raw](const Message&) {
                    return raw->Request("Echo", Json::object()).message;
                  });
                  connection->Start();
                });
  auto client =
      Connect(io.context().get_executor(), "127.0.0.1:" + std::to_string(server.port()), kWait);
  client->Start();
  try {
    client->Request("Nested", Json::object());
    FAIL() << "Request returned";
  } catch (const RequestError& error) {
    EXPECT_NE(
        std::string(error.what()).find("Connection::Request(\"Echo\") called on an io thread"),
        std::string::npos)
        << error.what();
  }
  client->Close("test done");
}

TEST(ConnectionTest, HeartbeatDetectsASilentPeer) {
  ConnectionSettings settings;
  settings.heartbeat_interval = 50ms;
  settings.peer_timeout = 300ms;
  TestServer server(settings);
  RawClient raw(server.port());  // connects and never sends a byte
  const auto start = std::chrono::steady_clock::now();
  const auto reasons = server.WaitForCloses(1);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("silent for"), std::string::npos) << reasons[0];
  EXPECT_NE(reasons[0].find("(timeout 300 ms)"), std::string::npos) << reasons[0];
  EXPECT_LT(elapsed, 5s);
  // The raw client saw heartbeats, then the end of the stream.
  const testing::RawReadResult result = raw.Read();
  EXPECT_TRUE(result.closed);
  ASSERT_FALSE(result.frames.empty());
  EXPECT_EQ(result.frames.front().type, kHeartbeatType);
}

TEST(ConnectionTest, APeerSilentBeforeItsFramingIsKnownIsClosed) {
  ConnectionSettings settings;
  settings.heartbeat_interval = 50ms;
  settings.peer_timeout = 300ms;
  settings.accept_monodrive_framing = true;
  TestServer server(settings);
  RawClient raw(server.port());  // connects and never sends a byte
  const auto reasons = server.WaitForCloses(1);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("silent for"), std::string::npos) << reasons[0];
  // Nothing was sent to it: its framing, hence its heartbeats, were never known.
  const testing::RawReadResult result = raw.Read();
  EXPECT_TRUE(result.closed);
  EXPECT_TRUE(result.frames.empty());
}

TEST(ConnectionTest, APeerTimeoutOfZeroKeepsASilentPeer) {
  ConnectionSettings settings;
  settings.heartbeat_interval = 50ms;
  settings.peer_timeout = 300ms;
  TestServer server(settings);
  RawClient raw(server.port());  // connects and never sends a byte
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  while (server.Accepted(0) == nullptr && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
  }
  const std::shared_ptr<Connection> accepted = server.Accepted(0);
  ASSERT_NE(accepted, nullptr);
  accepted->SetPeerTimeout(0ms);        // as for a vehicle node once it has registered
  std::this_thread::sleep_for(1000ms);  // over three peer timeouts of silence
  EXPECT_TRUE(accepted->IsOpen());
  accepted->Close("test done");
}

TEST(ConnectionTest, HeartbeatsKeepAnIdleConnectionAlive) {
  ConnectionSettings settings;
  settings.heartbeat_interval = 50ms;
  settings.peer_timeout = 400ms;
  TestServer server(settings);
  auto client = server.ConnectClient(settings);
  std::this_thread::sleep_for(1200ms);  // three peer timeouts without any request
  EXPECT_TRUE(client->IsOpen());
  EXPECT_EQ(server.WaitForCloses(0).size(), 0u);
  EXPECT_EQ(client->Request("Echo", Json{{"alive", 1}}).message["alive"], 1);
}

TEST(ConnectionTest, CloseFlushesQueuedFramesThenTellsBothSides) {
  TestServer server;
  IoThreads io;
  auto client = Connect(io.context().get_executor(), server.address(), kWait);
  std::promise<std::string> client_reason;
  client->SetCloseHandler([&](const std::string& reason) { client_reason.set_value(reason); });
  client->Start();
  constexpr int kFrames = 300;
  for (int i = 0; i < kFrames; ++i) client->Send("Echo", Json{{"i", i}}, std::string(2000, 'z'));
  client->Close("client finished");
  EXPECT_FALSE(client->IsOpen());
  auto future = client_reason.get_future();
  ASSERT_EQ(future.wait_for(kWait), std::future_status::ready);
  EXPECT_EQ(future.get(), "client finished");
  const auto reasons = server.WaitForCloses(1);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("closed the connection"), std::string::npos) << reasons[0];
}

TEST(ConnectionTest, ClosingFailsPendingRequests) {
  TestServer server;
  auto client = server.ConnectClient();
  std::promise<RequestResult> outcome;
  client->AsyncRequest("Silent", Json::object(), {}, 60s,
                       [&](RequestResult result) { outcome.set_value(std::move(result)); });
  client->Close("giving up");
  auto future = outcome.get_future();
  ASSERT_EQ(future.wait_for(kWait), std::future_status::ready);
  const RequestResult result = future.get();
  EXPECT_FALSE(result.success);
  EXPECT_NE(result.description.find("closed before the reply"), std::string::npos)
      << result.description;
  EXPECT_NE(result.description.find("giving up"), std::string::npos) << result.description;
  EXPECT_THROW(client->Request("Echo", Json::object()), RequestError);
}

TEST(ConnectionTest, ConnectNamesTheAddressWhenRefused) {
  IoThreads io;
  uint16_t free_port = 0;
  {
    Server probe(io.context().get_executor(), "127.0.0.1", 0, {}, [](auto) {});
    free_port = probe.port();
  }
  const std::string address = "127.0.0.1:" + std::to_string(free_port);
  try {
    ConnectSocket(io.context().get_executor(), address, kWait);
    FAIL() << "connected to a closed port";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("connecting to " + address), std::string::npos)
        << error.what();
  }
}

TEST(ConnectionTest, ParseListenAddressAcceptsPortZeroAndNamesBadText) {
  EXPECT_EQ(ParseListenAddress("127.0.0.1:0").host, "127.0.0.1");
  EXPECT_EQ(ParseListenAddress("127.0.0.1:0").port, 0);
  EXPECT_EQ(ParseListenAddress("[::1]:7419").host, "::1");
  EXPECT_EQ(ParseListenAddress("[::1]:7419").port, 7419);
  try {
    ParseListenAddress("host:99999");
    FAIL() << "port 99999 accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "\"host:99999\": port \"99999\" is not in 0..65535");
  }
  EXPECT_THROW(ParseListenAddress("no-port"), std::invalid_argument);
  EXPECT_THROW(ParseListenAddress(":80"), std::invalid_argument);
}

TEST(ConnectionTest, ParseHostPortAcceptsNamesAndBracketedIpv6) {
  EXPECT_EQ(ParseHostPort("localhost:8080").host, "localhost");
  EXPECT_EQ(ParseHostPort("localhost:8080").port, 8080);
  EXPECT_EQ(ParseHostPort("[::1]:9").host, "::1");
  EXPECT_EQ(ParseHostPort("[::1]:9").port, 9);
  for (const char* bad :
       {"localhost", ":80", "host:", "host:0", "host:65536", "host:8x", "::1:80", "[::1]80"}) {
    EXPECT_THROW(ParseHostPort(bad), std::invalid_argument) << bad;
  }
  try {
    ParseHostPort("host:99999");
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "address \"host:99999\": port \"99999\" is not in 1..65535, expected HOST:PORT or "
              "[IPV6]:PORT");
  }
}

TEST(ConnectionTest, ServerReportsItsEphemeralPortAndRefusesABusyOne) {
  IoThreads io;
  Server server(io.context().get_executor(), "127.0.0.1", 0, {}, [](auto) {});
  EXPECT_GT(server.port(), 0);
  EXPECT_THROW(Server(io.context().get_executor(), "127.0.0.1", server.port(), {}, [](auto) {}),
               std::runtime_error);
  EXPECT_THROW(Server(io.context().get_executor(), "not-an-address", 0, {}, [](auto) {}),
               std::runtime_error);
}

TEST(ConnectionTest, HandlersAreSetBeforeStartAndNeverForReservedTypes) {
  TestServer server;
  auto client = Connect(server.context().get_executor(), server.address(), kWait);
  const auto ignore = [](const Message&) {};
  EXPECT_THROW(client->SetHandler("Heartbeat", ignore), std::invalid_argument);
  EXPECT_THROW(client->SetHandler("RunScenarioResponse", ignore), std::invalid_argument);
  EXPECT_THROW(client->SetHandler("Error", ignore), std::invalid_argument);
  client->Start();
  EXPECT_THROW(client->SetHandler("RunScenario", ignore), std::logic_error);
  client->Close("test done");
}

TEST(ConnectionTest, ConcurrentSendsFromSeveralThreadsArriveIntact) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 500;
  std::mutex mutex;
  std::condition_variable done;
  std::map<int, std::vector<int>> received;  // thread -> sequence numbers in arrival order
  int total = 0;
  int corrupt = 0;  // frames whose attachment does not match their JSON

  IoThreads io(2);
  std::shared_ptr<Connection> server_side;
  Server server(io.context().get_executor(), "127.0.0.1", 0, {},
                [&](std::shared_ptr<Connection> connection) {
                  connection->SetHandler("Item", [&](const Message& message) {
                    const int thread = message.message["thread"];
                    const size_t size = message.message["size"];
                    std::lock_guard lock(mutex);
                    if (message.attachment != std::string(size, static_cast<char>('a' + thread))) {
                      ++corrupt;
                    }
                    received[message.message["thread"]].push_back(message.message["seq"]);
                    if (++total == kThreads * kPerThread) done.notify_all();
                  });
                  connection->Start();
                  server_side = connection;
                });
  auto client =
      Connect(io.context().get_executor(), "127.0.0.1:" + std::to_string(server.port()), kWait);
  client->Start();
  std::vector<std::thread> senders;
  for (int thread = 0; thread < kThreads; ++thread) {
    senders.emplace_back([&, thread] {
      for (int seq = 0; seq < kPerThread; ++seq) {
        const size_t size = static_cast<size_t>((seq * 37) % 3000);
        client->Send("Item", Json{{"thread", thread}, {"seq", seq}, {"size", size}},
                     std::string(size, static_cast<char>('a' + thread)));
      }
    });
  }
  for (auto& sender : senders) sender.join();
  std::unique_lock lock(mutex);
  ASSERT_TRUE(done.wait_for(lock, kWait, [&] { return total == kThreads * kPerThread; }))
      << total << " of " << kThreads * kPerThread << " arrived";
  for (int thread = 0; thread < kThreads; ++thread) {
    ASSERT_EQ(received[thread].size(), static_cast<size_t>(kPerThread));
    for (int seq = 0; seq < kPerThread; ++seq) EXPECT_EQ(received[thread][seq], seq);
  }
  EXPECT_EQ(corrupt, 0);
}

// A peer that never reads: the sender's queue grows to the cap and no further, and the
// connection closes with a reason naming the cap and the bytes queued.
TEST(ConnectionTest, PeerThatNeverReadsIsCutAtTheQueueCap) {
  ConnectionSettings settings;
  settings.limits.max_frame_bytes = size_t{1} << 20;
  settings.max_queued_bytes = size_t{4} << 20;
  IoThreads io(1);
  std::promise<std::shared_ptr<Connection>> accepted;
  std::promise<std::string> closed;
  Server server(io.context().get_executor(), "127.0.0.1", 0, settings,
                [&accepted, &closed](std::shared_ptr<Connection> connection) {
                  connection->SetCloseHandler(
                      [&closed](const std::string& reason) { closed.set_value(reason); });
                  connection->Start();
                  accepted.set_value(connection);
                });
  boost::asio::io_context raw_context;
  boost::asio::ip::tcp::socket never_reads(raw_context);
  never_reads.connect({boost::asio::ip::make_address("127.0.0.1"), server.port()});
  auto accepted_future = accepted.get_future();
  ASSERT_EQ(accepted_future.wait_for(kWait), std::future_status::ready);
  std::shared_ptr<Connection> sender = accepted_future.get();

  const std::string blob(512 * 1024, 'b');
  size_t most_queued = 0;
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  while (sender->IsOpen() && std::chrono::steady_clock::now() < deadline) {
    sender->Send("Blob", Json::object(), blob);
    most_queued = std::max(most_queued, sender->queued_bytes());
  }
  EXPECT_FALSE(sender->IsOpen());
  EXPECT_LE(most_queued, settings.max_queued_bytes);
  auto closed_future = closed.get_future();
  ASSERT_EQ(closed_future.wait_for(kWait), std::future_status::ready);
  const std::string reason = closed_future.get();
  EXPECT_NE(reason.find("over its cap"), std::string::npos) << reason;
  EXPECT_NE(reason.find("bytes queued"), std::string::npos) << reason;
  EXPECT_NE(reason.find("max_queued_bytes 4194304 bytes"), std::string::npos) << reason;
  // Sending after the close is a no-op, and every queued byte is released.
  sender->Send("Blob", Json::object(), blob);
  const auto release_deadline = std::chrono::steady_clock::now() + kWait;
  while (sender->queued_bytes() > 0 && std::chrono::steady_clock::now() < release_deadline) {
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(sender->queued_bytes(), 0u);
  server.Stop();
  io.Stop();
}

TEST(ConnectionTest, SettingsAreValidated) {
  boost::asio::io_context context;
  ConnectionSettings too_small_queue;
  too_small_queue.limits.max_frame_bytes = 1000;
  too_small_queue.max_queued_bytes = 1000;  // no room for the 12-byte header
  EXPECT_THROW(Connection::Create(boost::asio::ip::tcp::socket(context), too_small_queue),
               std::invalid_argument);
  too_small_queue.max_queued_bytes = 1012;
  EXPECT_NO_THROW(Connection::Create(boost::asio::ip::tcp::socket(context), too_small_queue));
  ConnectionSettings no_frame_deadline;
  no_frame_deadline.frame_timeout = 0ms;
  EXPECT_THROW(Connection::Create(boost::asio::ip::tcp::socket(context), no_frame_deadline),
               std::invalid_argument);
  ConnectionSettings negative_registration;
  negative_registration.registration_timeout = -1ms;
  EXPECT_THROW(Connection::Create(boost::asio::ip::tcp::socket(context), negative_registration),
               std::invalid_argument);
}

}  // namespace
}  // namespace asg::protocol
