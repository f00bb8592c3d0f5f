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
#include "protocol/token_gate.h"
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
/// the packed trajectory) cut in the sizes of its scene_captures, in order, each named by its
/// entry of scene_capture_names. Throws DecodeError when the sizes do not add up to `length`.
std::vector<protocol::CaptureImage> CutCaptures(const protocol::AnalyzeScenarioRequest& analysis,
                                                const std::string& attachment, uint64_t length) {
  const std::vector<protocol::CaptureFile>& described = analysis.scene_captures;
  uint64_t total = 0;
  for (const protocol::CaptureFile& file : described) total += file.size;
  if (total != length) {
    throw json::DecodeError("scene_captures", "sizes add up to " + std::to_string(total) +
                                                  " bytes but the images take " +
                                                  std::to_string(length) + " of the attachment");
  }
  std::vector<protocol::CaptureImage> captures;
  size_t offset = 0;
  for (const protocol::CaptureFile& file : described) {
    const std::string& name = analysis.scene_capture_names[captures.size()];  // same length
    if (!results::IsCaptureName(name)) {
      throw json::DecodeError("scene_capture_names[" + std::to_string(captures.size()) + "]",
                              "\"" + name.substr(0, 64) + "\" is not a plain file name");
    }
    captures.push_back({name, attachment.substr(offset, file.size)});
    offset += file.size;
  }
  return captures;
}

