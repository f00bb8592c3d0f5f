// Tests for protocol/frame.h.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/frame.h"

namespace asg::protocol {
namespace {

using namespace std::string_literals;

/// A monoDrive frame built by hand: "mono", the big-endian length of the whole frame, the JSON.
std::string MonoDriveBytes(const std::string& json, uint32_t length_delta = 0) {
  const auto total = static_cast<uint32_t>(json.size() + 8) + length_delta;
  std::string bytes = "\x6d\x6f\x6e\x6f"s;
  for (int shift = 24; shift >= 0; shift -= 8) bytes += static_cast<char>(total >> shift);
  return bytes + json;
}

/// Feeds `bytes` one byte at a time to a decoder that accepts both framings; the frames.
std::vector<Message> DecodeByteByByte(const std::string& bytes, FrameDecoder* decoder) {
  std::vector<Message> frames;
  for (const char byte : bytes) {
    decoder->Feed(std::string(1, byte));
    Message message;
    FrameError error;
    while (decoder->Next(&message, &error) == FrameDecoder::Status::kFrame) {
      frames.push_back(message);
    }
  }
  return frames;
}

TEST(FrameMonoDriveTest, EncodesTheMagicAndTheLengthOfTheWholeFrame) {
  const std::string json = R"({"type":"GetVersion","reference":7,"message":"v 1"})";
  EXPECT_EQ(EncodeMonoDriveFrame("GetVersion", 7, "v 1"), MonoDriveBytes(json));
  const std::string frame = EncodeMonoDriveFrame("ClosedLoopStepCommand_ID", 1, true);
  EXPECT_EQ(frame.substr(0, 4), "mono");
  EXPECT_EQ(static_cast<unsigned char>(frame[7]), frame.size());
}

TEST(FrameMonoDriveTest, TheFirstByteDecidesTheFramingOfTheStream) {
  const std::string json = R"({"type":"GetVersion","reference":9223372036854775807,"message":{}})";
  FrameDecoder decoder({}, true);
  EXPECT_EQ(decoder.framing(), Framing::kUnknown);
  const std::vector<Message> frames =
      DecodeByteByByte(MonoDriveBytes(json) + MonoDriveBytes(json), &decoder);
  EXPECT_EQ(decoder.framing(), Framing::kMonoDrive);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1].type, "GetVersion");
  EXPECT_EQ(frames[1].reference, 9223372036854775807);

  FrameDecoder farm_decoder({}, true);
  const std::vector<Message> farm_frames =
      DecodeByteByByte(EncodeFrame({"Ping", 3, Json{{"a", 1}}, "xy"}), &farm_decoder);
  EXPECT_EQ(farm_decoder.framing(), Framing::kAsg);
  ASSERT_EQ(farm_frames.size(), 1u);
  EXPECT_EQ(farm_frames[0].attachment, "xy");
}

TEST(FrameMonoDriveTest, PendingFrameBytesIsTheLengthTheHeaderGives) {
  FrameDecoder decoder({}, true);
  decoder.Feed(MonoDriveBytes(std::string(20, ' ')).substr(0, 10));
  Message message;
  FrameError error;
  EXPECT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kNeedMore);
  EXPECT_EQ(decoder.pending_frame_bytes(), 28u);
}

TEST(FrameMonoDriveTest, BadHeadersAreRefusedAndTheStreamIsLost) {
  const auto error_of = [](const std::string& bytes, size_t cap) {
    FrameDecoder decoder({}, true);
    decoder.set_max_frame_bytes(cap);
    decoder.Feed(bytes);
    Message message;
    FrameError error;
    EXPECT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
    return error;
  };
  FrameError error = error_of(MonoDriveBytes("{}", static_cast<uint32_t>(-3)), 100);
  EXPECT_TRUE(error.stream_lost);
  EXPECT_EQ(error.description,
            "frame header: monoDrive length 7 bytes is less than its 8-byte header");
  error = error_of(MonoDriveBytes(std::string(101, ' ')), 100);
  EXPECT_EQ(error.kind, FrameErrorKind::kJsonTooLong);
  EXPECT_EQ(error.description, "frame header: JSON length 101 bytes is over the cap of 100 bytes");
  error = error_of("GET / HTTP/1.1"s, 100);
  EXPECT_EQ(
      error.description,
      "frame header: magic is 0x47 0x45 0x54 0x20, expected \"ASG1\" or monoDrive's \"mono\"");
  error = error_of("moxx"s, 100);
  EXPECT_EQ(error.kind, FrameErrorKind::kBadMagic);
}

TEST(FrameMonoDriveTest, WithoutMonoDriveAMonoDriveFrameIsABadMagic) {
  FrameDecoder decoder;
  EXPECT_EQ(decoder.framing(), Framing::kAsg);
  decoder.Feed(MonoDriveBytes("{}"));
  Message message;
  FrameError error;
  EXPECT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
  EXPECT_EQ(error.description, "frame header: magic is 0x6D 0x6F 0x6E 0x6F, expected \"ASG1\"");
}

TEST(FrameMonoDriveTest, TheEnvelopeIsCheckedAsTheFarmsIs) {
  FrameDecoder decoder({}, true);
  decoder.Feed(MonoDriveBytes(R"({"type":"GetVersion","message":{}})"));
  Message message;
  FrameError error;
  EXPECT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
  EXPECT_FALSE(error.stream_lost);
  EXPECT_EQ(error.description, "envelope: \"reference\" is missing");
}

}  // namespace
}  // namespace asg::protocol
