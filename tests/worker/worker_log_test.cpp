// Tests for worker/worker_log.h: one timestamped line per message on stderr.
#include "worker/worker_log.h"

#include <gtest/gtest.h>

#include <regex>
#include <thread>
#include <vector>

namespace asg::worker {
namespace {

TEST(WorkerLogTest, ALineHasTheTimeTheLevelAndTheMessage) {
  ::testing::internal::CaptureStderr();
  Log(core::LogLevel::kWarning, "scenario 3 slow");
  const std::string text = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(std::regex_match(
      text,
      std::regex(R"(\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\] \[WARNING\] scenario 3 slow\n)")))
      << text;
}

TEST(WorkerLogTest, LinesFromThreadsDoNotInterleave) {
  ::testing::internal::CaptureStderr();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 50; ++i) Log(core::LogLevel::kInfo, std::string(40, 'a' + t));
    });
  }
  for (std::thread& thread : threads) thread.join();
  const std::string text = ::testing::internal::GetCapturedStderr();
  const std::regex line(R"(\[[^\]]+\] \[INFO\] (a{40}|b{40}|c{40}|d{40}))");
  size_t lines = 0;
  for (size_t start = 0; start < text.size(); ++lines) {
    const size_t end = text.find('\n', start);
    ASSERT_NE(end, std::string::npos);
    EXPECT_TRUE(std::regex_match(text.substr(start, end - start), line))
        << text.substr(start, end - start);
    start = end + 1;
  }
  EXPECT_EQ(lines, 200u);
}

}  // namespace
}  // namespace asg::worker
