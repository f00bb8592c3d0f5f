// Tests for client/farm/farm_links.h: a worker registering over loopback becomes a
// farm_event::Registered whose WorkerChannel sends its RunScenario and answers its reports; wrong
// tokens, taken ids, frames before registration and generators without a search are refused.
#include "client/farm/farm_links.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <variant>

#include "protocol/endpoint.h"
#include "protocol/generator_messages.h"
#include "protocol/io_threads.h"
#include "protocol/typed_connection.h"
#include "protocol/worker_registration.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using std::chrono::seconds;

/// A WorkerLinks with token "t0k" on loopback, the events it pushes, and worker connections.
class FarmLinksTest : public ::testing::Test {
 protected:
  FarmLinksTest()
      : logger_(dir_.path() / "log.txt", false),
        links_(io_.context().get_executor(), Settings(), &events_, &logger_) {}
  ~FarmLinksTest() override {
    links_.Stop();
    for (const auto& connection : workers_) connection->Close("test over");
    io_.Stop();  // no handler runs while the members go
  }

  static LinkSettings Settings() {
    LinkSettings settings;
    settings.token = "t0k";
    return settings;
  }

  /// A started connection to the links; RunScenario requests are answered with an Error.
  std::shared_ptr<protocol::Connection> Connect() {
    auto worker = protocol::Connect(io_.context().get_executor(),
                                    "127.0.0.1:" + std::to_string(links_.port()), seconds(2));
    worker->SetRequestHandler("RunScenario", [this](const protocol::Message& message) -> Json {
      std::lock_guard lock(mutex_);
      runs_.push_back(message.message["scenario_number"].get<uint32_t>());
      throw std::runtime_error("busy with another scenario");
    });
    worker->Start();
    workers_.push_back(worker);
    return worker;
  }

  /// Registers `worker` as worker `id`; returns the reply or throws protocol::RequestError.
  static protocol::RegisterWorkerResponse Register(protocol::Connection& worker, uint16_t id,
                                                   const std::string& token = "t0k") {
    return protocol::RequestMessage<protocol::RegisterWorkerResponse>(
        worker, protocol::RegisterWorkerRequest{id, token, 4242, "127.0.0.1:9000"});
  }

  /// The next event the links pushed (waiting up to 10 s).
  FarmEvent Next() {
    const auto deadline = std::chrono::steady_clock::now() + seconds(10);
    while (pending_.empty() && std::chrono::steady_clock::now() < deadline) {
      for (FarmEvent& event : events_.WaitAll(std::chrono::milliseconds(100))) {
        pending_.push_back(std::move(event));
      }
    }
    if (pending_.empty()) throw std::runtime_error("no event within 10 s");
    FarmEvent event = std::move(pending_.front());
    pending_.pop_front();
    return event;
  }

  /// The next event, which must be a `T`.
  template <class T>
  T NextOf(WorkerKey* key = nullptr) {
    FarmEvent event = Next();
    if (key != nullptr) *key = event.worker;
    T* payload = std::get_if<T>(&event.payload);
    if (payload == nullptr) throw std::runtime_error("unexpected event");
    return std::move(*payload);
  }

  protocol::IoThreads io_{1};
  testutil::TempDir dir_;
  core::Logger logger_;
  EventQueue events_;
  WorkerLinks links_;
  std::deque<FarmEvent> pending_;
  std::vector<std::shared_ptr<protocol::Connection>> workers_;
  std::mutex mutex_;
  std::vector<uint32_t> runs_;  // scenario numbers of the RunScenario requests received
};

