// Connection: the write queue, the read loop with dispatch, and the close sequence. Requests and
// heartbeats are in connection_request.cpp.
//
// Every piece of state below the handlers is touched only on strand_. Public entry points that
// may run on any thread hand their work to the strand with dispatch(), which runs it at once
// when already on the strand, so a handler's Reply() and Close() keep their order.
#include "protocol/connection.h"

#include <sys/un.h>

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

#include "protocol/local_channel.h"

namespace asg::protocol {

namespace asio = boost::asio;

namespace {

/// Bytes asked of each read while a connection's frames are small [bytes].
constexpr size_t kMinReadBytes = 4 * 1024;
/// Bytes asked of each read at most [bytes]: a read that fills the buffer makes it grow towards
/// this, so that a large frame arrives in few reads.
constexpr size_t kMaxReadBytes = 64 * 1024;
/// Reads in a row below kMinReadBytes after which a grown read buffer shrinks back.
constexpr uint32_t kSmallReadsBeforeShrink = 16;

bool IsUnixSocket(const Connection::Socket& socket) {
  boost::system::error_code error;
  const auto endpoint = socket.local_endpoint(error);
  return !error && endpoint.protocol().family() == AF_UNIX;
}

/// The path of a Unix-domain socket's endpoint; "" when unnamed.
std::string UnixPath(const asio::generic::stream_protocol::endpoint& endpoint) {
  const auto* address = reinterpret_cast<const sockaddr_un*>(endpoint.data());
  const size_t offset = offsetof(sockaddr_un, sun_path);
  if (endpoint.size() <= offset) return "";
  return std::string(address->sun_path, ::strnlen(address->sun_path, endpoint.size() - offset));
}

/// "address:port" of the peer, or "unix:PATH" with the socket's path (the peer's when it has a
/// name, else this end's: the accepting side's socket is the one with the path).
std::string EndpointText(const Connection::Socket& socket) {
  boost::system::error_code error;
  const auto endpoint = socket.remote_endpoint(error);
  if (error) return "unconnected";
  if (endpoint.protocol().family() == AF_UNIX) {
    std::string path = UnixPath(endpoint);
    if (path.empty()) path = UnixPath(socket.local_endpoint(error));
    return std::string(kUnixEndpointPrefix) + path;
  }
  asio::ip::tcp::endpoint tcp;
  std::memcpy(tcp.data(), endpoint.data(), std::min(endpoint.size(), tcp.capacity()));
  return tcp.address().to_string() + ":" + std::to_string(tcp.port());
}

}  // namespace

std::shared_ptr<Connection> Connection::Create(Socket socket, const ConnectionSettings& settings,
                                               std::shared_ptr<ByteBudget> unregistered_budget) {
  return std::shared_ptr<Connection>(
      new Connection(std::move(socket), settings, std::move(unregistered_budget)));
}

Connection::Connection(Socket socket, const ConnectionSettings& settings,
                       std::shared_ptr<ByteBudget> unregistered_budget)
    : socket_(std::move(socket)),
      channel_(IsUnixSocket(socket_) ? kChannelUnix : kChannelTcp),
      strand_(asio::make_strand(socket_.get_executor())),
      settings_(settings),
      peer_(EndpointText(socket_)),
      framing_(settings.accept_monodrive_framing ? Framing::kUnknown : Framing::kAsg),
      decoder_(settings.limits, settings.accept_monodrive_framing),
      unregistered_budget_(std::move(unregistered_budget)),
      read_buffer_(new char[kMinReadBytes]),
      read_buffer_bytes_(kMinReadBytes),
      heartbeat_timer_(strand_),
      close_timer_(strand_),
      direct_(socket_.native_handle(), peer_) {
  if (settings_.heartbeat_interval.count() <= 0 || settings_.peer_timeout.count() <= 0 ||
      settings_.close_timeout.count() <= 0 || settings_.frame_timeout.count() <= 0) {
    throw std::invalid_argument(
        "ConnectionSettings: heartbeat_interval " +
        std::to_string(settings_.heartbeat_interval.count()) + " ms, peer_timeout " +
        std::to_string(settings_.peer_timeout.count()) + " ms, close_timeout " +
        std::to_string(settings_.close_timeout.count()) + " ms and frame_timeout " +
        std::to_string(settings_.frame_timeout.count()) + " ms must all be > 0");
  }
  if (settings_.registration_timeout.count() < 0) {
    throw std::invalid_argument("ConnectionSettings: registration_timeout " +
                                std::to_string(settings_.registration_timeout.count()) +
                                " ms must be >= 0 (0: no deadline)");
  }
  // One frame at the frame cap must fit, or it could never be sent.
  const size_t largest_frame =
      kFrameHeaderBytes +
      std::min<size_t>(settings_.limits.max_frame_bytes, std::numeric_limits<uint32_t>::max());
  if (settings_.max_queued_bytes < largest_frame) {
    throw std::invalid_argument(
        "ConnectionSettings: max_queued_bytes " + std::to_string(settings_.max_queued_bytes) +
        " bytes is below one frame at the cap (" + std::to_string(largest_frame) + " bytes)");
  }
  // Request/reply latency matters more than packet count.
  if (channel_ == kChannelTcp) {
    boost::system::error_code ignored;
    socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
  }
}

Connection::~Connection() {
  if (unregistered_budget_) unregistered_budget_->Give(budget_taken_);
}

void Connection::RequireNotStarted(const char* what) const {
  if (started_.load()) {
    throw std::logic_error(std::string("Connection::") + what + " called after Start() on " +
                           peer_);
  }
}

void Connection::SetHandler(const std::string& type, Handler handler) {
  RequireNotStarted("SetHandler");
  if (type == kHeartbeatType || IsReplyType(type)) {
    throw std::invalid_argument("Connection::SetHandler: type \"" + type +
                                "\" is reserved for heartbeats or replies");
  }
  handlers_[type] = std::move(handler);
}

void Connection::SetRequestHandler(const std::string& type, RequestHandler handler) {
  // The connection is captured weakly: the handler is owned by the connection itself.
  std::weak_ptr<Connection> weak = weak_from_this();
  SetHandler(type, [weak, handler = std::move(handler)](const Message& request) {
    Json reply = handler(request);
    if (auto self = weak.lock()) self->Reply(request, reply);
  });
}

void Connection::SetFallbackHandler(Handler handler) {
  RequireNotStarted("SetFallbackHandler");
  fallback_handler_ = std::move(handler);
}

void Connection::SetCloseHandler(CloseHandler handler) {
  RequireNotStarted("SetCloseHandler");
  close_handler_ = std::move(handler);
}

void Connection::Start() {
  RequireNotStarted("Start");
  started_.store(true);
  asio::dispatch(strand_, [self = shared_from_this()] {
    self->last_received_ = std::chrono::steady_clock::now();
    self->last_heartbeat_sent_ = self->last_received_;
    self->started_at_ = self->last_received_;
    self->StartRead();
    self->ScheduleHeartbeat();
  });
}

Connection::OutgoingFrame Connection::Encode(const std::string& type, int64_t reference,
                                             const Json& message, std::string attachment) const {
  if (framing_.load() != Framing::kMonoDrive) {
    return {EncodeFrameHead(type, reference, message, attachment.size(), settings_.limits),
            std::move(attachment)};
  }
  if (!attachment.empty()) {
    throw std::invalid_argument("frame \"" + type +
                                "\": monoDrive framing carries no attachment (" +
                                std::to_string(attachment.size()) + " bytes given)");
  }
  return {EncodeMonoDriveFrame(type, reference, message, settings_.limits), {}};
}

int64_t Connection::Send(const std::string& type, const Json& message, std::string attachment) {
  const int64_t reference = next_reference_.fetch_add(1);
  Enqueue(Encode(type, reference, message, std::move(attachment)));
  return reference;
}

void Connection::Reply(const Message& request, const Json& message, std::string attachment) {
  // A monoDrive reply's type is its request's.
  const std::string type =
      framing_.load() == Framing::kMonoDrive ? request.type : ResponseType(request.type);
  Enqueue(Encode(type, request.reference, message, std::move(attachment)));
}

void Connection::ReplyError(int64_t reference, const std::string& description) {
  Enqueue(Encode(std::string(kErrorType), reference, ErrorBody(description), {}));
}

void Connection::Enqueue(OutgoingFrame frame) {
  if (closing_.load() || !ReserveQueueBytes(frame.bytes())) return;
  direct_.NoteFrameForStrand();
  asio::dispatch(strand_, [self = shared_from_this(), frame = std::move(frame)]() mutable {
    self->direct_.MarkStrandWriting(true, !self->close_begun_);
    if (self->close_begun_) {
      self->ReleaseQueueBytes(frame.bytes());
      return;
    }
    self->write_queue_.push_back(std::move(frame));
    self->StartWrite();
  });
}

bool Connection::ReserveQueueBytes(size_t bytes) {
  size_t queued = queued_bytes_.load();
  while (queued + bytes <= settings_.max_queued_bytes) {
    if (queued_bytes_.compare_exchange_weak(queued, queued + bytes)) return true;
  }
  // The peer does not read (or not fast enough): flushing is pointless, the connection ends now.
  MarkClosing();
  const std::string reason =
      "outgoing queue to " + peer_ + " over its cap: " + std::to_string(queued) +
      " bytes queued and a frame of " + std::to_string(bytes) +
      " bytes would exceed max_queued_bytes " + std::to_string(settings_.max_queued_bytes) +
      " bytes (the peer is not reading)";
  asio::dispatch(strand_, [self = shared_from_this(), reason] { self->Abort(reason); });
  return false;
}

void Connection::MarkClosing() {
  closing_.store(true);
  direct_.Disable();
}

void Connection::StartWrite() {
  // The write path is idle: a request may be sent directly from its caller's thread.
  if (!writing_ && write_queue_.empty()) direct_.MarkStrandIdle();
  if (writing_ || write_queue_.empty() || finished_) return;
  // Everything queued goes out in one gathered write.
  writing_ = true;
  frames_in_flight_ = write_queue_.size();
  write_buffers_.clear();
  for (const auto& frame : write_queue_) {
    write_buffers_.push_back(asio::buffer(frame.head));
    if (!frame.attachment.empty()) write_buffers_.push_back(asio::buffer(frame.attachment));
  }
  asio::async_write(socket_, write_buffers_,
                    asio::bind_executor(
                        strand_, [self = shared_from_this()](const boost::system::error_code& error,
                                                             size_t) { self->OnWrite(error); }));
}

void Connection::OnWrite(const boost::system::error_code& error) {
  writing_ = false;
  if (finished_) return;
  if (error) {
    Abort("write to " + peer_ + " failed: " + error.message());
    return;
  }
  size_t written = 0;
  for (size_t i = 0; i < frames_in_flight_; ++i) written += write_queue_[i].bytes();
  ReleaseQueueBytes(written);
  write_queue_.erase(write_queue_.begin(),
                     write_queue_.begin() + static_cast<std::ptrdiff_t>(frames_in_flight_));
  frames_in_flight_ = 0;
  StartWrite();
  ContinueClose();
}

void Connection::StartRead() {
  socket_.async_read_some(
      asio::buffer(read_buffer_.get(), read_buffer_bytes_),
      asio::bind_executor(
          strand_, [self = shared_from_this()](const boost::system::error_code& error,
                                               size_t bytes) { self->OnRead(error, bytes); }));
}

void Connection::OnRead(const boost::system::error_code& error, size_t bytes) {
  if (finished_) return;
  if (error == asio::error::eof) {
    peer_finished_ = true;
    if (close_begun_) {
      ContinueClose();
    } else if (decoder_.buffered_bytes() > 0) {
      const size_t expected = decoder_.pending_frame_bytes();
      BeginClose("peer " + peer_ + " closed mid-frame after " +
                 std::to_string(decoder_.buffered_bytes()) + " of " +
                 (expected > 0 ? std::to_string(expected) : std::string("at least 12")) + " bytes");
    } else {
      BeginClose("peer " + peer_ + " closed the connection");
    }
    return;
  }
  if (error) {
    Abort("read from " + peer_ + " failed: " + error.message());
    return;
  }
  last_received_ = std::chrono::steady_clock::now();
  // While closing, bytes are read only to see the peer's end of stream, and dropped.
  if (!close_begun_) {
    decoder_.Feed(std::string_view(read_buffer_.get(), bytes));
    DecodeFrames();
    if (!close_begun_) CountPartialFrame();
  }
  // The read buffer follows the traffic (its bytes are in the decoder by now): a read that fills
  // it makes it grow, and a run of small reads ending on a frame boundary gives it back its
  // small size, so that a thousand quiet connections hold a few KiB each. A peer not yet
  // registered sends small frames: its buffer stays small.
  small_reads_ = bytes < kMinReadBytes ? small_reads_ + 1 : 0;
  if (bytes == read_buffer_bytes_ && bytes < kMaxReadBytes && !AwaitsRegistration()) {
    ResizeReadBuffer(std::min(kMaxReadBytes, 4 * bytes));
  } else if (small_reads_ >= kSmallReadsBeforeShrink && read_buffer_bytes_ > kMinReadBytes &&
             decoder_.buffered_bytes() == 0) {
    ResizeReadBuffer(kMinReadBytes);
  }
  StartRead();
}

bool Connection::AwaitsRegistration() const {
  return settings_.registration_timeout.count() > 0 && !registered_.load();
}

void Connection::DecodeFrames() {
  Message message;
  FrameError frame_error;
  bool frame_completed = false;
  while (!close_begun_) {
    // A handler may register the peer, which lifts the lower cap from the next frame on.
    const bool awaits_registration = AwaitsRegistration();
    decoder_.set_max_frame_bytes(awaits_registration ? settings_.max_unregistered_frame_bytes
                                                     : settings_.limits.max_frame_bytes);
    const auto status = decoder_.Next(&message, &frame_error);
    if (framing_.load() == Framing::kUnknown && decoder_.framing() != Framing::kUnknown) {
      // A monoDrive peer sends no heartbeats: its silence is never timed.
      if (decoder_.framing() == Framing::kMonoDrive) peer_timeout_ms_.store(0);
      framing_.store(decoder_.framing());
    }
    if (status == FrameDecoder::Status::kNeedMore) break;
    frame_completed = true;
    if (status == FrameDecoder::Status::kError) {
      if (awaits_registration && (frame_error.kind == FrameErrorKind::kJsonTooLong ||
                                  frame_error.kind == FrameErrorKind::kAttachmentTooLong)) {
        frame_error.description += " for a peer not yet registered";
      }
      ReplyError(frame_error.reference, frame_error.description);
      BeginClose("bad frame from " + peer_ + ": " + frame_error.description);
      break;
    }
    Dispatch(std::move(message));
  }
  // The frame deadline runs from the first byte of each frame; later bytes do not extend it.
  if (decoder_.buffered_bytes() == 0) {
    partial_frame_ = false;
  } else if (!partial_frame_ || frame_completed) {
    partial_frame_ = true;
    partial_frame_since_ = last_received_;
  }
}

void Connection::CountPartialFrame() {
  if (!unregistered_budget_) return;
  const size_t held = decoder_.buffered_bytes();
  const size_t counted =
      AwaitsRegistration() && held > kUncountedPartialBytes ? held - kUncountedPartialBytes : 0;
  if (counted <= budget_taken_) {
    unregistered_budget_->Give(budget_taken_ - counted);
    budget_taken_ = counted;
    return;
  }
  if (unregistered_budget_->TryTake(counted - budget_taken_)) {
    budget_taken_ = counted;
    return;
  }
  const std::string reason =
      "partial frames of peers not yet registered over their shared cap of " +
      std::to_string(unregistered_budget_->cap_bytes()) + " bytes: " + peer_ + " holds " +
      std::to_string(held) + " bytes of a frame";
  ReplyError(0, reason);
  BeginClose(reason);
}

void Connection::DropPartialFrame() {
  decoder_ = FrameDecoder(settings_.limits, settings_.accept_monodrive_framing);
  if (unregistered_budget_) unregistered_budget_->Give(budget_taken_);
  budget_taken_ = 0;
}

void Connection::ResizeReadBuffer(size_t bytes) {
  read_buffer_.reset(new char[bytes]);
  read_buffer_bytes_ = bytes;
}

void Connection::Dispatch(Message message) {
  if (message.type == kHeartbeatType) return;
  if (IsReplyType(message.type)) {
    // A reply completes its pending request; an unmatched one is dropped, never answered.
    AdoptDirectRequests();
    const auto it = pending_.find(message.reference);
    if (it == pending_.end()) return;
    if (message.type != kErrorType && message.type != it->second.reply_type) return;
    RequestResult result;
    result.success = message.type != kErrorType;
    if (!result.success) result.description = ErrorDescription(message.message);
    result.reply = std::move(message);
    CompleteRequest(result.reply.reference, std::move(result));
    return;
  }
  const auto it = handlers_.find(message.type);
  const Handler* handler = it != handlers_.end() ? &it->second
                           : fallback_handler_   ? &fallback_handler_
                                                 : nullptr;
  if (handler == nullptr) {
    ReplyError(message.reference, "unknown message type \"" + message.type + "\"");
    return;
  }
  // The connection boundary: a handler's exception becomes an Error reply.
  try {
    (*handler)(message);
  } catch (const std::exception& exception) {
    ReplyError(message.reference, exception.what());
  } catch (...) {
    ReplyError(message.reference,
               "handler of \"" + message.type + "\" threw a non-standard exception");
  }
}

void Connection::Close(const std::string& reason) {
  MarkClosing();
  asio::dispatch(strand_, [self = shared_from_this(), reason] { self->BeginClose(reason); });
}

void Connection::BeginClose(const std::string& reason) {
  if (close_begun_) return;
  close_begun_ = true;
  MarkClosing();
  close_reason_ = reason;
  DropPartialFrame();
  heartbeat_timer_.cancel();
  FailPendingRequests();
  close_timer_.expires_after(settings_.close_timeout);
  close_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error) self->FinishClose();
  });
  ContinueClose();
}

