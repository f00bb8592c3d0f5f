// Typed use of a Connection: every message struct names its frame type (`T::kType`, next to the
// struct in messages.h, node_messages.h or worker_registration.h), so callers send and receive
// structs instead of spelling type names and decoding bodies themselves.
//
//   OnMessage<StatusCode>(*connection, [](const StatusCode& status, const Message&) {...});
//   OnRequest<RunScenarioRequest>(*connection, [](const RunScenarioRequest& r, const Message&) {
//     return RunScenarioResponse{true};
//   });
//   const auto reply = Request<RegisterWorkerResponse>(*connection, RegisterWorkerRequest{...});
//
// Bodies are decoded strictly (messages_json.h); a body that does not decode makes the handler
// throw, which the connection answers with an Error reply naming the field, and stays up.
// Thread-safety and handler threads are those of Connection.
#pragma once

#include <chrono>
#include <string>
#include <utility>

#include "protocol/connection.h"
#include "protocol/messages_json.h"

namespace asg::protocol {

/// The frame type of message struct T.
template <class T>
std::string TypeOf() {
  return std::string(T::kType);
}

/// Sets the handler of T's frames; `handler(const T&, const Message&)` gets the decoded body and
/// the frame (for its reference and attachment). Only before Connection::Start().
template <class T, class F>
void OnMessage(Connection& connection, F handler) {
  connection.SetHandler(TypeOf<T>(), [handler = std::move(handler)](const Message& message) {
    handler(DecodeMessage<T>(message.message), message);
  });
}

/// Sets the handler of T's requests; `handler(const T&, const Message&)` returns the reply struct
/// (sent as T::kType + "Response"). Only before Connection::Start().
template <class T, class F>
void OnRequest(Connection& connection, F handler) {
  connection.SetRequestHandler(TypeOf<T>(),
                               [handler = std::move(handler)](const Message& message) -> Json {
                                 return Json(handler(DecodeMessage<T>(message.message), message));
                               });
}

/// Queues `message` as a new frame of type T::kType; returns its reference. Thread-safe.
template <class T>
int64_t SendMessage(Connection& connection, const T& message, std::string attachment = {}) {
  return connection.Send(TypeOf<T>(), Json(message), std::move(attachment));
}

/// Sends `request` and waits for its reply, decoded strictly as Reply. Throws RequestError (an
/// Error reply, a timeout, a close) or DecodeError (a reply that does not decode).
template <class Reply, class T>
Reply RequestMessage(Connection& connection, const T& request, std::string attachment = {},
                     std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const Message reply =
      connection.Request(TypeOf<T>(), Json(request), std::move(attachment), timeout);
  return DecodeMessage<Reply>(reply.message);
}

/// Sends `request` and calls `callback` once with the outcome (see Connection::AsyncRequest).
template <class T>
void AsyncRequestMessage(Connection& connection, const T& request, std::string attachment,
                         std::chrono::milliseconds timeout, Connection::ReplyCallback callback) {
  connection.AsyncRequest(TypeOf<T>(), Json(request), std::move(attachment), timeout,
                          std::move(callback));
}

}  // namespace asg::protocol
