// Tests for protocol/typed_connection.h, over a loopback connection.
#include "protocol/typed_connection.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/server.h"
#include "tests/protocol/loopback_fixture.h"

namespace asg::protocol {
namespace {

using testing::kWait;

/// A server whose connections answer RunScenario typed (accepted when the scenario number is
/// odd) and record the StatusCode frames they receive.
class TypedServer {
 public:
  TypedServer()
      : io_(1),
        server_(io_.context().get_executor(), "127.0.0.1", 0, {},
                [this](std::shared_ptr<Connection> connection) { Accept(connection); }) {}
  ~TypedServer() {
    server_.Stop();
    std::vector<std::shared_ptr<Connection>> held;
    {
      std::lock_guard lock(mutex_);
      held.swap(connections_);
    }
    for (const auto& connection : held) connection->Close("test over");
    io_.Stop();
  }

  std::string address() const { return "127.0.0.1:" + std::to_string(server_.port()); }

  /// The status of the first StatusCode frame received, once one arrived (or nullopt).
  std::optional<uint8_t> WaitForStatus() {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, kWait, [&] { return status_.has_value(); });
    return status_;
  }

 private:
  void Accept(const std::shared_ptr<Connection>& connection) {
    OnRequest<RunScenarioRequest>(*connection,
                                  [](const RunScenarioRequest& request, const Message&) {
                                    return RunScenarioResponse{request.scenario_number % 2 == 1};
                                  });
    OnMessage<StatusCode>(*connection, [this](const StatusCode& status, const Message&) {
      std::lock_guard lock(mutex_);
      status_ = status.status;
      changed_.notify_all();
    });
    {
      std::lock_guard lock(mutex_);
      connections_.push_back(connection);
    }
    connection->Start();
  }

  IoThreads io_;
  Server server_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::shared_ptr<Connection>> connections_;
  std::optional<uint8_t> status_;
};

TEST(TypedConnectionTest, FrameTypesAreTheStructsKType) {
  EXPECT_EQ(TypeOf<RunScenarioRequest>(), "RunScenario");
  EXPECT_EQ(TypeOf<StatusCode>(), std::string(StatusCode::kType));
}

TEST(TypedConnectionTest, RequestsAndMessagesTravelAsStructs) {
  TypedServer server;
  IoThreads io(1);
  const auto client = Connect(io.context().get_executor(), server.address(), kWait, {});
  client->Start();

  RunScenarioRequest odd;
  odd.scenario_number = 7;
  EXPECT_TRUE(RequestMessage<RunScenarioResponse>(*client, odd).received);
  RunScenarioRequest even;
  even.scenario_number = 8;
  EXPECT_FALSE(RequestMessage<RunScenarioResponse>(*client, even).received);

  EXPECT_GT(SendMessage(*client, StatusCode{StatusCode::ONLINE_AND_RUNNING}), 0);
  EXPECT_EQ(server.WaitForStatus(), StatusCode::ONLINE_AND_RUNNING);
  client->Close("done");
  io.Stop();
}

TEST(TypedConnectionTest, ABodyThatDoesNotDecodeIsAnsweredWithAnErrorNamingTheField) {
  TypedServer server;
  IoThreads io(1);
  const auto client = Connect(io.context().get_executor(), server.address(), kWait, {});
  client->Start();
  try {
    client->Request(TypeOf<RunScenarioRequest>(), Json{{"scenario_numbr", 3}}, {}, kWait);
    FAIL() << "a request that does not decode got a reply";
  } catch (const RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("scenario_numbr"), std::string::npos) << error.what();
  }
  // The connection stays up: a good request is still answered.
  RunScenarioRequest odd;
  odd.scenario_number = 1;
  EXPECT_TRUE(RequestMessage<RunScenarioResponse>(*client, odd).received);
  client->Close("done");
  io.Stop();
}

}  // namespace
}  // namespace asg::protocol
