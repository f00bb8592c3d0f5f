// The interactive worker's client hub: the listening server and every client connection, their
// client ids, the token check (Hello), routing each request to its service, the replies and the
// frames pushed to clients (goal feedback and results, Event frames of subscribers), every one of
// them logged in the communication log. With a token, nothing a connection sends before its
// Hello is accepted is logged there or kept: a refused one leaves one clipped line on stderr. While
// a StepSimulation is answered later, the requests that arrive meanwhile wait here, in order, and
// are handled once it is answered.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "protocol/connection.h"
#include "protocol/server.h"
#include "worker/serve/call.h"
#include "worker/serve/logs.h"
#include "worker/serve/services.h"

namespace asg::worker::serve {

/// Where the hub listens and what it asks of clients.
struct HubSettings {
  std::string host = "127.0.0.1";  ///< address to listen on
  uint16_t port = 0;               ///< 0 picks a free port
  std::string token;               ///< required (Hello) when not empty
  /// Also listen on the same-host Unix-domain socket of host:port (protocol/local_channel.h),
  /// which clients on this host (asg-ctl, the C++ and Python clients) connect to instead.
  bool local_channel = true;
};

/// Connections and requests of one interactive session. Not thread-safe: everything runs on the
/// thread that runs `io`.
class ClientHub {
 public:
  /// Runs a service's handler for a call; what it throws is answered Error.
  using Invoke = std::function<Reply(const Service& service, const Call& call)>;

  /// `io` and `logs` must outlive the hub.
  ClientHub(boost::asio::io_context& io, HubSettings settings, SessionLogs& logs, Invoke invoke);
  ~ClientHub();
  ClientHub(const ClientHub&) = delete;
  ClientHub& operator=(const ClientHub&) = delete;

  /// Listens (on the TCP port and, when it can, on the same-host socket; a failure to offer the
  /// latter is logged); throws std::runtime_error naming the address when it cannot. Returns the
  /// port.
  uint16_t Listen();
  /// "unix:PATH" of the same-host socket, "" when not offered.
  std::string local_endpoint() const;

  /// Sends a frame to the client (dropped, but logged, when it has gone).
  void Push(int client_id, const std::string& type, const json::Json& body);
  /// Subscribes the call's client to the frames of Broadcast.
  void Subscribe(const Call& call);
  /// Sends a frame to every subscribed client.
  void Broadcast(const std::string& type, const json::Json& body);

  /// The call is answered later by AnswerDeferred; requests wait until then.
  void Defer(const Call& call);
  /// Answers the deferred call with `body`, then handles the requests that waited.
  void AnswerDeferred(const json::Json& body);

  /// Begins quitting: no new connections, every later request but GetSimulationState,
  /// ListServices and SetSimulationState refused; `io` stops once the clients are gone, or after
  /// 2 s.
  void Quit();

 private:
  /// A request held back until the deferred call is answered.
  struct Waiting {
    std::shared_ptr<protocol::Connection> connection;
    int client_id = 0;
    protocol::Message message;
  };

  void Accept(std::shared_ptr<protocol::Connection> connection);
  void OnMessage(const std::shared_ptr<protocol::Connection>& connection, int client_id,
                 const protocol::Message& message);
  /// Answers Hello: checks the token (protocol::TokenGuard::Process()).
  void Hello(protocol::Connection& connection, int client_id, const protocol::Message& message);
  /// Answers Error "refused: <reason>", closes the connection and logs one clipped line on
  /// stderr (not in the session's logs).
  void Refuse(protocol::Connection& connection, int client_id, const protocol::Message& request,
              const std::string& reason);
  void Dispatch(const std::shared_ptr<protocol::Connection>& connection, int client_id,
                const protocol::Message& message);
  /// Answers Error with `description` and logs it.
  void ReplyError(protocol::Connection& connection, int client_id, const protocol::Message& request,
                  const std::string& description);
  /// Sends an Error reply to `request`: type "Error", or in monoDrive framing the request's type.
  void AnswerError(protocol::Connection& connection, const protocol::Message& request,
                   const std::string& description);
  /// Sends the reply to `request` and logs it; in monoDrive framing its body as
  /// MonoDriveReplyMessage() gives it.
  void SendReply(protocol::Connection& connection, int client_id, const protocol::Message& request,
                 const json::Json& body, std::string attachment);
  /// Sends a pushed frame on `connection` (none: the client has gone) and logs it.
  void Send(protocol::Connection* connection, int client_id, const std::string& type,
            const json::Json& body);

  boost::asio::io_context& io_;
  HubSettings settings_;
  SessionLogs& logs_;
  Invoke invoke_;
  std::unique_ptr<protocol::Server> server_;
  std::unique_ptr<protocol::Server> local_server_;  // the same-host socket, or null
  std::string local_path_;                          // its path
  std::map<int, std::shared_ptr<protocol::Connection>> clients_;
  std::map<int, std::weak_ptr<protocol::Connection>> subscribers_;
  int next_client_id_ = 1;
  bool quitting_ = false;
  std::optional<Waiting> deferred_;  // the call answered later
  std::deque<Waiting> waiting_;      // requests that arrived meanwhile
};

}  // namespace asg::worker::serve
