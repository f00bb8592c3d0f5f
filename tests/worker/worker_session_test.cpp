// Tests for worker/worker_session.h: a worker served by a scripted client over loopback.
#include "worker/worker_session.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <mutex>
#include <vector>

#include "protocol/io_threads.h"
#include "protocol/server.h"
#include "protocol/trajectory_codec.h"
#include "protocol/typed_connection.h"
#include "protocol/worker_registration.h"
#include "scene/actor_catalog.h"
#include "tests/source_catalog.h"
#include "tests/worker/small_request.h"

namespace asg::worker {
namespace {

using protocol::Message;

/// The small scenario with `number`.
protocol::RunScenarioRequest SmallRequest(int32_t number) {
  return testing::SmallRequest(number, 77);
}

/// The client's side, scripted: accepts registrations whose token matches, records what the
/// worker sends, and sends RunScenario requests on demand.
class ScriptedClient {
 public:
  explicit ScriptedClient(std::string token) : token_(std::move(token)) {}

  std::string endpoint() const { return "127.0.0.1:" + std::to_string(server_.port()); }

  /// Waits until `done` holds over the recorded state, at most 20 s; false on timeout.
  template <class Predicate>
  bool WaitFor(Predicate done) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(20), [&] { return done(); });
  }

  void SendRun(const protocol::RunScenarioRequest& request) {
    std::shared_ptr<protocol::Connection> connection;
    {
      std::lock_guard lock(mutex_);
      connection = connection_;
    }
    protocol::AsyncRequestMessage(*connection, request, {}, std::chrono::seconds(5),
                                  [](protocol::RequestResult) {});
  }

  void Close() {
    std::lock_guard lock(mutex_);
    if (connection_) connection_->Close("test over");
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<protocol::RegisterWorkerRequest> registrations_;
  std::vector<uint8_t> statuses_;
  std::vector<protocol::AnalyzeScenarioRequest> results_;
  int refused_ = 0;

 private:
  void OnAccept(std::shared_ptr<protocol::Connection> connection) {
    protocol::Connection* raw = connection.get();
    protocol::OnMessage<protocol::RegisterWorkerRequest>(
        *connection,
        [this, raw](const protocol::RegisterWorkerRequest& request, const Message& message) {
          std::lock_guard lock(mutex_);
          if (request.token != token_) {
            ++refused_;
            raw->ReplyError(message.reference, "refused: wrong token");
            raw->Close("wrong token");
          } else {
            registrations_.push_back(request);
            raw->Reply(message, json::Json(protocol::RegisterWorkerResponse{true, "ok"}));
          }
          changed_.notify_all();
        });
    protocol::OnMessage<protocol::StatusCode>(
        *connection, [this](const protocol::StatusCode& status, const Message&) {
          std::lock_guard lock(mutex_);
          statuses_.push_back(status.status);
          changed_.notify_all();
        });
    connection->SetHandler(
        protocol::TypeOf<protocol::AnalyzeScenarioRequest>(), [this, raw](const Message& message) {
          auto analysis =
              protocol::DecodeMessage<protocol::AnalyzeScenarioRequest>(message.message);
          protocol::UnpackTrajectory(&analysis, message.attachment);
          raw->Reply(message, json::Json(protocol::AnalyzeScenarioResponse{true}));
          std::lock_guard lock(mutex_);
          results_.push_back(std::move(analysis));
          changed_.notify_all();
        });
    {
      std::lock_guard lock(mutex_);
      connection_ = connection;
    }
    connection->Start();
  }

  std::string token_;
  protocol::IoThreads io_{1};
  std::shared_ptr<protocol::Connection> connection_;
  protocol::Server server_{
      io_.context().get_executor(),
      "127.0.0.1",
      0,
      {},
      [this](std::shared_ptr<protocol::Connection> c) { OnAccept(std::move(c)); }};
};

class WorkerSessionTest : public ::testing::Test {
 protected:
  WorkerSettings Settings(const ScriptedClient& client, const std::string& token) {
    WorkerSettings settings;
    settings.connect = client.endpoint();
    settings.worker_id = 7;
    settings.token = token;
    settings.exit_grace = std::chrono::milliseconds(100);
    return settings;
  }
  scene::ActorCatalog catalog_ = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
};

TEST_F(WorkerSessionTest, RegistersRunsAScenarioAndReportsItsStatusAndResult) {
  ScriptedClient client("secret");
  auto exit_code = std::async(std::launch::async,
                              [&] { return ServeClients(Settings(client, "secret"), catalog_); });
  ASSERT_TRUE(client.WaitFor([&] { return !client.statuses_.empty(); }));
  {
    std::lock_guard lock(client.mutex_);
    ASSERT_EQ(client.registrations_.size(), 1u);
    EXPECT_EQ(client.registrations_[0].worker_id, 7);
    EXPECT_EQ(client.registrations_[0].token, "secret");
    EXPECT_GT(client.registrations_[0].pid, 0);
    EXPECT_FALSE(client.registrations_[0].data_endpoint.empty());
    EXPECT_EQ(client.statuses_[0], protocol::StatusCode::ONLINE_AND_READY);
  }
  client.SendRun(SmallRequest(12));
  ASSERT_TRUE(
      client.WaitFor([&] { return !client.results_.empty() && client.statuses_.size() >= 3; }));
  {
    std::lock_guard lock(client.mutex_);
    const protocol::AnalyzeScenarioRequest& result = client.results_[0];
    EXPECT_EQ(result.worker_id, 7);
    EXPECT_EQ(result.scenario_number, 12);
    EXPECT_EQ(result.termination_reason, protocol::TerminationReason::REASON_SUCCESS);
    EXPECT_FALSE(result.vehicle_trajectory.empty());
    // READY, then RUNNING once the scene is built, then READY again after the report.
    EXPECT_EQ(client.statuses_[1], protocol::StatusCode::ONLINE_AND_RUNNING);
    EXPECT_EQ(client.statuses_[2], protocol::StatusCode::ONLINE_AND_READY);
  }
  client.Close();
  ASSERT_EQ(exit_code.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_EQ(exit_code.get(), kWorkerExitOk);
}

TEST_F(WorkerSessionTest, AWrongTokenIsRefusedAndTheWorkerExitsWithFailure) {
  ScriptedClient client("secret");
  auto exit_code = std::async(std::launch::async,
                              [&] { return ServeClients(Settings(client, "guess"), catalog_); });
  ASSERT_EQ(exit_code.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_EQ(exit_code.get(), kWorkerExitFailure);
  std::lock_guard lock(client.mutex_);
  EXPECT_EQ(client.refused_, 1);
  EXPECT_TRUE(client.registrations_.empty());
  EXPECT_TRUE(client.results_.empty());
}

}  // namespace
}  // namespace asg::worker
