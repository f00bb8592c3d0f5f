// Tests for worker/serve/client_hub.h: a hub on loopback whose services are stand-ins recorded by
// the test; the token, routing and its errors, deferred answers with the requests that waited,
// pushed and broadcast frames, quitting, and the communication log of all of it.
#include "worker/serve/client_hub.h"

#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <future>
#include <thread>

#include "protocol/frame.h"
#include "tests/protocol/loopback_fixture.h"
#include "tests/worker/serve/served_client.h"

namespace asg::worker::serve {
namespace {

using json::Json;
using testing::Eventually;
using testing::ServedClient;

/// A hub serving from its own thread; its services answer as set below.
class ClientHubTest : public ::testing::Test {
 protected:
  ClientHubTest() { Start({}); }
  ~ClientHubTest() override { Stop(); }

  /// (Re)starts the hub with `token`.
  void Start(const std::string& token) {
    Stop();
    io_.restart();
    hub_ = std::make_unique<ClientHub>(
        io_, HubSettings{"127.0.0.1", 0, token}, logs_,
        [this](const Service&, const Call& call) { return Handle(call); });
    address_ = "127.0.0.1:" + std::to_string(hub_->Listen());
    thread_ = std::thread([this] {
      auto work = boost::asio::make_work_guard(io_);
      io_.run();
    });
  }

  void Stop() {
    if (!thread_.joinable()) return;
    io_.stop();
    thread_.join();
    hub_.reset();
  }

  /// Runs `task` on the hub's thread and waits for it.
  void OnHubThread(const std::function<void()>& task) {
    std::promise<void> done;
    boost::asio::post(io_, [&] {
      task();
      done.set_value();
    });
    done.get_future().wait();
  }

  /// The stand-in services: GetSimulationState counts, StepSimulation is answered later,
  /// SubscribeEvents subscribes, SetSimulationPace throws, SetSimulationState quits.
  Reply Handle(const Call& call) {
    const std::string& type = call.message->type;
    if (type == "StepSimulation") {
      hub_->Defer(call);
      Reply later;
      later.later = true;
      return later;
    }
    if (type == "SubscribeEvents") hub_->Subscribe(call);
    if (type == "SetSimulationPace") throw std::invalid_argument("simulation_pace = -1: no");
    if (type == "SetSimulationState") hub_->Quit();
    if (type == "GetSimulationStatus") return Reply(Json{{"success", false}});
    return Reply(Json{{"handled", ++handled_}, {"client_id", call.client_id}});
  }

  std::unique_ptr<ServedClient> Connect() {
    return std::make_unique<ServedClient>(client_io_, address_);
  }

