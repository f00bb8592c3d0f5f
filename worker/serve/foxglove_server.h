// A Foxglove WebSocket server (subprotocol foxglove.websocket.v1, the protocol of
// https://github.com/foxglove/ws-protocol/blob/main/docs/spec.md) over Boost.Beast: it advertises
// JSON channels and services, keeps each client's subscriptions, sends message data frames to the
// subscribers of a channel and answers service calls through a function it is given. With a token,
// the WebSocket upgrade request must carry it as the query parameter `token`
// (ws://HOST:PORT/?token=T; a browser's WebSocket cannot set headers); a refused upgrade is
// answered HTTP 401 and closed.
//
// Threading: not thread-safe; everything runs on the thread that runs the io_context.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "json/json.h"

namespace asg::worker::serve {

/// The WebSocket subprotocol a Foxglove client asks for.
inline constexpr const char* kFoxgloveSubprotocol = "foxglove.websocket.v1";

/// One advertised channel: JSON messages with a JSON Schema.
struct FoxgloveChannel {
  uint32_t id = 0;          ///< channel id, unique in the server
  std::string topic;        ///< e.g. "/tf"
  std::string schema_name;  ///< e.g. "foxglove.FrameTransform"
  std::string schema;       ///< the JSON Schema's text
};

/// One advertised service: requests and responses in JSON.
struct FoxgloveService {
  uint32_t id = 0;             ///< service id, unique in the server
  std::string name;            ///< e.g. "StepSimulation"
  std::string request_schema;  ///< the request body's JSON Schema text ("{}" when it has none)
};

/// Where the server listens and what it serves.
struct FoxgloveSettings {
  std::string host = "127.0.0.1";   ///< address to listen on
  uint16_t port = 0;                ///< 0 picks a free port
  std::string token;                ///< required as the `token` query parameter when not empty
  std::string name = "asg-worker";  ///< serverInfo's name
  std::vector<FoxgloveChannel> channels;  ///< advertised to every client
  std::vector<FoxgloveService> services;  ///< advertised to every client
};

/// The Foxglove WebSocket server; see the file comment.
class FoxgloveServer {
 public:
  /// Answers a service call: `request` decoded from the call's JSON payload; returns the
  /// response body, or throws std::exception whose message the client gets (serviceCallFailure).
  using CallService =
      std::function<json::Json(const std::string& service, const json::Json& request)>;
  /// Told when a client subscribes to a channel (to send it the channel's current message).
  using OnSubscribe = std::function<void(uint32_t channel_id)>;

  /// `io` must outlive the server.
  FoxgloveServer(boost::asio::io_context& io, FoxgloveSettings settings, CallService call,
                 OnSubscribe subscribed);
  ~FoxgloveServer();
  FoxgloveServer(const FoxgloveServer&) = delete;
  FoxgloveServer& operator=(const FoxgloveServer&) = delete;

  /// Listens; throws std::runtime_error naming the address when it cannot. Returns the port.
  uint16_t Listen();
  /// True when some client is subscribed to the channel.
  bool Subscribed(uint32_t channel_id) const;
  /// Sends `message` at `time` [ns] to every subscriber of the channel.
  void Publish(uint32_t channel_id, uint64_t time, const json::Json& message);
  /// Stops accepting and closes every client.
  void Stop();

  class Client;

 private:
  friend class Client;
  void Accept();
  /// The token check of an upgrade request's target: empty when admitted, else why not.
  std::string Admit(const std::string& target, const std::string& peer) const;
  /// The serverInfo, advertise and advertiseServices messages a new client is sent.
  std::vector<std::string> Greeting() const;
  void Closed(Client* client);

  boost::asio::io_context& io_;
  FoxgloveSettings settings_;
  CallService call_;
  OnSubscribe subscribed_;
  struct Acceptor;
  std::unique_ptr<Acceptor> acceptor_;
  std::map<Client*, std::shared_ptr<Client>> clients_;
};

}  // namespace asg::worker::serve