TEST_F(FarmLinksTest, ARegisteredWorkersChannelSendsItsRunsAndAnswersItsReports) {
  const auto worker = Connect();
  EXPECT_TRUE(Register(*worker, 7).accepted);
  WorkerKey key = 0;
  const farm_event::Registered registered = NextOf<farm_event::Registered>(&key);
  WorkerChannel& channel = *registered.channel;
  EXPECT_EQ(channel.identity().worker_id, 7);
  EXPECT_EQ(channel.identity().pid, 4242);
  EXPECT_EQ(channel.identity().data_endpoint, "127.0.0.1:9000");
  EXPECT_EQ(channel.identity().peer.rfind("127.0.0.1:", 0), 0u);
  EXPECT_TRUE(channel.IsOpen());

  // A RunScenario the worker answers with an Error comes back as RunRefused.
  channel.SendRun(3, Json{{"scenario_number", 3}});
  const farm_event::RunRefused refused = NextOf<farm_event::RunRefused>();
  EXPECT_EQ(refused.scenario_number, 3u);
  EXPECT_NE(refused.reason.find("busy with another scenario"), std::string::npos) << refused.reason;
  {
    std::lock_guard lock(mutex_);
    EXPECT_EQ(runs_, std::vector<uint32_t>{3});
  }

  // Status codes and reports become events; the loop's answer goes back through the channel.
  protocol::SendMessage(*worker, protocol::StatusCode{protocol::StatusCode::ONLINE_AND_RUNNING});
  EXPECT_EQ(NextOf<farm_event::Status>().status, protocol::StatusCode::ONLINE_AND_RUNNING);
  protocol::AnalyzeScenarioRequest analysis;
  analysis.scenario_number = 3;
  std::mutex answered_mutex;
  std::condition_variable answered_changed;
  std::optional<protocol::RequestResult> answered;
  protocol::AsyncRequestMessage(*worker, analysis, {}, seconds(10),
                                [&](protocol::RequestResult result) {
                                  std::lock_guard lock(answered_mutex);
                                  answered = std::move(result);
                                  answered_changed.notify_all();
                                });
  const farm_event::Result result = NextOf<farm_event::Result>();
  EXPECT_EQ(result.error, "");
  EXPECT_EQ(result.analysis.scenario_number, 3);
  channel.Accept(result.request);
  {
    std::unique_lock lock(answered_mutex);
    ASSERT_TRUE(answered_changed.wait_for(lock, seconds(10), [&] { return answered.has_value(); }));
    EXPECT_TRUE(answered->success) << answered->description;
    EXPECT_EQ(answered->reply.message["received"], true);
  }

  // Closing the channel closes the connection: the links report it.
  channel.Close("batch finished");
  WorkerKey closed_key = 0;
  NextOf<farm_event::Closed>(&closed_key);
  EXPECT_EQ(closed_key, key);
}

TEST_F(FarmLinksTest, AReportWithACaptureNameThatIsNoPlainFileNameIsMalformed) {
  const auto worker = Connect();
  ASSERT_TRUE(Register(*worker, 7).accepted);
  NextOf<farm_event::Registered>();
  protocol::AnalyzeScenarioRequest analysis;
  analysis.scenario_number = 3;
  analysis.scene_captures = {{3}};
  analysis.scene_capture_names = {"../escape"};
  protocol::AsyncRequestMessage(*worker, analysis, "png", seconds(10),
                                [](protocol::RequestResult) {});
  // Refused at the boundary (the loop runs the scenario again), not left to the writer.
  const farm_event::Result result = NextOf<farm_event::Result>();
  EXPECT_NE(result.error.find("scene_capture_names[0]"), std::string::npos) << result.error;
  EXPECT_NE(result.error.find("is not a plain file name"), std::string::npos) << result.error;
}

TEST_F(FarmLinksTest, AWrongTokenOrATakenIdIsRefusedAndAnIdIsFreeAgainOnceItsWorkerLeft) {
  const auto stranger = Connect();
  EXPECT_THROW(Register(*stranger, 1, "wrong"), protocol::RequestError);
  const auto first = Connect();
  ASSERT_TRUE(Register(*first, 1).accepted);
  NextOf<farm_event::Registered>();
  const auto second = Connect();
  try {
    Register(*second, 1);
    ADD_FAILURE() << "a taken id was accepted";
  } catch (const protocol::RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("worker id 1 is taken by another connected worker"),
              std::string::npos)
        << error.what();
  }
  first->Close("leaving");
  NextOf<farm_event::Closed>();
  EXPECT_TRUE(Register(*Connect(), 1).accepted);
}

TEST_F(FarmLinksTest, FramesBeforeRegistrationAndGeneratorsWithoutASearchAreRefused) {
  const auto early = Connect();
  EXPECT_THROW((protocol::RequestMessage<protocol::AnalyzeScenarioResponse>(
                   *early, protocol::AnalyzeScenarioRequest{})),
               protocol::RequestError);
  const auto generator = Connect();
  try {
    protocol::RequestMessage<protocol::GeneratorRegistrationResponse>(
        *generator, protocol::GeneratorRegistration{"gen", "t0k"});
    ADD_FAILURE() << "a generator was accepted without a search";
  } catch (const protocol::RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("this client runs no external search"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace asg::client
