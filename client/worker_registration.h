// The farm's own handshake: the first request a worker sends on a new connection, before any
// AutoSceneGen message. The client refuses every other message until a worker has registered.
//
// Conversation: worker -> "RegisterWorker" {worker_id, token, pid, data_endpoint (optional)}; the
// client answers "RegisterWorkerResponse" {accepted: true, message} or, for a wrong token, an
// "Error" reply naming the reason, and closes the connection.
#pragma once

#include <cstdint>
#include <string>

#include "protocol/messages_json.h"

namespace asg::client {

/// Frame type of the registration request.
inline constexpr const char* kRegisterWorkerType = "RegisterWorker";

/// RegisterWorker request: who the worker is.
struct RegisterWorkerRequest {
  uint8_t worker_id = 0;  ///< the worker's --id, echoed in its AnalyzeScenario requests
  std::string token;      ///< shared secret; must equal the client's token when it has one
  int64_t pid = 0;        ///< the worker's process id on its own host
  /// Optional "data_endpoint": "HOST:PORT" of the worker's data port for vehicle nodes; empty
  /// (and left out of the JSON) when the worker has none.
  std::string data_endpoint;
  bool operator==(const RegisterWorkerRequest&) const = default;
};

/// RegisterWorkerResponse: the client accepted the worker.
struct RegisterWorkerResponse {
  bool accepted = false;  ///< true: the worker may expect RunScenario requests
  std::string message;    ///< human-readable note, e.g. "registered as worker 3"
  bool operator==(const RegisterWorkerResponse&) const = default;
};

/// Encodes a request as its JSON body.
protocol::Json ToJson(const RegisterWorkerRequest& request);
/// Encodes a response as its JSON body.
protocol::Json ToJson(const RegisterWorkerResponse& response);
/// Decodes a request strictly (every field required, no unknown field); throws
/// protocol::DecodeError naming the field.
RegisterWorkerRequest DecodeRegisterWorkerRequest(const protocol::Json& body);
/// Decodes a response strictly; throws protocol::DecodeError naming the field.
RegisterWorkerResponse DecodeRegisterWorkerResponse(const protocol::Json& body);

}  // namespace asg::client
