// A pool of threads running one Boost.Asio io_context, for connections and servers.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <thread>
#include <vector>

namespace asg::protocol {

/// Owns an io_context and the threads that run it until Stop() or destruction. Handlers of
/// every connection on this context run on these threads. Stop() and the destructor must not be
/// called from one of these threads.
class IoThreads {
 public:
  /// Starts thread_count (>= 1) threads running context().
  explicit IoThreads(int thread_count = 1);
  ~IoThreads();
  IoThreads(const IoThreads&) = delete;
  IoThreads& operator=(const IoThreads&) = delete;

  /// The io_context the threads run; thread-safe.
  boost::asio::io_context& context() { return context_; }

  /// Stops the context and joins the threads; pending handlers are dropped. Idempotent.
  void Stop();

 private:
  boost::asio::io_context context_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

}  // namespace asg::protocol
