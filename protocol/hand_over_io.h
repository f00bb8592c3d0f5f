// An io_context run by one background thread that another thread can take over for a while.
//
// While a TakeOver lives, the background thread stays out of the context and the taking thread
// runs the context's handlers itself (RunUntil). A thread that waits for replies on the
// context's connections then receives them without a hand-off from another thread: the worker's
// simulation thread reads its vehicle nodes' Step replies this way during a lock-step run, which
// saves two thread wake-ups per tick. Between RunUntil calls nobody runs the context: frames wait
// in the socket buffers and timers fire late, so a take-over should cover a stretch in which the
// taking thread comes back to RunUntil often (every tick).
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace asg::protocol {

class HandOverIo {
 public:
  /// Starts the background thread running context().
  HandOverIo();
  /// Stop().
  ~HandOverIo();
  HandOverIo(const HandOverIo&) = delete;
  HandOverIo& operator=(const HandOverIo&) = delete;

  /// The io_context; thread-safe.
  boost::asio::io_context& context() { return context_; }

  /// Stops the context and joins the background thread; pending handlers are dropped. No
  /// TakeOver may be alive. Idempotent.
  void Stop();

  /// The context taken over by the calling thread until the object is destroyed (on the same
  /// thread). Only one at a time.
  class TakeOver {
   public:
    ~TakeOver();
    TakeOver(const TakeOver&) = delete;
    TakeOver& operator=(const TakeOver&) = delete;

    /// Runs the context's handlers on this thread until `done()` returns true (checked before
    /// each handler) or `deadline` passes; returns done().
    bool RunUntil(const std::function<bool()>& done,
                  std::chrono::steady_clock::time_point deadline);

   private:
    friend class HandOverIo;
    explicit TakeOver(HandOverIo* owner) : owner_(owner) {}
    HandOverIo* owner_;
  };

  /// Takes the context over: waits until the background thread has left it.
  std::unique_ptr<TakeOver> Take();

  /// How long RunUntil polls the context before it blocks in it (0 by default). Not thread-safe:
  /// set it before the first Take().
  void SetSpin(std::chrono::microseconds spin) { spin_ = spin; }

 private:
  void Loop();
  void GiveBack();

  boost::asio::io_context context_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool taken_ = false;     // a TakeOver lives
  bool in_run_ = false;    // the background thread is in (or about to enter) context_.run()
  bool stopping_ = false;  // Stop() was called
  std::chrono::microseconds spin_{0};
  std::thread thread_;
};

}  // namespace asg::protocol
