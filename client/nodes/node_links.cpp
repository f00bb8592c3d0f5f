// Control-plane requests decoded on the connection's strand and handed to the node state owner.
#include "client/nodes/node_links.h"

#include <utility>

#include "protocol/messages_json.h"
#include "protocol/typed_connection.h"

namespace asg::client {

using protocol::Connection;
using protocol::Message;

namespace {

/// A handler of T's requests: refused on a worker's connection, else decoded strictly (a body
/// that does not decode gets an Error reply from the connection), turned into a NodeEvent's
/// payload by `make(const T&, const Message&)` and handed to the sink.
template <class T, class Make>
Connection::Handler Forward(std::weak_ptr<Connection> weak, uint64_t link, NodeEventSink sink,
                            std::function<bool()> accepts, Make make) {
  return [weak, link, sink, accepts, make](const Message& message) {
    auto self = weak.lock();
    if (!self) return;
    if (!accepts()) {
      self->ReplyError(message.reference, message.type + " is for vehicle nodes");
      return;
    }
    const T body = protocol::DecodeMessage<T>(message.message);
    NodeEvent event;
    event.link = link;
    event.connection = self;
    event.request.type = message.type;
    event.request.reference = message.reference;
    event.payload = make(body, message);
    sink(std::move(event));
  };
}

}  // namespace

void SetNodeHandlers(const std::shared_ptr<Connection>& connection, uint64_t link,
                     NodeEventSink sink, std::function<bool()> accepts) {
  std::weak_ptr<Connection> weak = connection;
  const auto on = [&]<class T>(auto make) {
    connection->SetHandler(protocol::TypeOf<T>(),
                           Forward<T>(weak, link, sink, accepts, std::move(make)));
  };
  on.template operator()<protocol::NodeRegistration>(
      [](const protocol::NodeRegistration& body, const Message&) -> NodeEvent::Payload {
        return node_event::Register{body};
      });
  on.template operator()<protocol::UnregisterVehicleNodeRequest>(
      [](const protocol::UnregisterVehicleNodeRequest& body, const Message&) -> NodeEvent::Payload {
        return node_event::Unregister{body};
      });
  on.template operator()<protocol::NotifyReadyRequest>(
      [](const protocol::NotifyReadyRequest& body, const Message&) -> NodeEvent::Payload {
        return node_event::Ready{body};
      });
  on.template operator()<protocol::SaveNodeFileRequest>(
      [](const protocol::SaveNodeFileRequest& body, const Message& message) -> NodeEvent::Payload {
        return node_event::SaveFile{body, message.attachment};
      });
}

NodeEvent NodeClosed(uint64_t link, const std::string& reason) {
  NodeEvent event;
  event.link = link;
  event.payload = node_event::Closed{reason};
  return event;
}

}  // namespace asg::client
