// Tests for protocol/hand_over_io.h: the background thread runs the context until a thread
// takes it over; then the taking thread alone runs its handlers, until it gives it back.
#include "protocol/hand_over_io.h"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <chrono>
#include <thread>

namespace asg::protocol {
namespace {

using namespace std::chrono_literals;

// Posts a handler that records the thread it ran on; returns when it has run or after 2 s.
std::thread::id RunOnContext(HandOverIo& io) {
  std::atomic<bool> ran{false};
  std::thread::id where;
  boost::asio::post(io.context(), [&] {
    where = std::this_thread::get_id();
    ran = true;
  });
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  while (!ran && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(ran);
  return where;
}

TEST(HandOverIo, TheBackgroundThreadRunsTheContextUntilTakenOver) {
  HandOverIo io;
  const std::thread::id background = RunOnContext(io);
  EXPECT_NE(background, std::this_thread::get_id());

  auto taken = io.Take();
  std::atomic<int> runs{0};
  boost::asio::post(io.context(), [&] { ++runs; });
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(runs, 0) << "the background thread ran a handler while the context was taken over";
  std::thread::id where;
  boost::asio::post(io.context(), [&] { where = std::this_thread::get_id(); });
  EXPECT_TRUE(taken->RunUntil([&] { return runs == 1 && where != std::thread::id(); },
                              std::chrono::steady_clock::now() + 2s));
  EXPECT_EQ(where, std::this_thread::get_id());

  taken.reset();  // given back: the background thread runs handlers again
  EXPECT_EQ(RunOnContext(io), background);
}

TEST(HandOverIo, RunUntilStopsAtTheDeadline) {
  HandOverIo io;
  auto taken = io.Take();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(taken->RunUntil([] { return false; }, start + 50ms));
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, 50ms);
  EXPECT_LT(waited, 1s);
}

TEST(HandOverIo, TheSpinPollsBeforeBlockingAndStillSeesLateHandlers) {
  HandOverIo io;
  io.SetSpin(std::chrono::microseconds(200));
  auto taken = io.Take();
  std::atomic<bool> ran{false};
  std::thread poster([&] {
    std::this_thread::sleep_for(20ms);  // past the spin: the taking thread blocks by then
    boost::asio::post(io.context(), [&] { ran = true; });
  });
  EXPECT_TRUE(taken->RunUntil([&] { return ran.load(); }, std::chrono::steady_clock::now() + 2s));
  poster.join();
}

TEST(HandOverIo, OnlyOneTakeOverAtATimeAndNoneAfterStop) {
  HandOverIo io;
  {
    auto taken = io.Take();
    EXPECT_THROW(io.Take(), std::logic_error);
  }
  io.Stop();
  EXPECT_THROW(io.Take(), std::logic_error);
  io.Stop();  // idempotent
}

}  // namespace
}  // namespace asg::protocol
