// The second write path of a Connection: a frame written with ::send from the calling thread,
// which spares the hand-off to an io thread (a thread switch per request) when the connection's
// own write path, on its strand, is idle. Requests in lock-step with a vehicle node take it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>

namespace asg::protocol {

/// Writes whole frames to a connected socket from the calling thread, in turn with the
/// connection's strand: a write happens only while the strand has nothing queued or in flight
/// and no frame is on its way to it, so frames never interleave and never overtake earlier
/// ones. The socket stays the caller's; it is used only until Disable(). Thread-safe.
class DirectWriter {
 public:
  /// Outcome of TryWrite.
  enum class Result {
    kNotNow,   ///< nothing done: disabled, or the strand's path is busy
    kWritten,  ///< every byte was handed to the kernel
    kFailed,   ///< the write failed or blocked past the deadline; see the failure text
  };

  /// Writes to the socket with descriptor `fd`, whose owner keeps it open until Disable().
  /// `peer` names the other end in failure texts.
  DirectWriter(int fd, std::string peer);

  /// Counts a frame about to be handed to the strand; any thread, before the hand-off.
  void NoteFrameForStrand();
  /// On the strand: uncounts a frame noted by NoteFrameForStrand (`noted`), and marks the
  /// strand's path busy when a frame is being queued (`queued`).
  void MarkStrandWriting(bool noted, bool queued);
  /// On the strand: nothing is queued or being written there any more.
  void MarkStrandIdle();

  /// Writes `parts` in order as one frame when enabled and the strand's path is idle, first
  /// running `before` under the lock (to register what the frame's reply completes). Waits for
  /// a full send buffer until `deadline` at most; on kFailed, `*failure` says why and the bytes
  /// may have been cut short (the connection must end).
  Result TryWrite(std::initializer_list<std::string_view> parts,
                  std::chrono::steady_clock::time_point deadline,
                  const std::function<void()>& before, std::string* failure);

  /// Stops direct writes for good; does not wait for one in progress (RunExclusive does).
  /// Idempotent.
  void Disable() { enabled_.store(false); }
  /// Runs `action` (shutting down or closing the socket) with no direct write in progress.
  void RunExclusive(const std::function<void()>& action);

 private:
  const int fd_;
  const std::string peer_;
  std::mutex mutex_;                 // held for a whole direct write, and by everything below
  std::atomic<bool> enabled_{true};  // read under mutex_ by TryWrite
  size_t frames_for_strand_ = 0;     // frames handed to the strand, not yet queued or dropped
  bool strand_writing_ = false;      // the strand has frames queued or a write in flight
};

}  // namespace asg::protocol
