// Control-plane requests decoded on the connection's strand and handed to the node state owner.
#include "client/node_links.h"

#include <utility>

#include "protocol/messages_json.h"

namespace asg::client {

using protocol::Connection;
using protocol::Message;

void SetNodeHandlers(const std::shared_ptr<Connection>& connection, uint64_t link,
                     NodeEventSink sink, std::function<bool()> accepts) {
  std::weak_ptr<Connection> weak = connection;
  // Every request: refused on a worker's connection, else decoded by `fill` and handed over.
  auto forward = [weak, link, sink, accepts](NodeEvent::Kind kind, auto fill) {
    return [weak, link, sink, accepts, kind, fill](const Message& message) {
      auto self = weak.lock();
      if (!self) return;
      if (!accepts()) {
        self->ReplyError(message.reference, message.type + " is for vehicle nodes");
        return;
      }
      NodeEvent event;
      event.kind = kind;
      event.link = link;
      event.connection = self;
      event.request.type = message.type;
      event.request.reference = message.reference;
      fill(message, event);  // throws DecodeError: the connection answers with an Error
      sink(std::move(event));
    };
  };
  connection->SetHandler(
      kRegisterVehicleNodeType,
      forward(NodeEvent::Kind::kRegister, [](const Message& message, NodeEvent& event) {
        event.registration = protocol::DecodeMessage<protocol::NodeRegistration>(message.message);
      }));
  connection->SetHandler(
      kUnregisterVehicleNodeType,
      forward(NodeEvent::Kind::kUnregister, [](const Message& message, NodeEvent& event) {
        event.unregister =
            protocol::DecodeMessage<protocol::UnregisterVehicleNodeRequest>(message.message);
      }));
  connection->SetHandler(
      kNotifyReadyType,
      forward(NodeEvent::Kind::kReady, [](const Message& message, NodeEvent& event) {
        event.ready = protocol::DecodeMessage<protocol::NotifyReadyRequest>(message.message);
      }));
  connection->SetHandler(
      kSaveNodeFileType,
      forward(NodeEvent::Kind::kSaveFile, [](const Message& message, NodeEvent& event) {
        event.save = protocol::DecodeMessage<protocol::SaveNodeFileRequest>(message.message);
        event.bytes = message.attachment;
      }));
}

NodeEvent NodeClosed(uint64_t link, const std::string& reason) {
  NodeEvent event;
  event.kind = NodeEvent::Kind::kClosed;
  event.link = link;
  event.text = reason;
  return event;
}

}  // namespace asg::client
