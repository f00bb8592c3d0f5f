// Threads running an io_context.
#include "protocol/io_threads.h"

#include <stdexcept>
#include <string>

namespace asg::protocol {

IoThreads::IoThreads(int thread_count) : work_(context_.get_executor()) {
  if (thread_count < 1) {
    throw std::invalid_argument("IoThreads: thread_count is " + std::to_string(thread_count) +
                                ", expected >= 1");
  }
  for (int i = 0; i < thread_count; ++i) {
    threads_.emplace_back([this] { context_.run(); });
  }
}

IoThreads::~IoThreads() { Stop(); }

void IoThreads::Stop() {
  if (threads_.empty()) return;
  if (context_.get_executor().running_in_this_thread()) {
    throw std::logic_error("IoThreads::Stop called from one of its own threads");
  }
  work_.reset();
  context_.stop();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
}

}  // namespace asg::protocol
