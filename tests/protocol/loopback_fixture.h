// Loopback helpers shared by the connection and hostile-input tests: a server with a few test
// services that records every close reason, and a raw socket client that writes arbitrary bytes.
#pragma once

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "protocol/connection.h"
#include "protocol/endpoint.h"
#include "protocol/frame.h"
#include "protocol/io_threads.h"
#include "protocol/server.h"

namespace asg::protocol::testing {

/// Generous bound on anything a test waits for, for a loaded 2-core machine.
inline constexpr std::chrono::seconds kWait{10};

/// A server on 127.0.0.1 (ephemeral port) with the services:
///   "Echo"   replies EchoResponse with the request's message and attachment;
///   "Throw"  throws std::runtime_error("thrown by handler: value 7");
///   "Silent" never replies;
///   "Register" marks the connection registered (Connection::MarkRegistered) and replies
///              RegisterResponse {"registered": true}.
/// It records the close reason of every server-side connection.
class TestServer {
 public:
  explicit TestServer(const ConnectionSettings& settings = {})
      : io_(2),
        server_(io_.context().get_executor(), "127.0.0.1", 0, settings,
                [this](std::shared_ptr<Connection> connection) { OnAccept(connection); }) {}

  ~TestServer() {
    server_.Stop();
    std::vector<std::shared_ptr<Connection>> connections;
    {
      std::lock_guard lock(mutex_);
      connections.swap(connections_);
    }
    for (const auto& connection : connections) connection->Close("test server shutting down");
    // The threads stop before the members their close handlers use are destroyed.
    io_.Stop();
  }

  uint16_t port() const { return server_.port(); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port()); }
  boost::asio::io_context& context() { return io_.context(); }

  /// Waits until at least count server-side connections have closed; returns their reasons.
  std::vector<std::string> WaitForCloses(size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, kWait, [&] { return close_reasons_.size() >= count; });
    return close_reasons_;
  }

  /// Number of connections accepted so far.
  size_t accepted() {
    std::lock_guard lock(mutex_);
    return accepted_;
  }

  /// The server side of the index-th accepted connection still held, or null.
  std::shared_ptr<Connection> Accepted(size_t index) {
    std::lock_guard lock(mutex_);
    return index < connections_.size() ? connections_[index] : nullptr;
  }

  /// A started client connection to this server.
  std::shared_ptr<Connection> ConnectClient(const ConnectionSettings& settings = {}) {
    auto connection = Connect(io_.context().get_executor(), address(), kWait, settings);
    connection->Start();
    return connection;
  }

 private:
  void OnAccept(const std::shared_ptr<Connection>& connection) {
    Connection* raw = connection.get();
    connection->SetHandler("Echo", [raw](const Message& request) {
      raw->Reply(request, request.message, request.attachment);
    });
    connection->SetHandler("Throw", [](const Message&) -> void {
      throw std::runtime_error("thrown by handler: value 7");
    });
    connection->SetHandler("Silent", [](const Message&) {});
    connection->SetHandler("Register", [raw](const Message& request) {
      raw->MarkRegistered();
      raw->Reply(request, Json{{"registered", true}});
    });
    connection->SetCloseHandler([this](const std::string& reason) {
      std::lock_guard lock(mutex_);
      close_reasons_.push_back(reason);
      changed_.notify_all();
    });
    {
      std::lock_guard lock(mutex_);
      ++accepted_;
      connections_.push_back(connection);
    }
    connection->Start();
  }

  IoThreads io_;
  Server server_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::shared_ptr<Connection>> connections_;
  std::vector<std::string> close_reasons_;
  size_t accepted_ = 0;
};

/// What a raw client read before the server closed the connection or the wait ended.
struct RawReadResult {
  std::vector<Message> frames;  ///< frames decoded from the server's bytes
  bool closed = false;          ///< the server ended the stream
  std::string decode_error;     ///< set when the server's bytes did not decode
};

/// A plain blocking TCP client that writes whatever bytes a test gives it.
class RawClient {
 public:
  /// With monodrive, the server's bytes are decoded as monoDrive frames (frame.h) too.
  explicit RawClient(uint16_t port, bool monodrive = false)
      : socket_(context_), decoder_({}, monodrive) {
    socket_.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  }

  /// Writes bytes; errors (the server already closed) are ignored.
  void Write(const std::string& bytes) {
    boost::system::error_code ignored;
    boost::asio::write(socket_, boost::asio::buffer(bytes), ignored);
  }

