// Connection: requests awaiting replies (keyed by reference, each with its own timeout timer)
// and the heartbeat that sends liveness frames and declares a silent peer dead.
#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <future>
#include <utility>

#include "protocol/connection.h"

namespace asg::protocol {

namespace asio = boost::asio;

namespace {

/// The largest request frame AsyncRequest writes from its caller's thread [bytes]: one that a
/// socket's send buffer normally takes at once, so the caller does not wait for the peer.
constexpr size_t kDirectSendMaxBytes = 64 * 1024;

}  // namespace

bool Connection::OnIoThread() const {
  if (strand_.running_in_this_thread()) return true;
  // The inner executor is a copy: it must outlive the pointer into it.
  const asio::any_io_executor inner = strand_.get_inner_executor();
  const auto* io_executor = inner.target<asio::io_context::executor_type>();
  return io_executor != nullptr && io_executor->running_in_this_thread();
}

void Connection::AsyncRequest(const std::string& type, const Json& message, std::string attachment,
                              std::chrono::milliseconds timeout, ReplyCallback callback) {
  const int64_t reference = next_reference_.fetch_add(1);
  OutgoingFrame frame{
      EncodeFrameHead(type, reference, message, attachment.size(), settings_.limits),
      std::move(attachment)};
  // Off the io threads, a small frame is written at once when the write path is idle, which
  // spares a hand-off to the io thread.
  if (frame.head.size() + frame.attachment.size() <= kDirectSendMaxBytes && !OnIoThread() &&
      TrySendDirect(reference, ResponseType(type), timeout, frame, callback)) {
    return;
  }
  // A frame over the queue's cap is not queued; the request then fails with the close it causes.
  const bool reserved = !closing_.load() && ReserveQueueBytes(frame.bytes());
  direct_.NoteFrameForStrand();
  asio::dispatch(strand_, [self = shared_from_this(), type, reference, timeout, reserved,
                           frame = std::move(frame), callback = std::move(callback)]() mutable {
    self->direct_.MarkStrandWriting(true, !self->close_begun_);
    if (self->close_begun_ || !reserved) {
      if (reserved) self->ReleaseQueueBytes(frame.bytes());
      RequestResult result;
      result.description = type + " (reference " + std::to_string(reference) +
                           "): connection closed before sending: " + self->close_reason_;
      callback(std::move(result));
      return;
    }
    // The request is registered before its frame is queued, so no reply can miss it.
    PendingRequest pending{ResponseType(type), std::move(callback),
                           std::make_unique<asio::steady_timer>(self->strand_, timeout)};
    pending.timer->async_wait(
        [self, type, reference, timeout](const boost::system::error_code& error) {
          if (error) return;
          RequestResult result;
          result.description = type + " (reference " + std::to_string(reference) +
                               "): no reply within " + std::to_string(timeout.count()) + " ms";
          self->CompleteRequest(reference, std::move(result));
        });
    self->pending_.emplace(reference, std::move(pending));
    self->write_queue_.push_back(std::move(frame));
    self->StartWrite();
  });
}

Message Connection::Request(const std::string& type, const Json& message, std::string attachment,
                            std::chrono::milliseconds timeout) {
  if (OnIoThread()) {
    throw std::logic_error("Connection::Request(\"" + type +
                           "\") called on an io thread, which would wait for itself; use "
                           "AsyncRequest there");
  }
  auto promise = std::make_shared<std::promise<RequestResult>>();
  auto future = promise->get_future();
  AsyncRequest(type, message, std::move(attachment), timeout,
               [promise](RequestResult result) { promise->set_value(std::move(result)); });
  // The request's own timer answers first; this bound only covers an io_context not running.
  const auto bound = timeout + settings_.close_timeout + std::chrono::seconds(5);
  if (future.wait_for(bound) != std::future_status::ready) {
    throw RequestError(type + " request to " + peer_ + ": no outcome within " +
                       std::to_string(bound.count()) + " ms; is the io_context running?");
  }
  RequestResult result = future.get();
  if (!result.success) {
    throw RequestError(type + " request to " + peer_ + " failed: " + result.description);
  }
  return std::move(result.reply);
}

bool Connection::TrySendDirect(int64_t reference, const std::string& reply_type,
                               std::chrono::milliseconds timeout, OutgoingFrame& frame,
                               ReplyCallback& callback) {
  if (!started_.load()) return false;
  // Registered before the frame leaves, so no reply can miss it; the strand adopts it.
  auto register_request = [&] {
    PendingRequest pending{reply_type, std::move(callback),
                           std::make_unique<asio::steady_timer>(strand_, timeout)};
    pending.timer->async_wait([self = shared_from_this(), reference, reply_type,
                               timeout](const boost::system::error_code& error) {
      if (error) return;
      RequestResult result;
      const std::string type = reply_type.substr(0, reply_type.size() - kResponseSuffix.size());
      result.description = type + " (reference " + std::to_string(reference) +
                           "): no reply within " + std::to_string(timeout.count()) + " ms";
      self->CompleteRequest(reference, std::move(result));
    });
    std::lock_guard lock(direct_pending_mutex_);
    direct_pending_.emplace(reference, std::move(pending));
  };
  // A full send buffer is waited on for at most the request's timeout.
  std::string failure;
  const DirectWriter::Result result =
      direct_.TryWrite({frame.head, frame.attachment}, std::chrono::steady_clock::now() + timeout,
                       register_request, &failure);
  if (result == DirectWriter::Result::kNotNow) return false;
  // The request fails with the connection's close, on the strand, like every other.
  if (result == DirectWriter::Result::kFailed) Close(failure);
  return true;
}

void Connection::AdoptDirectRequests() {
  std::lock_guard lock(direct_pending_mutex_);
  for (auto& [reference, pending] : direct_pending_)
    pending_.emplace(reference, std::move(pending));
  direct_pending_.clear();
}

void Connection::CompleteRequest(int64_t reference, RequestResult result) {
  AdoptDirectRequests();
  const auto it = pending_.find(reference);
  if (it == pending_.end()) return;
  PendingRequest pending = std::move(it->second);
  pending_.erase(it);
  pending.timer->cancel();
  // The callback is user code at the connection boundary; its failure must not stop the
  // connection.
  try {
    pending.callback(std::move(result));
  } catch (...) {
  }
}

void Connection::FailPendingRequests() {
  AdoptDirectRequests();
  while (!pending_.empty()) {
    const int64_t reference = pending_.begin()->first;
    RequestResult result;
    result.description = "connection to " + peer_ + " closed before the reply to reference " +
                         std::to_string(reference) + ": " + close_reason_;
    CompleteRequest(reference, std::move(result));
  }
}

void Connection::ScheduleHeartbeat() {
  // The tick is short enough to notice a silent peer, an overdue frame or registration within a
  // quarter of its timeout.
  auto tick = std::min(
      {settings_.heartbeat_interval, settings_.peer_timeout / 4, settings_.frame_timeout / 4});
  if (settings_.registration_timeout.count() > 0 && !registered_.load()) {
    tick = std::min(tick, settings_.registration_timeout / 4);
  }
  tick = std::max(std::chrono::milliseconds(1), tick);
  heartbeat_timer_.expires_after(tick);
  heartbeat_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error) self->OnHeartbeatTick();
  });
}

