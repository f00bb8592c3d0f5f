// The network side of the control plane: vehicle-node requests arriving on the client's
// listening port (the same port as the workers) turned into NodeEvents for the one thread that
// owns the node state (node_control.h), which answers them.
//
// A connection is a node's once it sends "RegisterVehicleNode" first, a worker's once it sends
// "RegisterWorker" first (farm_links.h). Requests of the control plane are decoded strictly on
// the connection's strand (a request that does not decode gets an Error reply from the
// connection) and handed over with the frame to reply to; the consumer replies.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "protocol/connection.h"
#include "protocol/messages.h"
#include "protocol/node_messages.h"

namespace asg::client {

/// Frame types of the control plane (docs/vehicle-nodes.md).
inline constexpr const char* kRegisterVehicleNodeType = "RegisterVehicleNode";
inline constexpr const char* kUnregisterVehicleNodeType = "UnregisterVehicleNode";
inline constexpr const char* kNotifyReadyType = "NotifyReady";
inline constexpr const char* kSaveNodeFileType = "SaveNodeFile";
inline constexpr const char* kOperatingInfoType = "VehicleNodeOperatingInfo";
/// Frame type of a worker's report of a preempted run (worker -> client).
inline constexpr const char* kRunPreemptedType = "RunPreempted";

/// One control-plane request, or the close of a node connection.
struct NodeEvent {
  enum class Kind : uint8_t {
    kRegister,    ///< RegisterVehicleNode: `registration`
    kUnregister,  ///< UnregisterVehicleNode: `unregister`
    kReady,       ///< NotifyReady: `ready`
    kSaveFile,    ///< SaveNodeFile: `save` and `bytes`
    kClosed,      ///< the connection closed; `text` is the reason
  };
  Kind kind = Kind::kClosed;
  uint64_t link = 0;  ///< identifies the connection for its lifetime; never reused
  std::shared_ptr<protocol::Connection> connection;
  protocol::Message request;  ///< the frame to reply to (type and reference; no attachment)
  protocol::NodeRegistration registration;
  protocol::UnregisterVehicleNodeRequest unregister;
  protocol::NotifyReadyRequest ready;
  protocol::SaveNodeFileRequest save;
  std::string bytes;  ///< kSaveFile: the file (the frame's attachment)
  std::string text;
};

/// Receives node events; called on io threads, so it must be thread-safe (e.g. a queue push).
using NodeEventSink = std::function<void(NodeEvent event)>;

/// Sets the control-plane request handlers on `connection` (not started yet), which is known
/// as `link`. `accepts` is asked on every request: when it returns false (the connection is a
/// worker's) the request gets an Error reply and is dropped. The close handler is the
/// caller's: it should hand NodeClosed(link, reason) to the sink.
void SetNodeHandlers(const std::shared_ptr<protocol::Connection>& connection, uint64_t link,
                     NodeEventSink sink, std::function<bool()> accepts);

/// The kClosed event of a link.
NodeEvent NodeClosed(uint64_t link, const std::string& reason);

}  // namespace asg::client