/// The farm_event::Result of an AnalyzeScenario frame: its report decoded, with its captures and
/// trajectory, or the error that the farm loop refuses it with (the scenario then runs again).
farm_event::Result ResultEvent(const Message& message) {
  farm_event::Result event;
  event.request.type = message.type;
  event.request.reference = message.reference;
  // The connection boundary: a report that does not decode is refused by the farm loop,
  // which then runs the scenario again.
  try {
    event.analysis = protocol::DecodeMessage<protocol::AnalyzeScenarioRequest>(message.message);
    const protocol::TrajectoryAttachment& packed = event.analysis.trajectory_attachment;
    const uint64_t images = packed.count > 0 ? packed.offset : message.attachment.size();
    event.captures = CutCaptures(event.analysis, message.attachment, images);
    protocol::UnpackTrajectory(&event.analysis, message.attachment);
  } catch (const json::DecodeError& error) {
    event.error = error.what();
  }
  return event;
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

/// What the handlers of one accepted connection share. Copied into each handler: the handlers
/// may outlive the links.
struct WorkerLinks::Link {
  std::weak_ptr<Connection> weak;   ///< the connection
  const Connection* raw;            ///< the connection, to name it to the generator port
  WorkerKey key;                    ///< the key of its events
  std::string peer;                 ///< "ADDRESS:PORT"
  EventQueue* queue;                ///< where its events go
  core::Logger* logger;             ///< where refusals and closes are logged
  GeneratorPort* generator_port;    ///< takes a generator's registration, or null
  std::shared_ptr<TakenIds> taken;  ///< the worker ids of open registered connections
  /// Registered as a worker (RegisterWorker accepted).
  std::shared_ptr<std::atomic<bool>> registered = std::make_shared<std::atomic<bool>>(false);
  /// Sent a vehicle node's control-plane request.
  std::shared_ptr<std::atomic<bool>> node = std::make_shared<std::atomic<bool>>(false);
  /// Registered as an external search's scenario generator.
  std::shared_ptr<std::atomic<bool>> generator = std::make_shared<std::atomic<bool>>(false);
  /// The worker id, valid once registered.
  std::shared_ptr<std::atomic<uint16_t>> worker_id = std::make_shared<std::atomic<uint16_t>>(0);
};

void WorkerLinks::OnAccept(std::shared_ptr<Connection> connection) {
  const Link link{connection,
                  connection.get(),
                  next_key_.fetch_add(1),
                  connection->peer(),
                  queue_,
                  logger_,
                  generator_,
                  taken_};
  SetRegisterWorker(*connection, link, settings_.token);
  SetWorkerFrames(*connection, link);
  SetRegisterGenerator(*connection, link);

  // Vehicle nodes share the port: their requests go to the farm loop as farm_event::Node events.
  SetNodeHandlers(connection, link.key, NodeEventPusher(link),
                  [registered = link.registered, node = link.node, generator = link.generator] {
                    if (registered->load() || generator->load()) return false;
                    node->store(true);
                    return true;
                  });
  SetClose(*connection, link);
  connection->Start();
}

NodeEventSink WorkerLinks::NodeEventPusher(const Link& link) {
  return [key = link.key, queue = link.queue](NodeEvent node_event) {
    queue->Push(FarmEvent{key, farm_event::Node{std::move(node_event)}});
  };
}

void WorkerLinks::SetRegisterWorker(Connection& connection, const Link& link,
                                    const std::string& token) {
  protocol::OnMessage<protocol::RegisterWorkerRequest>(
      connection,
      [link, token](const protocol::RegisterWorkerRequest& request, const Message& message) {
        auto self = link.weak.lock();
        if (!self) return;
        const auto log_refusal = [&](const std::string& reason) {
          link.logger->Warning("refused worker " + std::to_string(request.worker_id) + " (pid " +
                               std::to_string(request.pid) + ") from " + link.peer + ": " + reason);
        };
        if (!protocol::AdmitToken(*self, message, token, request.token, "refused: ", log_refusal)) {
          return;
        }
        if (link.node->load())
          throw std::runtime_error("a vehicle node's connection cannot register a worker");
        if (link.registered->load()) throw std::runtime_error("already registered");
        if (!link.taken->Take(request.worker_id)) {
          const std::string reason = "refused: worker id " + std::to_string(request.worker_id) +
                                     " is taken by another connected worker";
          link.logger->Warning(reason + " (pid " + std::to_string(request.pid) + " from " +
                               link.peer + ")");
          self->ReplyError(message.reference, reason);
          self->Close("worker id " + std::to_string(request.worker_id) + " taken");
          return;
        }
        link.worker_id->store(request.worker_id);
        link.registered->store(true);
        self->MarkRegistered();
        self->Reply(message,
                    json::Json(protocol::RegisterWorkerResponse{
                        true, "registered as worker " + std::to_string(request.worker_id)}));
        WorkerIdentity identity{request.worker_id, request.pid, link.peer, request.data_endpoint};
        link.queue->Push(
            FarmEvent{link.key, farm_event::Registered{std::make_unique<ConnectionChannel>(
                                    self, std::move(identity), link.key, link.queue)}});
      });
}

void WorkerLinks::SetWorkerFrames(Connection& connection, const Link& link) {
  // Every handler but RegisterWorker refuses an unregistered peer.
  const auto guarded = [&link]<class T>(auto handler) {
    return Guarded<T>(link.weak, link.registered, link.peer, link.logger, std::move(handler));
  };
  const WorkerKey key = link.key;
  EventQueue* queue = link.queue;
  connection.SetHandler(
      protocol::TypeOf<protocol::StatusCode>(),
      guarded.template operator()<protocol::StatusCode>(
          [key, queue](Connection&, const protocol::StatusCode& status, const Message&) {
            queue->Push(FarmEvent{key, farm_event::Status{status.status}});
          }));
  // A report that does not decode is not refused here: the farm loop refuses it and runs the
  // scenario again, so its body is decoded by ResultEvent rather than by the guard.
  connection.SetHandler(protocol::TypeOf<protocol::AnalyzeScenarioRequest>(),
                        guarded.template operator()<Message>(
                            [key, queue](Connection&, const Message&, const Message& message) {
                              queue->Push(FarmEvent{key, ResultEvent(message)});
                            }));
  connection.SetHandler(
      protocol::TypeOf<protocol::WorkerIssueNotificationRequest>(),
      guarded.template operator()<protocol::WorkerIssueNotificationRequest>(
          [key, queue](Connection& self, const protocol::WorkerIssueNotificationRequest& issue,
                       const Message& message) {
            self.Reply(message, json::Json(protocol::WorkerIssueNotificationResponse{true}));
            queue->Push(FarmEvent{key, farm_event::Issue{issue}});
          }));
  connection.SetHandler(
      protocol::TypeOf<protocol::RunPreemptedRequest>(),
      guarded.template operator()<protocol::RunPreemptedRequest>(
          [key, queue](Connection& self, const protocol::RunPreemptedRequest& preempted,
                       const Message& message) {
            self.Reply(message, json::Json{{"received", true}});
            queue->Push(FarmEvent{key, farm_event::Preempted{preempted}});
          }));
}

void WorkerLinks::SetRegisterGenerator(Connection& connection, const Link& link) {
  // An external search's scenario generator: registered here, then used by the search.
  protocol::OnMessage<
      protocol::GeneratorRegistration>(connection, [link](const protocol::GeneratorRegistration&
                                                              request,
                                                          const Message& message) {
    auto self = link.weak.lock();
    if (!self) return;
    if (link.registered->load() || link.node->load() || link.generator->load()) {
      throw std::runtime_error("this connection is registered already");
    }
    GeneratorPort* port = link.generator_port;
    const std::string refusal = port == nullptr ? "refused: this client runs no external search"
                                                : port->Offer(self, request);
    if (!refusal.empty()) {
      link.logger->Warning("scenario generator '" + core::ClipForLog(request.generator_name) +
                           "' from " + link.peer + " " + refusal);
      self->ReplyError(message.reference, refusal);
      self->Close(refusal);
      return;
    }
    link.generator->store(true);
    self->MarkRegistered();
    self->Reply(message, json::Json(protocol::GeneratorRegistrationResponse{true, port->search()}));
    link.logger->Info("scenario generator '" + core::ClipForLog(request.generator_name) +
                      "' registered from " + link.peer);
  });
}

void WorkerLinks::SetClose(Connection& connection, const Link& link) {
  connection.SetCloseHandler([link, push_node = NodeEventPusher(link)](const std::string& reason) {
    // A worker registers with RegisterWorker, a vehicle node with an accepted
    // RegisterVehicleNode (see NodeControl); a connection that did neither is only logged.
    if (auto self = link.weak.lock(); self && !self->registered()) {
      link.logger->Warning("connection from " + link.peer + " closed before registering: " +
                           core::ClipForLog(reason, core::kLogMessageBytes));
    }
    if (link.generator->load()) {
      link.logger->Info("scenario generator from " + link.peer +
                        " closed: " + core::ClipForLog(reason, core::kLogMessageBytes));
      link.generator_port->Closed(link.raw, reason);
      return;
    }
    if (link.node->load()) push_node(NodeClosed(link.key, reason));
    if (!link.registered->load()) return;
    link.taken->Release(link.worker_id->load());
    link.queue->Push(FarmEvent{link.key, farm_event::Closed{reason}});
  });
}

}  // namespace asg::client