void Connection::OnHeartbeatTick() {
  if (close_begun_) return;
  const auto now = std::chrono::steady_clock::now();
  const auto silence = std::chrono::duration_cast<std::chrono::milliseconds>(now - last_received_);
  const int64_t peer_timeout = peer_timeout_ms_.load();
  // Before its first byte a peer's framing, hence its heartbeats, are unknown: it is sent none,
  // but its silence is timed as every peer's but a monoDrive one's.
  const Framing framing = framing_.load();
  const bool asg_peer = framing == Framing::kAsg;
  if (framing != Framing::kMonoDrive && peer_timeout > 0 && silence.count() > peer_timeout) {
    Abort("peer " + peer_ + " silent for " + std::to_string(silence.count()) + " ms (timeout " +
          std::to_string(peer_timeout) + " ms)");
    return;
  }
  if (CheckDeadlines(now)) return;
  if (asg_peer && now - last_heartbeat_sent_ >= settings_.heartbeat_interval) {
    last_heartbeat_sent_ = now;
    OutgoingFrame heartbeat{EncodeFrameHead(kHeartbeatType, 0, Json::object(), 0, settings_.limits),
                            {}};
    if (!ReserveQueueBytes(heartbeat.bytes())) return;  // the connection is being aborted
    direct_.MarkStrandWriting(false, true);
    write_queue_.push_back(std::move(heartbeat));
    StartWrite();
  }
  ScheduleHeartbeat();
}

bool Connection::CheckDeadlines(std::chrono::steady_clock::time_point now) {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  std::string reason;
  if (partial_frame_ && now - partial_frame_since_ > settings_.frame_timeout) {
    // Bytes that keep trickling in (heartbeat-like liveness) do not count: the frame is late.
    reason = "frame from " + peer_ + " not whole within frame_timeout " +
             std::to_string(settings_.frame_timeout.count()) +
             " ms: " + std::to_string(decoder_.buffered_bytes()) + " bytes of it arrived in " +
             std::to_string(duration_cast<milliseconds>(now - partial_frame_since_).count()) +
             " ms";
  } else if (settings_.registration_timeout.count() > 0 && !registered_.load() &&
             now - started_at_ > settings_.registration_timeout) {
    reason = "peer " + peer_ + " did not register within registration_timeout " +
             std::to_string(settings_.registration_timeout.count()) + " ms";
  } else {
    return false;
  }
  // The peer is told why, like a peer that sent a bad frame.
  ReplyError(0, reason);
  BeginClose(reason);
  return true;
}

}  // namespace asg::protocol
