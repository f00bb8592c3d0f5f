// A server (TCP, or a Unix-domain socket) that accepts framed connections and hands each one to a
// callback.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "protocol/connection.h"

namespace asg::protocol {

/// Accepts connections on one endpoint until stopped. Each accepted connection is handed, not
/// started, to the accept callback on an io thread; the callback registers handlers and calls
/// Start(), and keeps the connection for as long as it wants it (a started connection also
/// keeps itself alive until it closes). A failure on one connection never affects the others,
/// and the partial frames of the accepted connections whose peers have not registered share one
/// cap, settings.max_unregistered_bytes.
class Server {
 public:
  /// Receives each new connection.
  using AcceptHandler = std::function<void(std::shared_ptr<Connection> connection)>;

  /// Binds and listens on host:port (port 0 picks a free port, see port()). Throws
  /// std::runtime_error naming the address when it cannot listen.
  Server(const boost::asio::any_io_executor& executor, const std::string& host, uint16_t port,
         const ConnectionSettings& settings, AcceptHandler on_accept);
  /// Binds and listens on the Unix-domain socket `unix_path` (which must not exist; see
  /// protocol/local_channel.h), removed again by Stop(); port() is 0. Throws std::runtime_error
  /// naming the path when it cannot listen.
  Server(const boost::asio::any_io_executor& executor, const std::string& unix_path,
         const ConnectionSettings& settings, AcceptHandler on_accept);
  /// Stops accepting; connections already accepted stay up.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// The bound port (the one chosen when constructed with port 0).
  uint16_t port() const { return port_; }

  /// Stops accepting new connections: once it returns, connecting to port() (or the Unix socket,
  /// whose file is removed) fails. Thread-safe and idempotent.
  void Stop();

 private:
  struct State;
  std::shared_ptr<State> state_;  // shared with the pending accept, which may outlive *this
  uint16_t port_ = 0;
};

}  // namespace asg::protocol
