// The client hub: connections, the token, request routing, replies and pushed frames.
#include "worker/serve/client_hub.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/log_clip.h"
#include "protocol/local_channel.h"
#include "protocol/token_gate.h"
#include "worker/serve/monodrive_reply.h"
#include "worker/worker_log.h"

namespace asg::worker::serve {
namespace {

/// The request answered before a token is checked.
constexpr const char* kHello = "Hello";

/// True for a reply body that reports a failure.
bool FailedBody(const json::Json& body) {
  if (!body.is_object()) return false;
  if (auto it = body.find("success"); it != body.end() && it->is_boolean() && !*it) return true;
  if (auto it = body.find("result"); it != body.end() && it->is_object()) {
    if (auto code = it->find("result"); code != it->end() && code->is_number() && *code != 1) {
      return true;
    }
  }
  return false;
}

/// True for the requests answered while quitting.
bool AnsweredWhileQuitting(const std::string& type) {
  return type == "GetSimulationState" || type == "ListServices" || type == "SetSimulationState";
}

}  // namespace

ClientHub::ClientHub(boost::asio::io_context& io, HubSettings settings, SessionLogs& logs,
                     Invoke invoke)
    : io_(io), settings_(std::move(settings)), logs_(logs), invoke_(std::move(invoke)) {}

ClientHub::~ClientHub() = default;

uint16_t ClientHub::Listen() {
  protocol::ConnectionSettings connection;
  // monoDrive clients speak their own framing on the same port, told by their first byte.
  connection.accept_monodrive_framing = true;
  if (!settings_.token.empty()) connection.registration_timeout = std::chrono::seconds(10);
  // Clients of an interactive session may sit idle for long; heartbeats still run.
  const auto accept = [this](std::shared_ptr<protocol::Connection> c) { Accept(std::move(c)); };
  server_ = std::make_unique<protocol::Server>(io_.get_executor(), settings_.host, settings_.port,
                                               connection, accept);
  if (settings_.local_channel) {
    const std::string path = protocol::LocalChannelPath({settings_.host, server_->port()});
    if (const std::optional<std::string> problem = protocol::PrepareLocalChannelPath(path)) {
      Log(core::LogLevel::kWarning, "no same-host channel for clients: " + *problem);
    } else {
      local_server_ =
          std::make_unique<protocol::Server>(io_.get_executor(), path, connection, accept);
      local_path_ = path;
      Log(core::LogLevel::kInfo, "same-host channel for clients: unix:" + path);
    }
  }
  return server_->port();
}

std::string ClientHub::local_endpoint() const {
  return local_path_.empty() ? "" : std::string(protocol::kUnixEndpointPrefix) + local_path_;
}

void ClientHub::Accept(std::shared_ptr<protocol::Connection> connection) {
  if (quitting_) {
    connection->Close("the simulation is quitting");
    return;
  }
  const int client_id = next_client_id_++;
  clients_[client_id] = connection;
  Log(core::LogLevel::kInfo, "client " + std::to_string(client_id) + " connected over " +
                                 std::string(connection->channel()) + " from " +
                                 connection->peer());
  if (settings_.token.empty()) connection->MarkRegistered();
  std::weak_ptr<protocol::Connection> weak = connection;
  connection->SetFallbackHandler([this, weak, client_id](const protocol::Message& message) {
    if (auto self = weak.lock()) OnMessage(self, client_id, message);
  });
  connection->SetCloseHandler([this, client_id](const std::string&) {
    clients_.erase(client_id);
    subscribers_.erase(client_id);
    if (quitting_ && clients_.empty()) io_.stop();
  });
  connection->Start();
}

void ClientHub::OnMessage(const std::shared_ptr<protocol::Connection>& connection, int client_id,
                          const protocol::Message& message) {
  // Nothing of a connection that has not given the token is kept or logged but one clipped line.
  if (connection->registered()) {
    logs_.Communication(client_id, message.type, "request", "info", message.reference);
  }
  if (message.type == kHello) {
    Hello(*connection, client_id, message);
    return;
  }
  if (!connection->registered()) {
    Refuse(*connection, client_id, message, "send Hello {token} first");
    return;
  }
  if (deferred_) {
    // A StepSimulation is being worked through: later requests wait for it, in order.
    waiting_.push_back({connection, client_id, message});
    return;
  }
  Dispatch(connection, client_id, message);
}

void ClientHub::Hello(protocol::Connection& connection, int client_id,
                      const protocol::Message& message) {
  const auto token = message.message.find("token");
  const std::string given = token != message.message.end() && token->is_string()
                                ? token->get<std::string>()
                                : std::string();
  const std::string refusal = protocol::CheckPeerToken(settings_.token, given, connection.peer());
  if (!refusal.empty()) {
    Refuse(connection, client_id, message, refusal);
    return;
  }
  if (!connection.registered()) {
    connection.MarkRegistered();
    logs_.Communication(client_id, message.type, "request", "info", message.reference);
  }
  SendReply(connection, client_id, message, {{"success", true}, {"client_id", client_id}}, {});
}

void ClientHub::Refuse(protocol::Connection& connection, int client_id,
                       const protocol::Message& request, const std::string& reason) {
  Log(core::LogLevel::kWarning, "client " + std::to_string(client_id) + " from " +
                                    connection.peer() + " refused (" +
                                    core::ClipForLog(request.type) + "): " + reason);
  AnswerError(connection, request, "refused: " + reason);
  connection.Close(reason);
}

void ClientHub::Dispatch(const std::shared_ptr<protocol::Connection>& connection, int client_id,
                         const protocol::Message& message) {
  const auto& services = Services();
  const auto service = services.find(message.type);
  if (service == services.end()) {
    ReplyError(
        *connection, client_id, message,
        "unknown service \"" + core::ClipForLog(message.type) + "\" (ListServices lists them)");
    return;
  }
  if (quitting_ && !AnsweredWhileQuitting(message.type)) {
    ReplyError(*connection, client_id, message, "the simulation is quitting");
    return;
  }
  Reply reply;
  try {
    reply = invoke_(service->second, Call{connection, client_id, &message});
  } catch (const std::exception& error) {
    ReplyError(*connection, client_id, message, message.type + ": " + error.what());
    return;
  }
  if (!reply.later) {
    SendReply(*connection, client_id, message, reply.body, std::move(reply.attachment));
  }
}

void ClientHub::ReplyError(protocol::Connection& connection, int client_id,
                           const protocol::Message& request, const std::string& description) {
  logs_.Communication(client_id, "Error", "reply", "error", request.reference);
  AnswerError(connection, request, description);
}

void ClientHub::AnswerError(protocol::Connection& connection, const protocol::Message& request,
                            const std::string& description) {
  // A monoDrive client reads every reply under its request's type.
  if (connection.framing() == protocol::Framing::kMonoDrive) {
    connection.Reply(request, protocol::ErrorBody(description));
  } else {
    connection.ReplyError(request.reference, description);
  }
}

void ClientHub::SendReply(protocol::Connection& connection, int client_id,
                          const protocol::Message& request, const json::Json& body,
                          std::string attachment) {
  logs_.Communication(client_id, protocol::ResponseType(request.type), "reply",
                      FailedBody(body) ? "error" : "info", request.reference);
  if (connection.framing() == protocol::Framing::kMonoDrive) {
    const auto service = Services().find(request.type);
    const char* family = service != Services().end() ? service->second.family : "";
    connection.Reply(request, MonoDriveReplyMessage(family, body, attachment));
    return;
  }
  connection.Reply(request, body, std::move(attachment));
}

void ClientHub::Push(int client_id, const std::string& type, const json::Json& body) {
  const auto client = clients_.find(client_id);
  Send(client != clients_.end() ? client->second.get() : nullptr, client_id, type, body);
}

void ClientHub::Send(protocol::Connection* connection, int client_id, const std::string& type,
                     const json::Json& body) {
  logs_.Communication(client_id, type, "event", FailedBody(body) ? "error" : "info", 0);
  if (connection != nullptr) connection->Send(type, body);
}

void ClientHub::Subscribe(const Call& call) { subscribers_[call.client_id] = call.connection; }

void ClientHub::Broadcast(const std::string& type, const json::Json& body) {
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    if (auto connection = it->second.lock()) {
      Send(connection.get(), it->first, type, body);
      ++it;
    } else {
      it = subscribers_.erase(it);
    }
  }
}

void ClientHub::Defer(const Call& call) {
  deferred_ = Waiting{call.connection, call.client_id, *call.message};
}

void ClientHub::AnswerDeferred(const json::Json& body) {
  Waiting call = std::move(*deferred_);
  deferred_.reset();
  SendReply(*call.connection, call.client_id, call.message, body, {});
  // The requests that waited, in order, until one of them is answered later in its turn.
  while (!waiting_.empty() && !deferred_) {
    Waiting next = std::move(waiting_.front());
    waiting_.pop_front();
    if (next.connection->IsOpen()) Dispatch(next.connection, next.client_id, next.message);
  }
}

void ClientHub::Quit() {
  quitting_ = true;
  // The socket's file goes first: once the port is free, another server may take its name.
  if (local_server_) local_server_->Stop();
  if (server_) server_->Stop();
  // Clients get 2 s to hear the reply and hang up.
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::seconds(2));
  timer->async_wait([this, timer](const boost::system::error_code&) { io_.stop(); });
  boost::asio::post(io_, [this] {
    if (clients_.empty()) io_.stop();
  });
}

}  // namespace asg::worker::serve
