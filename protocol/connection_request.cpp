// Connection: requests awaiting replies (keyed by reference, each with its own timeout timer)
// and the heartbeat that sends liveness frames and declares a silent peer dead.
#include <poll.h>
#include <sys/socket.h>

#include <boost/asio/dispatch.hpp>
#include <cerrno>
#include <cstring>
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
  const auto* io_executor = strand_.get_inner_executor().target<asio::io_context::executor_type>();
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
  NoteFrameForStrand();
  asio::dispatch(strand_, [self = shared_from_this(), type, reference, timeout,
                           frame = std::move(frame), callback = std::move(callback)]() mutable {
    self->MarkStrandWriting(true, !self->close_begun_);
    if (self->close_begun_) {
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
  std::unique_lock lock(direct_mutex_);
  // Frames handed to the strand earlier go first: the direct path waits until they are written.
  if (!started_.load() || closing_.load() || strand_writing_ || frames_for_strand_ > 0) {
    return false;
  }
  // Registered before the frame leaves, so no reply can miss it; the strand adopts it.
  PendingRequest pending{reply_type, std::move(callback),
                         std::make_unique<asio::steady_timer>(strand_, timeout)};
  pending.timer->async_wait([self = shared_from_this(), reference, reply_type,
                             timeout](const boost::system::error_code& error) {
    if (error) return;
    RequestResult result;
    const std::string type = reply_type.substr(0, reply_type.size() - std::strlen("Response"));
    result.description = type + " (reference " + std::to_string(reference) + "): no reply within " +
                         std::to_string(timeout.count()) + " ms";
    self->CompleteRequest(reference, std::move(result));
  });
  direct_pending_.emplace(reference, std::move(pending));
  // The whole frame is written under the lock, so frames never interleave; a full send buffer
  // is waited on for at most the request's timeout.
  const int fd = socket_.native_handle();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string failure;
  for (const std::string* part : {&frame.head, &frame.attachment}) {
    size_t sent = 0;
    while (sent < part->size() && failure.empty()) {
      const ssize_t n =
          ::send(fd, part->data() + sent, part->size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n >= 0) {
        sent += static_cast<size_t>(n);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        failure = "write to " + peer_ + " failed: " + std::strerror(errno);
        break;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        failure = "write to " + peer_ + " blocked for " + std::to_string(timeout.count()) + " ms";
        break;
      }
      pollfd poll_fd{fd, POLLOUT, 0};
      ::poll(&poll_fd, 1, static_cast<int>(left.count()));
    }
  }
  lock.unlock();
  // The request fails with the connection's close, on the strand, like every other.
  if (!failure.empty()) Close(failure);
  return true;
}

void Connection::AdoptDirectRequests() {
  std::lock_guard lock(direct_mutex_);
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
  // The tick is short enough to notice a silent peer within a quarter of peer_timeout.
  const auto tick = std::max(std::chrono::milliseconds(1),
                             std::min(settings_.heartbeat_interval, settings_.peer_timeout / 4));
  heartbeat_timer_.expires_after(tick);
  heartbeat_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error) self->OnHeartbeatTick();
  });
}

void Connection::OnHeartbeatTick() {
  if (close_begun_) return;
  const auto now = std::chrono::steady_clock::now();
  const auto silence = std::chrono::duration_cast<std::chrono::milliseconds>(now - last_received_);
  if (silence > settings_.peer_timeout) {
    Abort("peer " + peer_ + " silent for " + std::to_string(silence.count()) + " ms (timeout " +
          std::to_string(settings_.peer_timeout.count()) + " ms)");
    return;
  }
  if (now - last_heartbeat_sent_ >= settings_.heartbeat_interval) {
    last_heartbeat_sent_ = now;
    MarkStrandWriting(false, true);
    write_queue_.push_back(
        {EncodeFrameHead(kHeartbeatType, 0, Json::object(), 0, settings_.limits), {}});
    StartWrite();
  }
  ScheduleHeartbeat();
}

}  // namespace asg::protocol
