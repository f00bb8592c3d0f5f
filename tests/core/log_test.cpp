// Tests for core/log.h.
#include "core/log.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "tests/file_size_limit.h"
#include "tests/temp_dir.h"

namespace asg::core {
namespace {

TEST(FormatLogLineTest, UtcStampWithMicroseconds) {
  // 2024-05-01 13:04:05 UTC is 1714568645 s after the epoch.
  const auto time = std::chrono::system_clock::time_point(std::chrono::seconds(1714568645) +
                                                          std::chrono::microseconds(123456));
  EXPECT_EQ(FormatLogLine(time, LogLevel::kInfo, "scenario 3 done"),
            "[2024-05-01 13:04:05.123456] [INFO] scenario 3 done");
  EXPECT_EQ(FormatLogLine(time, LogLevel::kError, "x"), "[2024-05-01 13:04:05.123456] [ERROR] x");
}

TEST(LoggerTest, WritesLinesFromManyThreadsWithoutInterleaving) {
  testutil::TempDir dir;
  const auto file = dir.path() / "out/asg_log.txt";
  {
    Logger logger(file, false, LogLevel::kInfo);
    logger.Debug("dropped below the minimum level");
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&logger, t] {
        for (int i = 0; i < 50; ++i) {
          logger.Warning("thread " + std::to_string(t) + " line " + std::to_string(i));
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
  }
  std::ifstream in(file);
  const std::regex pattern(
      R"(\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\] \[WARNING\] thread \d line \d+)");
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    ASSERT_TRUE(std::regex_match(line, pattern)) << line;
  }
  EXPECT_EQ(lines, 200);
}

TEST(LoggerTest, ALineThatDoesNotFitIsCutOffWholeAndLaterLinesAreWritten) {
  testutil::TempDir dir;
  const auto file = dir.path() / "asg_log.txt";
  Logger logger(file, false);
  logger.Info("first");
  const auto size = std::filesystem::file_size(file);
  {
    // Room for a part of the next line only, as on a disk that fills.
    const testutil::FileSizeLimit limit(size + 20);
    logger.Error("a line longer than the room left for it");
  }
  EXPECT_EQ(std::filesystem::file_size(file), size);  // the part written is cut off again
  logger.Info("after");
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::regex whole("\\[[0-9: .-]+\\] \\[INFO\\] first\n\\[[0-9: .-]+\\] \\[INFO\\] after\n");
  EXPECT_TRUE(std::regex_match(text, whole)) << text;
}

TEST(LoggerTest, UnwritableFileThrowsNamingTheFile) {
  const std::string file = "/proc/asg_no_such_dir/asg_log.txt";
  try {
    Logger logger(file, false);
    FAIL() << "a log file under /proc was opened";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(file), std::string::npos) << error.what();
  }
}

TEST(LoggerTest, ALinkInPlaceOfTheFileIsRefusedAndNotAppendedTo) {
  testutil::TempDir dir;
  const std::filesystem::path target = dir.path() / "elsewhere.txt";
  std::ofstream(target) << "kept\n";
  const std::filesystem::path link = dir.path() / "asg_log.txt";
  std::filesystem::create_symlink(target, link);
  try {
    Logger logger(link, false);
    logger.Info("line");
    FAIL() << "a log file was opened through a link";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(link.string()), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("symbolic link"), std::string::npos) << error.what();
  }
  std::ifstream in(target);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "kept\n");
}

}  // namespace
}  // namespace asg::core