void Connection::ContinueClose() {
  // Once the queue is flushed, the sending side is shut down; the socket is closed when the
  // peer has ended its side too (or at close_timeout), so the peer reads every reply.
  if (!close_begun_ || finished_ || writing_ || !write_queue_.empty()) return;
  if (!shutdown_sent_) {
    // A direct send in progress completes before the sending side is shut down.
    direct_.RunExclusive([this] {
      boost::system::error_code ignored;
      socket_.shutdown(asio::socket_base::shutdown_send, ignored);
    });
    shutdown_sent_ = true;
  }
  if (peer_finished_) FinishClose();
}

void Connection::Abort(const std::string& reason) {
  if (!close_begun_) {
    close_begun_ = true;
    MarkClosing();
    close_reason_ = reason;
  }
  FinishClose();
}

void Connection::FinishClose() {
  if (finished_) return;
  finished_ = true;
  MarkClosing();
  heartbeat_timer_.cancel();
  close_timer_.cancel();
  // No direct send is using the socket while it closes, and none starts after.
  direct_.RunExclusive([this] {
    boost::system::error_code ignored;
    socket_.close(ignored);
  });
  FailPendingRequests();
  size_t dropped = 0;
  for (const OutgoingFrame& frame : write_queue_) dropped += frame.bytes();
  ReleaseQueueBytes(dropped);
  write_queue_.clear();
  DropPartialFrame();
  if (close_handler_) {
    try {
      close_handler_(close_reason_);
    } catch (...) {
      // The close handler is user code at the connection boundary; its failure changes nothing.
    }
  }
  // Handlers may hold this connection; they are released later, never while one is running.
  asio::post(strand_, [self = shared_from_this()] {
    self->handlers_.clear();
    self->fallback_handler_ = nullptr;
    self->close_handler_ = nullptr;
  });
}

}  // namespace asg::protocol
