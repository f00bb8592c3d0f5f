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
#include <variant>

#include "protocol/connection.h"
#include "protocol/messages.h"
#include "protocol/node_messages.h"

namespace asg::client {

/// The kinds of NodeEvent, one struct each.
namespace node_event {

/// RegisterVehicleNode.
struct Register {
  protocol::NodeRegistration registration;
};
/// UnregisterVehicleNode.
struct Unregister {
  protocol::UnregisterVehicleNodeRequest unregister;
};
/// NotifyReady.
struct Ready {
  protocol::NotifyReadyRequest ready;
};
/// SaveNodeFile with its file.
struct SaveFile {
  protocol::SaveNodeFileRequest save;
  std::string bytes;  ///< the file (the frame's attachment)
};
/// The node connection closed.
struct Closed {
  std::string reason;
};

}  // namespace node_event

/// One control-plane request, or the close of a node connection.
struct NodeEvent {
  using Payload = std::variant<node_event::Register, node_event::Unregister, node_event::Ready,
                               node_event::SaveFile, node_event::Closed>;
  uint64_t link = 0;  ///< identifies the connection for its lifetime; never reused
  /// The connection to reply on; set for requests, nullptr for Closed.
  std::shared_ptr<protocol::Connection> connection;
  protocol::Message request;  ///< the frame to reply to (type and reference; no attachment)
  Payload payload = node_event::Closed{};
};

/// Receives node events; called on io threads, so it must be thread-safe (e.g. a queue push).
using NodeEventSink = std::function<void(NodeEvent event)>;

/// Sets the control-plane request handlers on `connection` (not started yet), which is known
/// as `link`. `accepts` is asked on every request: when it returns false (the connection is a
/// worker's) the request gets an Error reply and is dropped. The close handler is the
/// caller's: it should hand NodeClosed(link, reason) to the sink.
void SetNodeHandlers(const std::shared_ptr<protocol::Connection>& connection, uint64_t link,
                     NodeEventSink sink, std::function<bool()> accepts);

/// The Closed event of a link.
NodeEvent NodeClosed(uint64_t link, const std::string& reason);

}  // namespace asg::client
