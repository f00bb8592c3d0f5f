// The farm's own handshake: the first request a worker sends on a new connection, before any
// AutoSceneGen message. The client refuses every other message until a worker has registered.
//
// Conversation: worker -> "RegisterWorker" {worker_id, token, pid, data_endpoint}; the client
// answers "RegisterWorkerResponse" {accepted: true, message} or, for a wrong token, an "Error"
// reply naming the reason, and closes the connection. JSON encoding and strict decoding follow
// messages_json.h (every field required except data_endpoint, no unknown field).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/messages_json.h"

namespace asg::protocol {

/// RegisterWorker request: who the worker is.
struct RegisterWorkerRequest {
  static constexpr std::string_view kType = "RegisterWorker";
  uint16_t worker_id = 0;  ///< the worker's --id (0..65535), echoed in its AnalyzeScenario requests
  std::string token;       ///< shared secret; must equal the client's token when it has one
  int64_t pid = 0;         ///< the worker's process id on its own host, >= 0
  /// Optional: "HOST:PORT" of the worker's data port for vehicle nodes; empty when it has none.
  std::string data_endpoint;
  bool operator==(const RegisterWorkerRequest&) const = default;
};

/// RegisterWorkerResponse: the client accepted the worker.
struct RegisterWorkerResponse {
  static constexpr std::string_view kType = "RegisterWorkerResponse";
  bool accepted = false;  ///< true: the worker may expect RunScenario requests
  std::string message;    ///< human-readable note, e.g. "registered as worker 3"
  bool operator==(const RegisterWorkerResponse&) const = default;
};

ASG_DECLARE_JSON(RegisterWorkerRequest);
ASG_DECLARE_JSON(RegisterWorkerResponse);

}  // namespace asg::protocol
