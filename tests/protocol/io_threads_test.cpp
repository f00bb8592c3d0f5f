// Tests for protocol/io_threads.h.
#include "protocol/io_threads.h"

#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

namespace asg::protocol {
namespace {

TEST(IoThreadsTest, RunsPostedHandlersOnItsOwnThreads) {
  IoThreads io(2);
  std::mutex mutex;
  std::condition_variable done;
  std::set<std::thread::id> threads;
  int handled = 0;
  constexpr int kHandlers = 200;
  for (int i = 0; i < kHandlers; ++i) {
    boost::asio::post(io.context(), [&] {
      std::lock_guard lock(mutex);
      threads.insert(std::this_thread::get_id());
      if (++handled == kHandlers) done.notify_all();
    });
  }
  std::unique_lock lock(mutex);
  ASSERT_TRUE(done.wait_for(lock, std::chrono::seconds(30), [&] { return handled == kHandlers; }));
  EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
  EXPECT_LE(threads.size(), 2u);
}

TEST(IoThreadsTest, KeepsRunningWithoutWorkUntilStoppedAndStopIsIdempotent) {
  IoThreads io(1);
  EXPECT_FALSE(io.context().stopped());
  io.Stop();
  EXPECT_TRUE(io.context().stopped());
  io.Stop();
}

}  // namespace
}  // namespace asg::protocol
