// DirectWriter: non-blocking ::send in a loop, with poll() on a full send buffer, under one
// mutex that also orders the strand's bookkeeping and the socket's shutdown and close.
#include "protocol/direct_writer.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace asg::protocol {

DirectWriter::DirectWriter(int fd, std::string peer) : fd_(fd), peer_(std::move(peer)) {}

void DirectWriter::NoteFrameForStrand() {
  std::lock_guard lock(mutex_);
  ++frames_for_strand_;
}

void DirectWriter::MarkStrandWriting(bool noted, bool queued) {
  std::lock_guard lock(mutex_);
  if (noted) --frames_for_strand_;
  if (queued) strand_writing_ = true;
}

void DirectWriter::MarkStrandIdle() {
  std::lock_guard lock(mutex_);
  strand_writing_ = false;
}

DirectWriter::Result DirectWriter::TryWrite(std::initializer_list<std::string_view> parts,
                                            std::chrono::steady_clock::time_point deadline,
                                            const std::function<void()>& before,
                                            std::string* failure) {
  std::lock_guard lock(mutex_);
  // Frames handed to the strand earlier go first: the direct path waits until they are written.
  if (!enabled_.load() || strand_writing_ || frames_for_strand_ > 0) return Result::kNotNow;
  if (before) before();
  // The whole frame is written under the lock, so frames never interleave.
  for (const std::string_view part : parts) {
    size_t sent = 0;
    while (sent < part.size()) {
      const ssize_t n =
          ::send(fd_, part.data() + sent, part.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n >= 0) {
        sent += static_cast<size_t>(n);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        *failure = "write to " + peer_ + " failed: " + std::strerror(errno);
        return Result::kFailed;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        *failure = "write to " + peer_ + " blocked: the send buffer stayed full until the deadline";
        return Result::kFailed;
      }
      pollfd poll_fd{fd_, POLLOUT, 0};
      ::poll(&poll_fd, 1, static_cast<int>(left.count()));
    }
  }
  return Result::kWritten;
}

void DirectWriter::RunExclusive(const std::function<void()>& action) {
  std::lock_guard lock(mutex_);
  action();
}

}  // namespace asg::protocol
