// Worker connections: registration with the token check, and frames turned into FarmEvents.
#include "client/farm_links.h"

#include <stdexcept>
#include <utility>

#include "client/node_links.h"
#include "protocol/messages_json.h"
#include "protocol/node_messages.h"
#include "protocol/trajectory_codec.h"

namespace asg::client {

namespace {

using protocol::Connection;
using protocol::Message;

/// Compares two tokens of equal length in a time independent of where they differ.
bool SameToken(const std::string& given, const std::string& expected) {
  if (given.size() != expected.size()) return false;
  unsigned char difference = 0;
  for (size_t i = 0; i < given.size(); ++i) {
    difference |= static_cast<unsigned char>(given[i] ^ expected[i]);
  }
  return difference == 0;
}

/// The PNGs of an AnalyzeScenario frame: the first `length` bytes of `attachment` (the rest is
/// the packed trajectory) cut in the sizes `described`, in order. Throws DecodeError when the
/// sizes do not add up to `length`.
std::vector<CaptureFile> CutCaptures(const std::vector<protocol::CaptureFile>& described,
                                     const std::string& attachment, uint64_t length) {
  uint64_t total = 0;
  for (const protocol::CaptureFile& file : described) total += file.size;
  if (total != length) {
    throw protocol::DecodeError("captures", "sizes add up to " + std::to_string(total) +
                                                " bytes but the images take " +
                                                std::to_string(length) + " of the attachment");
  }
  std::vector<CaptureFile> captures;
  size_t offset = 0;
  for (const protocol::CaptureFile& file : described) {
    captures.push_back({file.name, attachment.substr(offset, file.size)});
    offset += file.size;
  }
  return captures;
}

}  // namespace

WorkerLinks::WorkerLinks(const boost::asio::any_io_executor& executor, const LinkSettings& settings,
                         EventQueue* queue, Logger* logger)
    : settings_(settings),
      queue_(queue),
      logger_(logger),
      server_(executor, settings.host, settings.port, settings.connection,
              [this](std::shared_ptr<Connection> connection) { OnAccept(std::move(connection)); }) {
}

void WorkerLinks::OnAccept(std::shared_ptr<Connection> connection) {
  const WorkerKey key = next_key_.fetch_add(1);
  auto registered = std::make_shared<std::atomic<bool>>(false);
  auto node = std::make_shared<std::atomic<bool>>(false);  // sent a control-plane request
  std::weak_ptr<Connection> weak = connection;
  const std::string peer = connection->peer();
  EventQueue* queue = queue_;
  Logger* logger = logger_;

  // Every handler but RegisterWorker refuses an unregistered peer.
  auto guarded = [weak, registered, peer, logger](auto handler) {
    return [weak, registered, peer, logger, handler](const Message& message) {
      auto self = weak.lock();
      if (!self) return;
      if (!registered->load()) {
        logger->Warning("refused " + message.type + " from " + peer + ": not registered");
        self->ReplyError(message.reference, "register with RegisterWorker first");
        self->Close("message before registration");
        return;
      }
      handler(*self, message);
    };
  };

  connection->SetHandler(kRegisterWorkerType, [weak, registered, node, peer, key, queue, logger,
                                               token = settings_.token](const Message& message) {
    auto self = weak.lock();
    if (!self) return;
    const RegisterWorkerRequest request = DecodeRegisterWorkerRequest(message.message);
    if (!token.empty() && !SameToken(request.token, token)) {
      logger->Warning("refused worker " + std::to_string(request.worker_id) + " (pid " +
                      std::to_string(request.pid) + ") from " + peer + ": wrong token");
      self->ReplyError(message.reference, "refused: wrong token");
      self->Close("wrong token");
      return;
    }
    if (node->load())
      throw std::runtime_error("a vehicle node's connection cannot register a worker");
    if (registered->exchange(true)) throw std::runtime_error("already registered");
    self->Reply(message, ToJson(RegisterWorkerResponse{
                             true, "registered as worker " + std::to_string(request.worker_id)}));
    FarmEvent event;
    event.kind = FarmEvent::Kind::kRegistered;
    event.worker = key;
    event.connection = self;
    event.registration = request;
    queue->Push(std::move(event));
  });

  connection->SetHandler(
      "StatusCode", guarded([key, queue](Connection&, const Message& message) {
        FarmEvent event;
        event.kind = FarmEvent::Kind::kStatus;
        event.worker = key;
        event.status = protocol::DecodeMessage<protocol::StatusCode>(message.message).status;
        queue->Push(std::move(event));
      }));

  connection->SetHandler(
      "AnalyzeScenario", guarded([key, queue](Connection&, const Message& message) {
        FarmEvent event;
        event.kind = FarmEvent::Kind::kResult;
        event.worker = key;
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
        } catch (const protocol::DecodeError& error) {
          event.text = error.what();
        }
        queue->Push(std::move(event));
      }));

  connection->SetHandler(
      "WorkerIssueNotification", guarded([key, queue](Connection& self, const Message& message) {
        FarmEvent event;
        event.kind = FarmEvent::Kind::kIssue;
        event.worker = key;
        event.issue =
            protocol::DecodeMessage<protocol::WorkerIssueNotificationRequest>(message.message);
        self.Reply(message, protocol::Json(protocol::WorkerIssueNotificationResponse{true}));
        queue->Push(std::move(event));
      }));

  // Vehicle nodes share the port: their requests go to the farm loop as kNode events.
  const auto push_node = [key, queue](NodeEvent node_event) {
    FarmEvent event;
    event.kind = FarmEvent::Kind::kNode;
    event.worker = key;
    event.node = std::move(node_event);
    queue->Push(std::move(event));
  };
  SetNodeHandlers(connection, key, push_node, [registered, node] {
    if (registered->load()) return false;
    node->store(true);
    return true;
  });

  connection->SetHandler(
      kRunPreemptedType, guarded([key, queue](Connection& self, const Message& message) {
        FarmEvent event;
        event.kind = FarmEvent::Kind::kPreempted;
        event.worker = key;
        event.preempted = protocol::DecodeMessage<protocol::RunPreemptedRequest>(message.message);
        self.Reply(message, protocol::Json{{"received", true}});
        queue->Push(std::move(event));
      }));

  connection->SetCloseHandler([registered, node, key, queue, push_node](const std::string& reason) {
    if (node->load()) push_node(NodeClosed(key, reason));
    if (!registered->load()) return;
    FarmEvent event;
    event.kind = FarmEvent::Kind::kClosed;
    event.worker = key;
    event.text = reason;
    queue->Push(std::move(event));
  });

  connection->Start();
}

}  // namespace asg::client
