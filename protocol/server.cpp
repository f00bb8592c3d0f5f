// The accept loop. Its state is shared with the pending accept so that destroying the Server
// while an accept is outstanding is safe; a mutex orders Stop() against the loop, so that once
// Stop() returns the port no longer accepts.
#include "protocol/server.h"

#include <unistd.h>

#include <algorithm>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace asg::protocol {

namespace asio = boost::asio;

namespace {

/// Pause after a failed accept (e.g. descriptors exhausted) before the next one [ms].
constexpr std::chrono::milliseconds kAcceptRetryDelay{100};

}  // namespace

struct Server::State : std::enable_shared_from_this<Server::State> {
  State(const asio::any_io_executor& io_executor, const ConnectionSettings& connection_settings,
        AcceptHandler handler)
      : executor(io_executor),
        acceptor(io_executor),
        retry_timer(io_executor),
        settings(connection_settings),
        unregistered_budget(std::make_shared<ByteBudget>(settings.max_unregistered_bytes)),
        on_accept(std::move(handler)) {}

  void Accept() {
    std::lock_guard lock(mutex);
    if (!acceptor.is_open()) return;
    acceptor.async_accept(executor,
                          [self = shared_from_this()](const boost::system::error_code& error,
                                                      Connection::Socket socket) {
                            self->OnAccept(error, std::move(socket));
                          });
  }

  void OnAccept(const boost::system::error_code& error, Connection::Socket socket) {
    {
      std::lock_guard lock(mutex);
      if (!acceptor.is_open()) return;
    }
    if (!error) {
      on_accept(Connection::Create(std::move(socket), settings, unregistered_budget));
      Accept();
      return;
    }
    // A failed accept (a peer resetting first, descriptors running out) does not stop the
    // server; the next one waits a little so that a persistent failure does not spin.
    std::lock_guard lock(mutex);
    retry_timer.expires_after(kAcceptRetryDelay);
    retry_timer.async_wait(
        [self = shared_from_this()](const boost::system::error_code& wait_error) {
          if (!wait_error) self->Accept();
        });
  }

  void Stop() {
    std::lock_guard lock(mutex);
    boost::system::error_code ignored;
    acceptor.close(ignored);
    retry_timer.cancel();
    if (!unix_path.empty()) ::unlink(unix_path.c_str());
    unix_path.clear();
  }

  /// Opens, binds and listens on `endpoint`; throws std::runtime_error naming `where`.
  void Listen(const asio::generic::stream_protocol::endpoint& endpoint, const std::string& where,
              bool reuse_address) {
    boost::system::error_code error;
    acceptor.open(endpoint.protocol(), error);
    if (!error && reuse_address) {
      acceptor.set_option(asio::socket_base::reuse_address(true), error);
    }
    if (!error) acceptor.bind(endpoint, error);
    if (!error) acceptor.listen(asio::socket_base::max_listen_connections, error);
    if (error) {
      throw std::runtime_error("server cannot listen on " + where + ": " + error.message());
    }
  }

  asio::any_io_executor executor;
  std::mutex mutex;  // guards acceptor and retry_timer
  asio::basic_socket_acceptor<asio::generic::stream_protocol> acceptor;
  std::string unix_path;  // the Unix socket's file, removed by Stop(); "" for TCP
  asio::steady_timer retry_timer;
  ConnectionSettings settings;
  std::shared_ptr<ByteBudget> unregistered_budget;  // shared by the accepted connections
  AcceptHandler on_accept;
};

Server::Server(const asio::any_io_executor& executor, const std::string& host, uint16_t port,
               const ConnectionSettings& settings, AcceptHandler on_accept)
    : state_(std::make_shared<State>(executor, settings, std::move(on_accept))) {
  const std::string where = host + ":" + std::to_string(port);
  boost::system::error_code error;
  const auto address = asio::ip::make_address(host, error);
  if (error) throw std::runtime_error("server address \"" + where + "\": " + error.message());
  state_->Listen(asio::ip::tcp::endpoint(address, port), where, true);
  asio::ip::tcp::endpoint bound;
  const auto local = state_->acceptor.local_endpoint();
  std::memcpy(bound.data(), local.data(), std::min(local.size(), bound.capacity()));
  port_ = bound.port();
  state_->Accept();
}

Server::Server(const asio::any_io_executor& executor, const std::string& unix_path,
               const ConnectionSettings& settings, AcceptHandler on_accept)
    : state_(std::make_shared<State>(executor, settings, std::move(on_accept))) {
  state_->Listen(asio::local::stream_protocol::endpoint(unix_path), "unix:" + unix_path, false);
  state_->unix_path = unix_path;
  state_->Accept();
}

Server::~Server() { Stop(); }

void Server::Stop() { state_->Stop(); }

}  // namespace asg::protocol
