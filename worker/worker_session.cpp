// One connection's session (registration, the job handed over by the io thread, the run loop)
// and the connect/reconnect loop around it.
#include "worker/worker_session.h"

#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <variant>

#include "core/log_clip.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/messages_json.h"
#include "protocol/node_messages.h"
#include "protocol/trajectory_codec.h"
#include "protocol/typed_connection.h"
#include "protocol/worker_registration.h"
#include "worker/node_server.h"
#include "worker/scenario_executor.h"
#include "worker/worker_log.h"

namespace asg::worker {

namespace {

using core::LogLevel;
using json::Json;

/// How long the worker waits for the client to answer a request.
constexpr std::chrono::milliseconds kReplyTimeout{30'000};
/// How long one connection attempt may take.
constexpr std::chrono::milliseconds kConnectTimeout{2'000};

/// One connection's session. The io thread hands jobs over through the mutex; the calling
/// thread of Serve() runs them.
class Session {
 public:
  enum class End : uint8_t { kClosed, kRefused };

  /// `data_endpoint` is the data port's "HOST:PORT", told to the client at registration.
  Session(std::shared_ptr<protocol::Connection> connection, const WorkerSettings& settings,
          ScenarioExecutor* executor, std::string data_endpoint)
      : connection_(std::move(connection)),
        settings_(settings),
        executor_(executor),
        data_endpoint_(std::move(data_endpoint)) {}

  End Serve() {
    protocol::OnRequest<protocol::RunScenarioRequest>(
        *connection_, [this](const protocol::RunScenarioRequest& request,
                             const protocol::Message&) { return OnRunScenario(request); });
    connection_->SetCloseHandler([this](const std::string& reason) { OnClose(reason); });
    connection_->Start();
    const End end = Register() ? RunJobs() : End::kRefused;
    // Handlers use this object: it lives until the close handler has run.
    connection_->Close(end == End::kRefused ? "registration refused" : "session over");
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return closed_; });
    return end;
  }

 private:
  bool Register() {
    const protocol::RegisterWorkerRequest request{settings_.worker_id, settings_.token,
                                                  static_cast<int64_t>(::getpid()), data_endpoint_};
    try {
      const auto reply = protocol::RequestMessage<protocol::RegisterWorkerResponse>(
          *connection_, request, {}, kReplyTimeout);
      Log(core::LogLevel::kInfo, core::ClipForLog(reply.message) + " by " + connection_->peer());
      return true;
    } catch (const std::runtime_error& error) {  // RequestError or DecodeError
      Log(core::LogLevel::kError,
          "registration failed: " + core::ClipForLog(error.what(), core::kLogMessageBytes));
      return false;
    }
  }

  End RunJobs() {
    SendStatus(protocol::StatusCode::ONLINE_AND_READY);
    while (true) {
      protocol::RunScenarioRequest job;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return closed_ || pending_.has_value(); });
        if (closed_) return End::kClosed;
        job = std::move(*pending_);
        pending_.reset();
        current_ = job.scenario_number;
      }
      Run(job);
      ReleaseCurrent();
      SendStatus(protocol::StatusCode::ONLINE_AND_READY);
    }
  }

  void Run(const protocol::RunScenarioRequest& job) {
    const uint32_t number = static_cast<uint32_t>(job.scenario_number);
    const std::string scenario = "scenario " + std::to_string(number);
    if (settings_.faults.silent_on.contains(number)) {
      Log(core::LogLevel::kWarning, "fault injection: not starting " + scenario);
      return;
    }
    Log(core::LogLevel::kInfo, "running " + scenario);
    Execution outcome = executor_->Execute(job, [&] {
      SendStatus(protocol::StatusCode::ONLINE_AND_RUNNING);
      if (settings_.faults.crash_on.contains(number)) {
        Log(core::LogLevel::kWarning, "fault injection: crashing on " + scenario);
        std::raise(SIGKILL);
      }
      if (settings_.faults.hang_on.contains(number)) {
        Log(core::LogLevel::kWarning, "fault injection: hanging on " + scenario);
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return closed_; });
      }
    });
    if (const auto* preempted = std::get_if<ScenarioPreempted>(&outcome)) {
      Log(core::LogLevel::kWarning,
          scenario + " preempted: " + core::ClipForLog(preempted->reason, core::kLogMessageBytes));
      Deliver(protocol::RunPreemptedRequest{settings_.worker_id, number, preempted->reason});
      return;
    }
    if (const auto* failed = std::get_if<SceneNotCreated>(&outcome)) {
      Log(core::LogLevel::kWarning, scenario + ": cannot create the scene: " + failed->error);
      protocol::WorkerIssueNotificationRequest issue;
      issue.worker_id = settings_.worker_id;
      issue.issue_id = protocol::WorkerIssueNotificationRequest::ISSUE_PROBLEM_CREATING_SCENE;
      issue.message = failed->error;
      Deliver(issue);
      return;
    }
    ScenarioCompleted& execution = std::get<ScenarioCompleted>(outcome);
    if (settings_.faults.mismatch_on.contains(number)) {
      Log(core::LogLevel::kWarning,
          "fault injection: reporting " + scenario + " as " + std::to_string(number + 1));
      execution.analysis.scenario_number = static_cast<int32_t>(number + 1);
    }
    // Captures travel in the frame's attachment, described in order by analysis.scene_captures
    // and scene_capture_names, and the trajectory after them in binary
    // (protocol/trajectory_codec.h).
    std::string attachment;
    for (const protocol::CaptureImage& image : execution.captures) {
      execution.analysis.scene_captures.push_back({image.png.size()});
      execution.analysis.scene_capture_names.push_back(image.name);
      attachment.append(reinterpret_cast<const char*>(image.png.data()), image.png.size());
    }
    execution.analysis.capture_error = execution.capture_error;
    Log(core::LogLevel::kInfo,
        scenario + " ended: " +
            std::string(protocol::TerminationReasonName(execution.analysis.termination_reason)));
    protocol::PackTrajectory(&execution.analysis, &attachment);
    Deliver(execution.analysis, std::move(attachment));
  }

  /// The current scenario is over on this side: a RunScenario for it from now on (the client
  /// refusing the report and resubmitting) is a new job, not a duplicate.
  void ReleaseCurrent() {
    std::lock_guard lock(mutex_);
    current_.reset();
  }

  /// Sends a request to the client and waits for its reply; a refusal or a lost connection is
  /// logged (the connection's close handler ends the session).
  template <class T>
  void Deliver(const T& body, std::string attachment = {}) {
    ReleaseCurrent();
    try {
      connection_->Request(protocol::TypeOf<T>(), Json(body), std::move(attachment), kReplyTimeout);
    } catch (const protocol::RequestError& error) {
      Log(core::LogLevel::kWarning, core::ClipForLog(error.what(), core::kLogMessageBytes));
    }
  }

  void SendStatus(uint8_t status) {
    protocol::SendMessage(*connection_, protocol::StatusCode{status});
  }

  // Runs on the io thread.
  protocol::RunScenarioResponse OnRunScenario(protocol::RunScenarioRequest request) {
    std::lock_guard lock(mutex_);
    const int32_t number = request.scenario_number;
    const bool held =
        (current_ && *current_ == number) || (pending_ && pending_->scenario_number == number);
    if (!held) {
      if (current_ || pending_) {
        throw std::runtime_error("busy with scenario " +
                                 std::to_string(current_ ? *current_ : pending_->scenario_number));
      }
      pending_ = std::move(request);
      changed_.notify_all();
    }
    return protocol::RunScenarioResponse{true};
  }

  // Runs on the io thread.
  void OnClose(const std::string& reason) {
    std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
    Log(core::LogLevel::kInfo,
        "connection closed: " + core::ClipForLog(reason, core::kLogMessageBytes));
    if (current_ && !settings_.reconnect) {
      // The client is gone and nobody wants this run's result: let it finish for a grace
      // period, then leave without it.
      const auto grace = settings_.exit_grace;
      const int32_t number = *current_;
      std::thread([grace, number] {
        std::this_thread::sleep_for(grace);
        Log(core::LogLevel::kWarning,
            "abandoning scenario " + std::to_string(number) + " and exiting");
        std::_Exit(kWorkerExitOk);
      }).detach();
    }
  }

  std::shared_ptr<protocol::Connection> connection_;
  const WorkerSettings& settings_;
  ScenarioExecutor* executor_;
  std::string data_endpoint_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<protocol::RunScenarioRequest> pending_;  // accepted, not yet started
  std::optional<int32_t> current_;                       // being run
  bool closed_ = false;
};

}  // namespace