  boost::asio::io_context io_;
  SessionLogs logs_;
  std::unique_ptr<ClientHub> hub_;
  std::thread thread_;
  std::string address_;
  int handled_ = 0;  // on the hub's thread
  protocol::IoThreads client_io_{1};
};

TEST_F(ClientHubTest, RequestsReachTheirServiceWithTheClientsId) {
  auto first = Connect();
  auto second = Connect();
  EXPECT_EQ(first->Body("GetSimulationState"), Json::parse(R"({"handled": 1, "client_id": 1})"));
  EXPECT_EQ(second->Body("GetSimulationState")["client_id"], 2);
  EXPECT_EQ(first->Body("Hello")["client_id"], 1);  // Hello is optional without a token
}

TEST_F(ClientHubTest, UnknownServicesAndFailingHandlersAreAnsweredError) {
  auto client = Connect();
  EXPECT_NE(client->ErrorOf("Bogus", Json::object())
                .find("unknown service \"Bogus\" (ListServices lists them)"),
            std::string::npos);
  EXPECT_NE(client->ErrorOf("SetSimulationPace", Json::object())
                .find("SetSimulationPace: simulation_pace"),
            std::string::npos);
  EXPECT_EQ(client->Body("GetSimulationState")["handled"], 1);  // still answering
}

TEST_F(ClientHubTest, ATokenIsAskedForFirst) {
  Start("secret");
  auto anonymous = Connect();
  EXPECT_NE(anonymous->ErrorOf("GetSimulationState", Json::object()).find("send Hello"),
            std::string::npos);
  EXPECT_TRUE(Eventually([&] { return !anonymous->connection().IsOpen(); }));
  auto wrong = Connect();
  EXPECT_NE(wrong->ErrorOf("Hello", {{"token", "guess"}}).find("wrong token"), std::string::npos);
  auto member = Connect();
  EXPECT_EQ(member->Body("Hello", {{"token", "secret"}})["success"], true);
  EXPECT_EQ(member->Body("GetSimulationState")["handled"], 1);
}

uint16_t PortOf(const std::string& address) {
  return static_cast<uint16_t>(std::stoi(address.substr(address.rfind(':') + 1)));
}

TEST_F(ClientHubTest, AMonoDriveClientIsAnsweredInItsFramingUnderItsRequestsType) {
  Start("secret");
  protocol::testing::RawClient client(PortOf(address_), true);
  client.Write(protocol::EncodeMonoDriveFrame("Hello", 5, Json{{"token", "secret"}}));
  protocol::Message reply = client.ReadReply();
  EXPECT_EQ(reply.type, "Hello");
  EXPECT_EQ(reply.reference, 5);
  EXPECT_EQ(reply.message["success"], true);
  client.Write(protocol::EncodeMonoDriveFrame("GetSimulationState", 6, Json::object()) +
               protocol::EncodeMonoDriveFrame("Bogus", 7, Json::object()));
  reply = client.ReadReply();
  EXPECT_EQ(reply.type, "GetSimulationState");
  EXPECT_EQ(reply.message["handled"], 1);
  reply = client.ReadReply();
  EXPECT_EQ(reply.type, "Bogus");
  EXPECT_EQ(reply.reference, 7);
  EXPECT_EQ(reply.message["success"], false);
  // No frame comes unasked (a heartbeat would within 0.5 s), and every byte was monoDrive's.
  const protocol::testing::RawReadResult unasked = client.Read(0, std::chrono::milliseconds(1200));
  EXPECT_TRUE(unasked.frames.empty());
  EXPECT_EQ(unasked.decode_error, "");
  EXPECT_FALSE(unasked.closed);
}

TEST_F(ClientHubTest, BeforeHelloAMonoDriveFrameOverTheCapIsRefusedFromItsHeader) {
  Start("secret");
  protocol::testing::RawClient stranger(PortOf(address_), true);
  std::string header = "mono";
  for (const int shift : {24, 16, 8, 0}) header += static_cast<char>((100'000 >> shift) & 0xFF);
  stranger.Write(header);
  const protocol::testing::RawReadResult result = stranger.ReadUntilClosed();
  ASSERT_EQ(result.frames.size(), 1u) << result.decode_error;
  EXPECT_EQ(result.frames[0].type, protocol::kErrorType);
  EXPECT_EQ(protocol::ErrorDescription(result.frames[0].message),
            "frame header: JSON length 99992 bytes is over the cap of 65536 bytes for a peer not "
            "yet registered");
  EXPECT_TRUE(result.closed);
}

TEST_F(ClientHubTest, RequestsWaitForADeferredAnswerAndFollowItInOrder) {
  auto stepper = Connect();
  auto other = Connect();
  auto step = testing::Later(*stepper, "StepSimulation", Json::object());
  // The deferred call is held once the hub has it: wait until it is logged.
  ASSERT_TRUE(Eventually([&] {
    bool held = false;
    OnHubThread([&] { held = !logs_.QueryCommunication({1, "StepSimulation", {}}).empty(); });
    return held;
  }));
  auto waiting = testing::Later(*other, "GetSimulationState", Json::object());
  auto also = testing::Later(*other, "GetSimulationState", Json::object());
  ASSERT_TRUE(Eventually([&] {
    size_t arrived = 0;
    OnHubThread([&] { arrived = logs_.QueryCommunication({2, {}, {}}).size(); });
    return arrived == 2;
  }));
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);
  OnHubThread([&] {
    EXPECT_EQ(handled_, 0);  // nothing handled while the call is deferred
    hub_->AnswerDeferred({{"result", {{"result", 1}}}});
  });
  EXPECT_EQ(step.get().reply.message["result"]["result"], 1);
  EXPECT_EQ(waiting.get().reply.message["handled"], 1);
  EXPECT_EQ(also.get().reply.message["handled"], 2);
}

TEST_F(ClientHubTest, PushedFramesReachTheirClientAndBroadcastsTheSubscribers) {
  auto pushed = Connect();
  auto subscriber = Connect();
  const int pushed_id = pushed->Body("GetSimulationState")["client_id"];
  EXPECT_EQ(subscriber->Body("SubscribeEvents")["handled"], 2);
  OnHubThread([&] {
    hub_->Push(pushed_id, "SimulateStepsFeedback", {{"goal_id", 7}});
    hub_->Broadcast("Event", {{"n", 1}});
    hub_->Push(99, "SimulateStepsResult", {{"goal_id", 7}});  // a client that has gone
  });
  EXPECT_EQ(pushed->Next("SimulateStepsFeedback").message["goal_id"], 7);
  EXPECT_EQ(subscriber->Next("Event").message["n"], 1);
  EXPECT_TRUE(pushed->Take("Event").empty());
  Json gone;
  OnHubThread([&] { gone = logs_.QueryCommunication({99, {}, {}}); });
  ASSERT_EQ(gone.size(), 1u);  // logged all the same
  EXPECT_EQ(gone[0]["direction"], "event");
}

TEST_F(ClientHubTest, RepliesThatReportAFailureAreLoggedAsErrors) {
  auto client = Connect();
  EXPECT_EQ(client->Body("GetSimulationStatus")["success"], false);
  client->ErrorOf("Bogus", Json::object());
  Json errors;
  OnHubThread([&] { errors = logs_.QueryCommunication({{}, {}, "error"}); });
  ASSERT_EQ(errors.size(), 2u) << errors.dump();
  EXPECT_EQ(errors[0]["type"], "GetSimulationStatusResponse");
  EXPECT_EQ(errors[1]["type"], "Error");
}

TEST_F(ClientHubTest, QuittingRefusesNewClientsAndMostRequestsThenStops) {
  auto client = Connect();
  EXPECT_EQ(client->Body("SetSimulationState")["handled"], 1);  // quits
  EXPECT_NE(client->ErrorOf("StepSimulation", Json::object()).find("the simulation is quitting"),
            std::string::npos);
  EXPECT_EQ(client->Body("GetSimulationState")["handled"], 2);
  EXPECT_THROW(Connect(), std::exception);  // no longer listening
  client.reset();                           // the last client leaves
  EXPECT_TRUE(Eventually([&] { return io_.stopped(); }));
}

}  // namespace
}  // namespace asg::worker::serve
