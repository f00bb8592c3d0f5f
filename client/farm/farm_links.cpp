// Worker connections: registration with the token check, each registered worker's channel, and
// frames turned into FarmEvents.
#include "client/farm/farm_links.h"

#include <stdexcept>
#include <type_traits>
#include <utility>

#include "client/nodes/node_links.h"
#include "core/log_clip.h"
#include "protocol/generator_messages.h"
#include "protocol/messages_json.h"
#include "protocol/node_messages.h"
#include "protocol/token_guard.h"
#include "protocol/trajectory_codec.h"
#include "protocol/typed_connection.h"
#include "protocol/worker_registration.h"
#include "results/folder.h"

namespace asg::client {

namespace {

using protocol::Connection;
using protocol::Message;

/// How long a RunScenario may wait for its RunScenarioResponse.
constexpr std::chrono::milliseconds kRunReplyTimeout{10'000};

/// A registered worker's connection as the farm loop's channel to it.
class ConnectionChannel final : public WorkerChannel {
 public:
  ConnectionChannel(std::shared_ptr<Connection> connection, WorkerIdentity identity, WorkerKey key,
                    EventQueue* queue)
      : connection_(std::move(connection)),
        identity_(std::move(identity)),
        key_(key),
        queue_(queue) {}

  const WorkerIdentity& identity() const override { return identity_; }

  void SendRun(uint32_t scenario_number, const json::Json& request) override {
    connection_->AsyncRequest(
        protocol::TypeOf<protocol::RunScenarioRequest>(), request, {}, kRunReplyTimeout,
        [queue = queue_, key = key_, scenario_number](protocol::RequestResult result) {
          if (result.success) return;
          queue->Push(FarmEvent{key, farm_event::RunRefused{scenario_number, result.description}});
        });
  }

  void Accept(const Message& report) override {
    connection_->Reply(report, json::Json(protocol::AnalyzeScenarioResponse{true}));
  }

  void Refuse(const Message& report, const std::string& reason) override {
    connection_->ReplyError(report.reference, "refused: " + reason);
  }

  void Close(const std::string& reason) override { connection_->Close(reason); }
  bool IsOpen() const override { return connection_->IsOpen(); }

 private:
  std::shared_ptr<Connection> connection_;
  WorkerIdentity identity_;
  WorkerKey key_;
  EventQueue* queue_;
};

/// The settings of accepted connections: `settings.connection` with the registration deadline.
protocol::ConnectionSettings AcceptedSettings(const LinkSettings& settings) {
  protocol::ConnectionSettings connection = settings.connection;
  connection.registration_timeout = settings.registration_timeout;
  return connection;
}

/// The PNGs of an AnalyzeScenario frame: the first `length` bytes of `attachment` (the rest is
/// the packed trajectory) cut in the sizes `described`, in order. Throws DecodeError when the
/// sizes do not add up to `length`.
std::vector<protocol::CaptureImage> CutCaptures(const std::vector<protocol::CaptureFile>& described,
                                                const std::string& attachment, uint64_t length) {
  uint64_t total = 0;
  for (const protocol::CaptureFile& file : described) total += file.size;
  if (total != length) {
    throw json::DecodeError("captures", "sizes add up to " + std::to_string(total) +
                                            " bytes but the images take " + std::to_string(length) +
                                            " of the attachment");
  }
  std::vector<protocol::CaptureImage> captures;
  size_t offset = 0;
  for (const protocol::CaptureFile& file : described) {
    if (!results::IsCaptureName(file.name)) {
      throw json::DecodeError("captures[" + std::to_string(captures.size()) + "].name",
                              "\"" + file.name.substr(0, 64) + "\" is not a plain file name");
    }
    captures.push_back({file.name, attachment.substr(offset, file.size)});
    offset += file.size;
  }
  return captures;
}

/// A handler of T's frames that refuses an unregistered peer (Error reply, then close) and hands
/// a registered one's decoded body to `handler(Connection&, const T&, const Message&)` (T =
/// Message: the frame itself, undecoded).
template <class T, class F>
Connection::Handler Guarded(std::weak_ptr<Connection> weak,
                            std::shared_ptr<std::atomic<bool>> registered, std::string peer,
                            core::Logger* logger, F handler) {
  return [weak, registered, peer, logger, handler](const Message& message) {
    auto self = weak.lock();
    if (!self) return;
    if (!registered->load()) {
      logger->Warning("refused " + core::ClipForLog(message.type) + " from " + peer +
                      ": not registered");
      self->ReplyError(
          message.reference,
          "register with " + protocol::TypeOf<protocol::RegisterWorkerRequest>() + " first");
      self->Close("message before registration");
      return;
    }
    if constexpr (std::is_same_v<T, Message>) {
      handler(*self, message, message);  // the body is the handler's to decode
    } else {
      handler(*self, protocol::DecodeMessage<T>(message.message), message);
    }
  };
}

}  // namespace

WorkerLinks::WorkerLinks(const boost::asio::any_io_executor& executor, const LinkSettings& settings,
                         EventQueue* queue, core::Logger* logger, GeneratorPort* generator)
    : settings_(settings),
      queue_(queue),
      logger_(logger),
      generator_(generator),
      server_(executor, settings.host, settings.port, AcceptedSettings(settings),
              [this](std::shared_ptr<Connection> connection) { OnAccept(std::move(connection)); }) {
}

void WorkerLinks::OnAccept(std::shared_ptr<Connection> connection) {
  const WorkerKey key = next_key_.fetch_add(1);
  auto registered = std::make_shared<std::atomic<bool>>(false);
  auto node = std::make_shared<std::atomic<bool>>(false);  // sent a control-plane request
  std::weak_ptr<Connection> weak = connection;
  const std::string peer = connection->peer();
  EventQueue* queue = queue_;
  core::Logger* logger = logger_;

  // Every handler but RegisterWorker refuses an unregistered peer.
  const auto guarded = [weak, registered, peer, logger]<class T>(auto handler) {
    return Guarded<T>(weak, registered, peer, logger, std::move(handler));
  };

  auto worker_id = std::make_shared<std::atomic<uint16_t>>(0);  // valid once registered
  protocol::OnMessage<protocol::RegisterWorkerRequest>(
      *connection, [taken = taken_, weak, registered, node, worker_id, peer, key, queue, logger,
                    token = settings_.token](const protocol::RegisterWorkerRequest& request,
                                             const Message& message) {
        auto self = weak.lock();
        if (!self) return;
        const protocol::TokenCheck check =
            protocol::TokenGuard::Process().Check(token, request.token, peer);
        if (check != protocol::TokenCheck::kAccepted) {
          const std::string reason = protocol::TokenRefusal(check, peer);
          logger->Warning("refused worker " + std::to_string(request.worker_id) + " (pid " +
                          std::to_string(request.pid) + ") from " + peer + ": " + reason);
          self->ReplyError(message.reference, "refused: " + reason);
          self->Close(reason);
          return;
        }
        if (node->load())
          throw std::runtime_error("a vehicle node's connection cannot register a worker");
        if (registered->load()) throw std::runtime_error("already registered");
        if (!taken->Take(request.worker_id)) {
          const std::string reason = "refused: worker id " + std::to_string(request.worker_id) +
                                     " is taken by another connected worker";
          logger->Warning(reason + " (pid " + std::to_string(request.pid) + " from " + peer + ")");
          self->ReplyError(message.reference, reason);
          self->Close("worker id " + std::to_string(request.worker_id) + " taken");
          return;
        }
        worker_id->store(request.worker_id);
        registered->store(true);
        self->MarkRegistered();
        self->Reply(message,
                    json::Json(protocol::RegisterWorkerResponse{
                        true, "registered as worker " + std::to_string(request.worker_id)}));
        WorkerIdentity identity{request.worker_id, request.pid, peer, request.data_endpoint};
        queue->Push(FarmEvent{key, farm_event::Registered{std::make_unique<ConnectionChannel>(
                                       self, std::move(identity), key, queue)}});
      });

  connection->SetHandler(
      protocol::TypeOf<protocol::StatusCode>(),
      guarded.template operator()<protocol::StatusCode>(
          [key, queue](Connection&, const protocol::StatusCode& status, const Message&) {
            queue->Push(FarmEvent{key, farm_event::Status{status.status}});
          }));

  // A report that does not decode is not refused here: the farm loop refuses it and runs the
  // scenario again, so its body is decoded below rather than by the guard.
  connection->SetHandler(
      protocol::TypeOf<protocol::AnalyzeScenarioRequest>(),
      guarded.template operator()<Message>(
          [key, queue](Connection&, const Message&, const Message& message) {
            farm_event::Result event;
            event.request.type = message.type;
            event.request.reference = message.reference;
            // The connection boundary: a report that does not decode is refused by the farm loop,
            // which then runs the scenario again.
            try {
              event.analysis =
                  protocol::DecodeMessage<protocol::AnalyzeScenarioRequest>(message.message);
              const protocol::TrajectoryAttachment& packed = event.analysis.trajectory_attachment;
              const uint64_t images = packed.count > 0 ? packed.offset : message.attachment.size();
              event.captures = CutCaptures(event.analysis.captures, message.attachment, images);
              protocol::UnpackTrajectory(&event.analysis, message.attachment);
            } catch (const json::DecodeError& error) {
              event.error = error.what();
            }
            queue->Push(FarmEvent{key, std::move(event)});
          }));

  connection->SetHandler(
      protocol::TypeOf<protocol::WorkerIssueNotificationRequest>(),
      guarded.template operator()<protocol::WorkerIssueNotificationRequest>(
          [key, queue](Connection& self, const protocol::WorkerIssueNotificationRequest& issue,
                       const Message& message) {
            self.Reply(message, json::Json(protocol::WorkerIssueNotificationResponse{true}));
            queue->Push(FarmEvent{key, farm_event::Issue{issue}});
          }));

  // An external search's scenario generator: registered here, then used by the search.
  auto generator = std::make_shared<std::atomic<bool>>(false);
  const protocol::Connection* raw = connection.get();
  protocol::OnMessage<
      protocol::GeneratorRegistration>(*connection, [weak, registered, node, generator, peer,
                                                     logger, link = generator_](
                                                        const protocol::GeneratorRegistration&
                                                            request,
                                                        const Message& message) {
    auto self = weak.lock();
    if (!self) return;
    if (registered->load() || node->load() || generator->load()) {
      throw std::runtime_error("this connection is registered already");
    }
    const std::string refusal = link == nullptr ? "refused: this client runs no external search"
                                                : link->Offer(self, request);
    if (!refusal.empty()) {
      logger->Warning("scenario generator '" + core::ClipForLog(request.generator_name) +
                      "' from " + peer + " " + refusal);
      self->ReplyError(message.reference, refusal);
      self->Close(refusal);
      return;
    }
    generator->store(true);
    self->MarkRegistered();
    self->Reply(message, json::Json(protocol::GeneratorRegistrationResponse{true, link->search()}));
    logger->Info("scenario generator '" + core::ClipForLog(request.generator_name) +
                 "' registered from " + peer);
  });

  // Vehicle nodes share the port: their requests go to the farm loop as farm_event::Node events.
  const auto push_node = [key, queue](NodeEvent node_event) {
    queue->Push(FarmEvent{key, farm_event::Node{std::move(node_event)}});
  };
  SetNodeHandlers(connection, key, push_node, [registered, node, generator] {
    if (registered->load() || generator->load()) return false;
    node->store(true);
    return true;
  });

  connection->SetHandler(
      protocol::TypeOf<protocol::RunPreemptedRequest>(),
      guarded.template operator()<protocol::RunPreemptedRequest>(
          [key, queue](Connection& self, const protocol::RunPreemptedRequest& preempted,
                       const Message& message) {
            self.Reply(message, json::Json{{"received", true}});
            queue->Push(FarmEvent{key, farm_event::Preempted{preempted}});
          }));

  connection->SetCloseHandler([taken = taken_, weak, registered, node, generator, worker_id, raw,
                               link = generator_, key, queue, push_node, peer,
                               logger](const std::string& reason) {
    // A worker registers with RegisterWorker, a vehicle node with an accepted
    // RegisterVehicleNode (see NodeControl); a connection that did neither is only logged.
    if (auto self = weak.lock(); self && !self->registered()) {
      logger->Warning("connection from " + peer + " closed before registering: " +
                      core::ClipForLog(reason, core::kLogMessageBytes));
    }
    if (generator->load()) {
      logger->Info("scenario generator from " + peer +
                   " closed: " + core::ClipForLog(reason, core::kLogMessageBytes));
      link->Closed(raw, reason);
      return;
    }
    if (node->load()) push_node(NodeClosed(key, reason));
    if (!registered->load()) return;
    taken->Release(worker_id->load());
    queue->Push(FarmEvent{key, farm_event::Closed{reason}});
  });

  connection->Start();
}

}  // namespace asg::client