int ServeClients(const WorkerSettings& settings, const scene::ActorCatalog& catalog) {
  protocol::IoThreads io(1);
  // The data port of vehicle nodes, on its own io thread so that lock-step replies never wait
  // behind the client's traffic; bound before the first connection.
  protocol::HandOverIo node_io;
  std::unique_ptr<NodeServer> node_server;
  try {
    NodeServerSettings node_settings;
    node_settings.listen = settings.data_listen;
    node_settings.token = settings.token;
    node_settings.connection = settings.connection;
    node_server = std::make_unique<NodeServer>(node_io.context().get_executor(), node_settings);
    node_server->SetHandOver(&node_io);
    node_io.SetSpin(settings.node_spin);
  } catch (const std::exception& error) {
    Log(core::LogLevel::kError, std::string("cannot listen for vehicle nodes: ") + error.what());
    return kWorkerExitFailure;
  }
  Log(core::LogLevel::kInfo, "data endpoint for vehicle nodes: " + node_server->endpoint());
  if (const std::string local = node_server->local_endpoint(); !local.empty()) {
    Log(core::LogLevel::kInfo, "same-host channel for vehicle nodes: " + local);
  }
  ScenarioExecutor executor(catalog, settings.worker_id);
  executor.SetNodeServer(node_server.get());
  const auto first_deadline = std::chrono::steady_clock::now() + settings.connect_window;
  bool connected_before = false;
  while (true) {
    std::shared_ptr<protocol::Connection> connection;
    try {
      connection = protocol::Connect(io.context().get_executor(), settings.connect, kConnectTimeout,
                                     settings.connection);
    } catch (const std::runtime_error& error) {
      const bool keep_trying =
          settings.reconnect ||
          (!connected_before && std::chrono::steady_clock::now() < first_deadline);
      if (!keep_trying) {
        Log(core::LogLevel::kError, std::string("cannot connect: ") + error.what());
        return connected_before ? kWorkerExitOk : kWorkerExitFailure;
      }
      std::this_thread::sleep_for(settings.retry_period);
      continue;
    }
    connected_before = true;
    Log(core::LogLevel::kInfo,
        "worker " + std::to_string(settings.worker_id) + " connected to " + settings.connect);
    Session session(connection, settings, &executor, node_server->endpoint());
    if (session.Serve() == Session::End::kRefused) return kWorkerExitFailure;
    if (!settings.reconnect) return kWorkerExitOk;
    Log(core::LogLevel::kInfo, "reconnecting to " + settings.connect);
    std::this_thread::sleep_for(settings.retry_period);
  }
}

}  // namespace asg::worker