  /// Ends the client's sending side, as a peer that closes mid-frame does.
  void ShutdownSend() {
    boost::system::error_code ignored;
    socket_.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
  }

  /// Reads until want_frames frames arrived (0: until the stream ends) or the wait ends.
  RawReadResult Read(size_t want_frames = 0, std::chrono::milliseconds wait = kWait) {
    RawReadResult result;
    result.frames.assign(std::make_move_iterator(unread_.begin()),
                         std::make_move_iterator(unread_.end()));
    unread_.clear();
    if (want_frames > 0 && result.frames.size() >= want_frames) return result;
    std::vector<char> buffer(64 * 1024);
    bool done = false;
    std::function<void()> read_more = [&] {
      socket_.async_read_some(boost::asio::buffer(buffer),
                              [&](const boost::system::error_code& error, size_t bytes) {
                                if (error) {
                                  result.closed = error != boost::asio::error::operation_aborted;
                                  done = true;
                                  return;
                                }
                                decoder_.Feed(std::string_view(buffer.data(), bytes));
                                Message message;
                                FrameError frame_error;
                                FrameDecoder::Status status;
                                while ((status = decoder_.Next(&message, &frame_error)) ==
                                       FrameDecoder::Status::kFrame) {
                                  result.frames.push_back(std::move(message));
                                }
                                if (status == FrameDecoder::Status::kError) {
                                  result.decode_error = frame_error.description;
                                  done = true;
                                } else if (want_frames > 0 && result.frames.size() >= want_frames) {
                                  done = true;
                                } else {
                                  read_more();
                                }
                              });
    };
    read_more();
    context_.restart();
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!done && std::chrono::steady_clock::now() < deadline) {
      context_.run_one_until(deadline);
    }
    if (!done) {
      socket_.cancel();
      context_.restart();
      context_.run();
    }
    return result;
  }

  /// Reads frames until one that is not a Heartbeat arrives; fails the test's wait otherwise.
  Message ReadReply() {
    while (true) {
      RawReadResult result = Read(1);
      if (result.frames.empty()) {
        throw std::runtime_error("no reply: closed " + std::to_string(result.closed) +
                                 ", decode error \"" + result.decode_error + "\"");
      }
      auto frame = result.frames.begin();
      while (frame != result.frames.end() && frame->type == kHeartbeatType) ++frame;
      if (frame == result.frames.end()) continue;
      Message reply = std::move(*frame);
      unread_.assign(std::make_move_iterator(frame + 1),
                     std::make_move_iterator(result.frames.end()));
      return reply;
    }
  }

  /// Reads until the server ends the stream; returns the frames other than Heartbeats.
  RawReadResult ReadUntilClosed() {
    RawReadResult result = Read(0);
    std::erase_if(result.frames, [](const Message& frame) { return frame.type == kHeartbeatType; });
    return result;
  }

 private:
  boost::asio::io_context context_;
  boost::asio::ip::tcp::socket socket_;
  FrameDecoder decoder_;
  std::vector<Message> unread_;  // frames decoded but not yet returned
};

/// The 12-byte header of a frame announcing `json_bytes` of JSON and `attachment_bytes` of
/// attachment, whatever follows.
inline std::string FrameHeader(uint32_t json_bytes, uint32_t attachment_bytes) {
  std::string header(kFrameMagic);
  for (const uint32_t value : {json_bytes, attachment_bytes}) {
    for (int shift = 24; shift >= 0; shift -= 8) header += static_cast<char>(value >> shift);
  }
  return header;
}

/// A frame of any JSON text (a repeated key, invalid JSON...) without an attachment, as bytes.
inline std::string RawFrame(const std::string& json) {
  return FrameHeader(static_cast<uint32_t>(json.size()), 0) + json;
}

/// A frame of type `type` whose body holds an array of `elements` empty objects, the last with
/// a repeated key "a": about 3 bytes per element, refused at "message.items[<elements>].a".
inline std::string RepeatedKeyFrame(const std::string& type, size_t elements) {
  std::string json = R"({"type": ")" + type + R"(", "reference": 9, "message": {"items": [)";
  json.reserve(json.size() + 3 * elements + 24);
  for (size_t i = 0; i < elements; ++i) json += "{},";
  json += R"({"a": 1, "a": 2}]}})";
  return RawFrame(json);
}

/// A valid request frame as bytes.
inline std::string RequestBytes(const std::string& type, int64_t reference, const Json& body) {
  return EncodeFrame({type, reference, body, {}});
}

}  // namespace asg::protocol::testing
