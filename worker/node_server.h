// The worker's data port for external vehicle nodes (docs/vehicle-nodes.md, "Data plane"): a
// server that accepts node connections, admits each one with AttachNode {node_name, token}, and
// keeps the attached nodes for the runs that need them.
//
// A node's first request must be AttachNode; it is answered AttachNodeResponse {received: true},
// or an Error when the token is wrong (only checked when the worker has one, by
// protocol::TokenGuard::Process(); the connection is closed then, and an address is refused for
// a while after too many wrong tokens), the name is empty or another open connection already
// attached under that name. A connection that closes
// detaches its node. Async-mode Control messages of an attached node are kept, latest first,
// until a run takes them.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "protocol/connection.h"
#include "protocol/hand_over_io.h"
#include "protocol/node_messages.h"
#include "protocol/server.h"

namespace asg::worker {

/// One attached vehicle node: its name and connection (TCP, or the same-host Unix socket, see
/// Connection::channel()). Thread-safe.
class NodeLink {
 public:
  NodeLink(std::string name, std::shared_ptr<protocol::Connection> connection)
      : name_(std::move(name)), connection_(std::move(connection)) {}

  /// The name the node attached under.
  const std::string& name() const { return name_; }
  /// The node's connection.
  protocol::Connection& connection() const { return *connection_; }
  /// False once the connection started closing.
  bool open() const { return connection_->IsOpen(); }

  /// Keeps `control` as the node's latest Control message (async mode).
  void StoreControl(const protocol::StepResponse& control);
  /// The latest Control message received since the previous call, if any.
  std::optional<protocol::StepResponse> TakeControl();

 private:
  std::string name_;
  std::shared_ptr<protocol::Connection> connection_;
  std::mutex mutex_;
  std::optional<protocol::StepResponse> latest_;
};

/// How the data port listens and whom it admits.
struct NodeServerSettings {
  std::string listen = "127.0.0.1:0";       ///< HOST:PORT to bind; port 0 picks a free port
  std::string token;                        ///< required of nodes when not empty
  protocol::ConnectionSettings connection;  ///< heartbeats and frame limits of node connections
  /// [ms] a connection must AttachNode within this, else it is closed; replaces
  /// connection.registration_timeout. 0 = no deadline.
  std::chrono::milliseconds registration_timeout{5000};
  /// Also listen on the same-host Unix-domain socket of `listen` (protocol/local_channel.h),
  /// which nodes on this host connect to instead of the TCP port.
  bool local_channel = true;
};

/// The data server of one worker process. Its handlers run on the executor's threads; the
/// other members are thread-safe.
class NodeServer {
 public:
  /// Binds settings.listen at once (a host name resolved, protocol::ResolveListenAddress).
  /// Throws std::invalid_argument for a malformed or unknown address and std::runtime_error
  /// naming it when it cannot listen.
  NodeServer(const boost::asio::any_io_executor& executor, const NodeServerSettings& settings);
  /// Stops accepting and closes every node connection.
  ~NodeServer();
  NodeServer(const NodeServer&) = delete;
  NodeServer& operator=(const NodeServer&) = delete;

  /// "HOST:PORT" nodes connect to: the listening host (IPv6 in brackets) and the bound port.
  std::string endpoint() const;
  /// "unix:PATH" of the same-host socket nodes on this host connect to; "" when not offered
  /// (settings.local_channel false, or the socket's directory not this user's own).
  std::string local_endpoint() const;

  /// Waits until at least `count` nodes are attached or `deadline` passes, and returns the nodes
  /// attached then, sorted by name (possibly fewer than count).
  std::vector<std::shared_ptr<NodeLink>> WaitForNodes(
      size_t count, std::chrono::steady_clock::time_point deadline);

  /// The names of the attached nodes, sorted.
  std::vector<std::string> AttachedNames() const;

  /// The HandOverIo whose context runs this server's connections (the executor given to the
  /// constructor), when there is one: a lock-step run takes it over to read the nodes' replies
  /// on its own thread. Null by default.
  void SetHandOver(protocol::HandOverIo* io) { hand_over_ = io; }
  protocol::HandOverIo* hand_over() const { return hand_over_; }

 private:
  struct State;
  /// Registers the handlers of one accepted connection and starts it.
  static void Admit(const std::shared_ptr<State>& state,
                    const std::shared_ptr<protocol::Connection>& connection);
  /// Attaches `self` (whose token was accepted) as request.node_name and returns the reply;
  /// throws std::runtime_error with the Error reply's text when it is refused.
  static json::Json Attach(State& state, const std::shared_ptr<std::weak_ptr<NodeLink>>& attached,
                           const std::shared_ptr<protocol::Connection>& self,
                           const protocol::AttachNodeRequest& request);

  std::shared_ptr<State> state_;  // shared with the connection handlers
  std::unique_ptr<protocol::Server> server_;
  std::unique_ptr<protocol::Server> local_server_;  // the same-host socket, or null
  std::string local_path_;                          // its path
  std::string host_;
  protocol::HandOverIo* hand_over_ = nullptr;
};

}  // namespace asg::worker
