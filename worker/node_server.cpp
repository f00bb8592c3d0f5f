// The data port: admission (AttachNode), detachment on close, and the attached-node registry.
#include "worker/node_server.h"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <stdexcept>

#include "core/log_clip.h"
#include "protocol/endpoint.h"
#include "protocol/local_channel.h"
#include "protocol/messages_json.h"
#include "protocol/token_gate.h"
#include "protocol/typed_connection.h"
#include "worker/worker_log.h"

namespace asg::worker {

namespace {

/// The settings of accepted connections: `settings.connection` with the AttachNode deadline.
protocol::ConnectionSettings AcceptedSettings(const NodeServerSettings& settings) {
  protocol::ConnectionSettings connection = settings.connection;
  connection.registration_timeout = settings.registration_timeout;
  return connection;
}

}  // namespace

/// What the connection handlers share with the server: the registry of attached nodes.
struct NodeServer::State {
  std::string token;
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::map<std::string, std::shared_ptr<NodeLink>> nodes;  // attached, by name
  bool stopped = false;
};

json::Json NodeServer::Attach(State& state,
                              const std::shared_ptr<std::weak_ptr<NodeLink>>& attached,
                              const std::shared_ptr<protocol::Connection>& self,
                              const protocol::AttachNodeRequest& request) {
  // Names in replies and log lines are clipped (core::ClipForLog): they come from the peer.
  if (request.node_name.empty()) throw std::runtime_error("AttachNode refused: empty node_name");
  std::lock_guard lock(state.mutex);
  if (const std::shared_ptr<NodeLink> link = attached->lock()) {
    throw std::runtime_error("AttachNode refused: already attached as '" +
                             core::ClipForLog(link->name()) + "'");
  }
  if (state.stopped) throw std::runtime_error("AttachNode refused: worker shutting down");
  auto existing = state.nodes.find(request.node_name);
  if (existing != state.nodes.end() && existing->second->open()) {
    throw std::runtime_error("AttachNode refused: node name '" +
                             core::ClipForLog(request.node_name) + "' is already attached");
  }
  const auto link = std::make_shared<NodeLink>(request.node_name, self);
  *attached = link;
  self->MarkRegistered();  // lifts the registration deadline
  // A node need not send heartbeats: its connection closing and step_deadline govern.
  self->SetPeerTimeout(std::chrono::milliseconds(0));
  state.nodes[request.node_name] = link;
  state.changed.notify_all();
  Log(core::LogLevel::kInfo, "vehicle node '" + core::ClipForLog(request.node_name) +
                                 "' attached over " + std::string(self->channel()) + " from " +
                                 self->peer());
  return json::Json(protocol::AttachNodeResponse{true});
}

void NodeLink::StoreControl(const protocol::StepResponse& control) {
  std::lock_guard lock(mutex_);
  latest_ = control;
}

std::optional<protocol::StepResponse> NodeLink::TakeControl() {
  std::lock_guard lock(mutex_);
  std::optional<protocol::StepResponse> control = std::move(latest_);
  latest_.reset();
  return control;
}

void NodeServer::Admit(const std::shared_ptr<State>& state,
                       const std::shared_ptr<protocol::Connection>& connection) {
  // The link this connection attached as, once it has; guarded by state->mutex. Weak: the link
  // holds the connection, whose handlers hold this, and the registry (state->nodes) and the
  // link's users own the link; a strong pointer here would keep a connection whose close never
  // ran (its io_context stopped first) alive forever.
  auto attached = std::make_shared<std::weak_ptr<NodeLink>>();
  std::weak_ptr<protocol::Connection> weak = connection;
  connection->SetHandler(
      protocol::TypeOf<protocol::AttachNodeRequest>(),
      [state, attached, weak](const protocol::Message& message) {
        const auto request = protocol::DecodeMessage<protocol::AttachNodeRequest>(message.message);
        const std::shared_ptr<protocol::Connection> self = weak.lock();
        if (!self) return;
        // A wrong token ends the connection: no second guess on it.
        if (!protocol::AdmitToken(*self, message, state->token, request.token,
                                  "AttachNode refused: ")) {
          return;
        }
        self->Reply(message, Attach(*state, attached, self, request));
      });
  connection->SetHandler(std::string(protocol::StepResponse::kAsyncType),
                         [state, attached](const protocol::Message& message) {
                           const auto control =
                               protocol::DecodeMessage<protocol::StepResponse>(message.message);
                           std::shared_ptr<NodeLink> link;
                           {
                             std::lock_guard lock(state->mutex);
                             link = attached->lock();
                           }
                           if (!link) throw std::runtime_error("Control refused: AttachNode first");
                           link->StoreControl(control);
                         });
  connection->SetCloseHandler([state, attached, weak](const std::string& reason) {
    if (auto self = weak.lock(); self && !self->registered()) {
      Log(core::LogLevel::kWarning,
          "data connection from " + self->peer() +
              " closed before AttachNode: " + core::ClipForLog(reason, core::kLogMessageBytes));
    }
    std::lock_guard lock(state->mutex);
    if (const std::shared_ptr<NodeLink> link = attached->lock()) {
      auto entry = state->nodes.find(link->name());
      if (entry != state->nodes.end() && entry->second == link) state->nodes.erase(entry);
    }
    attached->reset();
    state->changed.notify_all();
  });
  connection->Start();
}

NodeServer::NodeServer(const boost::asio::any_io_executor& executor,
                       const NodeServerSettings& settings)
    : state_(std::make_shared<State>()) {
  state_->token = settings.token;
  const protocol::HostPort address = protocol::ResolveListenAddress(settings.listen);
  host_ = address.host;
  std::shared_ptr<State> state = state_;
  const auto admit = [state](std::shared_ptr<protocol::Connection> connection) {
    Admit(state, connection);
  };
  server_ = std::make_unique<protocol::Server>(executor, address.host, address.port,
                                               AcceptedSettings(settings), admit);
  if (!settings.local_channel) return;
  const std::string path = protocol::LocalChannelPath({host_, server_->port()});
  if (const std::optional<std::string> problem = protocol::PrepareLocalChannelPath(path)) {
    Log(core::LogLevel::kWarning, "no same-host channel for vehicle nodes: " + *problem);
    return;
  }
  local_server_ =
      std::make_unique<protocol::Server>(executor, path, AcceptedSettings(settings), admit);
  local_path_ = path;
}

NodeServer::~NodeServer() {
  // The socket's file goes first: once the port is free, another server may take its name.
  if (local_server_) local_server_->Stop();
  server_->Stop();
  std::map<std::string, std::shared_ptr<NodeLink>> nodes;
  {
    std::lock_guard lock(state_->mutex);
    state_->stopped = true;
    nodes.swap(state_->nodes);
  }
  for (const auto& [name, link] : nodes) link->connection().Close("worker shutting down");
}

std::string NodeServer::endpoint() const {
  return protocol::HostPortText({host_, server_->port()});
}

std::string NodeServer::local_endpoint() const {
  return local_path_.empty() ? "" : std::string(protocol::kUnixEndpointPrefix) + local_path_;
}

std::vector<std::shared_ptr<NodeLink>> NodeServer::WaitForNodes(
    size_t count, std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(state_->mutex);
  auto enough = [&] {
    return static_cast<size_t>(
               std::count_if(state_->nodes.begin(), state_->nodes.end(),
                             [](const auto& entry) { return entry.second->open(); })) >= count;
  };
  state_->changed.wait_until(lock, deadline, enough);
  std::vector<std::shared_ptr<NodeLink>> nodes;
  for (const auto& [name, link] : state_->nodes) {
    if (link->open()) nodes.push_back(link);
  }
  return nodes;  // std::map iterates in name order
}

std::vector<std::string> NodeServer::AttachedNames() const {
  std::lock_guard lock(state_->mutex);
  std::vector<std::string> names;
  for (const auto& [name, link] : state_->nodes) names.push_back(name);
  return names;
}

}  // namespace asg::worker
