// A service request being handled by the interactive worker, and the reply its handler gives.
#pragma once

#include <memory>
#include <string>

#include "json/json.h"
#include "protocol/connection.h"

namespace asg::worker::serve {

/// A request being handled: who sent it and what. Valid during the handler's call only.
struct Call {
  std::shared_ptr<protocol::Connection> connection;  ///< the client's connection
  int client_id = 0;                                 ///< the connection's client id
  const protocol::Message* message = nullptr;        ///< the request frame
  /// The request's body.
  const json::Json& body() const { return message->message; }
};

/// A reply body and its attachment; `later` when the reply is sent afterwards (a long
/// StepSimulation answered when done).
struct Reply {
  Reply() = default;
  /// A reply with this body and no attachment, sent at once.
  Reply(json::Json reply_body) : body(std::move(reply_body)) {}  // NOLINT: implicit

  json::Json body = json::Json::object();  ///< the <Service>Response body
  std::string attachment;                  ///< binary data the body indexes (PNG images, readings)
  bool later = false;                      ///< the reply is sent afterwards, not now
};

}  // namespace asg::worker::serve
