// Tests for protocol/direct_writer.h, over a connected pair of local stream sockets.
#include "protocol/direct_writer.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace asg::protocol {
namespace {

using namespace std::chrono_literals;

// Two connected stream sockets, closed at the end of the test.
class SocketPair {
 public:
  SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0); }
  ~SocketPair() {
    CloseReader();
    ::close(fds_[0]);
  }
  int writer() const { return fds_[0]; }
  void CloseReader() {
    if (fds_[1] >= 0) ::close(fds_[1]);
    fds_[1] = -1;
  }
  // Reads exactly `bytes` bytes from the reading end.
  std::string Read(size_t bytes) {
    std::string text(bytes, '\0');
    size_t got = 0;
    while (got < bytes) {
      const ssize_t n = ::read(fds_[1], text.data() + got, bytes - got);
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    text.resize(got);
    return text;
  }

 private:
  int fds_[2] = {-1, -1};
};

std::chrono::steady_clock::time_point In(std::chrono::milliseconds wait) {
  return std::chrono::steady_clock::now() + wait;
}

TEST(DirectWriterTest, WritesThePartsInOrderAfterRunningBefore) {
  SocketPair sockets;
  DirectWriter writer(sockets.writer(), "peer");
  int before_calls = 0;
  std::string failure;
  EXPECT_EQ(writer.TryWrite(
                {"head|", "attachment"}, In(1s), [&] { ++before_calls; }, &failure),
            DirectWriter::Result::kWritten);
  EXPECT_EQ(before_calls, 1);
  EXPECT_EQ(failure, "");
  EXPECT_EQ(sockets.Read(15), "head|attachment");
}

TEST(DirectWriterTest, WaitsWhileTheStrandHasFramesToWrite) {
  SocketPair sockets;
  DirectWriter writer(sockets.writer(), "peer");
  int before_calls = 0;
  std::string failure;
  const auto count = [&] { ++before_calls; };
  // A frame on its way to the strand goes first.
  writer.NoteFrameForStrand();
  EXPECT_EQ(writer.TryWrite({"x"}, In(1s), count, &failure), DirectWriter::Result::kNotNow);
  // Queued there: still busy until the strand reports its path idle.
  writer.MarkStrandWriting(true, true);
  EXPECT_EQ(writer.TryWrite({"x"}, In(1s), count, &failure), DirectWriter::Result::kNotNow);
  writer.MarkStrandIdle();
  EXPECT_EQ(writer.TryWrite({"y"}, In(1s), count, &failure), DirectWriter::Result::kWritten);
  EXPECT_EQ(before_calls, 1);
  EXPECT_EQ(sockets.Read(1), "y");
}

TEST(DirectWriterTest, DisabledWriterWritesNothingAndRunsExclusiveActions) {
  SocketPair sockets;
  DirectWriter writer(sockets.writer(), "peer");
  writer.Disable();
  std::string failure;
  EXPECT_EQ(writer.TryWrite({"x"}, In(1s), nullptr, &failure), DirectWriter::Result::kNotNow);
  bool ran = false;
  writer.RunExclusive([&] { ran = true; });
  EXPECT_TRUE(ran);
}

TEST(DirectWriterTest, FullSendBufferFailsAtTheDeadline) {
  SocketPair sockets;
  DirectWriter writer(sockets.writer(), "peer 1.2.3.4:5");
  const std::string large(64 << 20, 'z');  // far more than a socket buffer; nobody reads
  std::string failure;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(writer.TryWrite({large}, In(200ms), nullptr, &failure), DirectWriter::Result::kFailed);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 190ms);  // poll() waits in whole ms
  EXPECT_NE(failure.find("write to peer 1.2.3.4:5 blocked"), std::string::npos) << failure;
}

TEST(DirectWriterTest, ClosedPeerFailsWithTheSystemError) {
  SocketPair sockets;
  sockets.CloseReader();
  DirectWriter writer(sockets.writer(), "peer");
  std::string failure;
  EXPECT_EQ(writer.TryWrite({"x"}, In(1s), nullptr, &failure), DirectWriter::Result::kFailed);
  EXPECT_NE(failure.find("write to peer failed: "), std::string::npos) << failure;
}

}  // namespace
}  // namespace asg::protocol
