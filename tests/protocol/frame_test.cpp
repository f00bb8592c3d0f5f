// Tests for protocol/frame.h.
#include "protocol/frame.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace asg::protocol {
namespace {

using namespace std::string_literals;

std::string Header(uint32_t json_bytes, uint32_t attachment_bytes) {
  std::string header = "ASG1";
  for (const uint32_t value : {json_bytes, attachment_bytes}) {
    for (int shift = 24; shift >= 0; shift -= 8) header += static_cast<char>(value >> shift);
  }
  return header;
}

std::string RawFrame(const std::string& json, const std::string& attachment = {}) {
  return Header(static_cast<uint32_t>(json.size()), static_cast<uint32_t>(attachment.size())) +
         json + attachment;
}

// Decodes bytes fed as one chunk; expects exactly one error and returns it.
FrameError DecodeError(const std::string& bytes, const FrameLimits& limits = {}) {
  FrameDecoder decoder(limits);
  decoder.Feed(bytes);
  Message message;
  FrameError error;
  EXPECT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
  return error;
}

TEST(FrameTest, EncodesExactBytes) {
  Message message{"Ping", 7, Json{{"a", 1}}, "\x01\x00\xFF"s};
  const std::string json = R"({"type":"Ping","reference":7,"message":{"a":1}})";
  const std::string expected = "ASG1"s + "\x00\x00\x00"s + static_cast<char>(json.size()) +
                               "\x00\x00\x00\x03"s + json + "\x01\x00\xFF"s;
  EXPECT_EQ(EncodeFrame(message), expected);
}

TEST(FrameTest, LengthsAreBigEndian) {
  Message message{"T", 1, Json{{"text", std::string(300, 'x')}}, std::string(258, 'a')};
  const std::string frame = EncodeFrame(message);
  const size_t json_bytes = frame.size() - kFrameHeaderBytes - 258;
  EXPECT_EQ(static_cast<unsigned char>(frame[6]), json_bytes >> 8);
  EXPECT_EQ(static_cast<unsigned char>(frame[7]), json_bytes & 0xFF);
  EXPECT_EQ(frame.substr(8, 4), "\x00\x00\x01\x02"s);
}

TEST(FrameTest, SplitAtEveryByteBoundaryDecodesTheSame) {
  const Message original{"RunScenario", 42, Json{{"name", "h\u00e9llo"}, {"n", {1, 2, 3}}},
                         "\x00\x01\x02payload"s};
  const std::string bytes = EncodeFrame(original) + EncodeFrame({"Next", 43, Json::object(), ""});
  for (size_t split = 0; split <= bytes.size(); ++split) {
    FrameDecoder decoder;
    std::vector<Message> frames;
    Message message;
    FrameError error;
    for (const std::string_view chunk :
         {std::string_view(bytes).substr(0, split), std::string_view(bytes).substr(split)}) {
      decoder.Feed(chunk);
      FrameDecoder::Status status;
      while ((status = decoder.Next(&message, &error)) == FrameDecoder::Status::kFrame) {
        frames.push_back(message);
      }
      ASSERT_EQ(status, FrameDecoder::Status::kNeedMore) << "split " << split;
    }
    ASSERT_EQ(frames.size(), 2u) << "split " << split;
    EXPECT_EQ(frames[0].type, original.type);
    EXPECT_EQ(frames[0].reference, original.reference);
    EXPECT_EQ(frames[0].message, original.message);
    EXPECT_EQ(frames[0].attachment, original.attachment);
    EXPECT_EQ(frames[1].type, "Next");
    EXPECT_EQ(decoder.buffered_bytes(), 0u);
  }
}

TEST(FrameTest, ByteByByteFeedDecodes) {
  const std::string bytes = EncodeFrame({"VehicleStatus", 5, Json{{"enabled", true}}, ""});
  FrameDecoder decoder;
  Message message;
  FrameError error;
  for (size_t i = 0; i + 1 < bytes.size(); ++i) {
    decoder.Feed(bytes.substr(i, 1));
    ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kNeedMore) << "byte " << i;
  }
  decoder.Feed(bytes.substr(bytes.size() - 1));
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kFrame);
  EXPECT_EQ(message.message, (Json{{"enabled", true}}));
}

TEST(FrameTest, PendingFrameBytesReportsTheHeaderTotal) {
  FrameDecoder decoder;
  decoder.Feed(Header(10, 5) + "abc");
  EXPECT_EQ(decoder.pending_frame_bytes(), 27u);
  EXPECT_EQ(decoder.buffered_bytes(), 15u);
}

TEST(FrameTest, BadMagicIsReportedBeforeAFullHeader) {
  const FrameError error = DecodeError("GET ");
  EXPECT_EQ(error.kind, FrameErrorKind::kBadMagic);
  EXPECT_TRUE(error.stream_lost);
  EXPECT_EQ(error.description, "frame header: magic is 0x47 0x45 0x54 0x20, expected \"ASG1\"");
  EXPECT_EQ(DecodeError("AS\x00"s).kind, FrameErrorKind::kBadMagic);
}

TEST(FrameTest, JsonLengthOverCapIsRefused) {
  const FrameError error = DecodeError(Header(2000, 0), FrameLimits{1000});
  EXPECT_EQ(error.kind, FrameErrorKind::kJsonTooLong);
  EXPECT_EQ(error.description,
            "frame header: JSON length 2000 bytes is over the cap of 1000 bytes");
  EXPECT_EQ(DecodeError(Header(0xFFFFFFFF, 0)).kind, FrameErrorKind::kJsonTooLong);
}

TEST(FrameTest, AttachmentOverCapIsRefused) {
  const FrameError error = DecodeError(Header(600, 500), FrameLimits{1000});
  EXPECT_EQ(error.kind, FrameErrorKind::kAttachmentTooLong);
  EXPECT_EQ(error.description,
            "frame header: attachment length 500 bytes with JSON length 600 bytes is over the "
            "cap of 1000 bytes");
  EXPECT_EQ(DecodeError(Header(10, 0xFFFFFFFF)).kind, FrameErrorKind::kAttachmentTooLong);
}

TEST(FrameTest, HeaderErrorsAreSticky) {
  FrameDecoder decoder;
  decoder.Feed("XXXX");
  Message message;
  FrameError error;
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
  decoder.Feed(EncodeFrame({"Ok", 1, Json::object(), ""}));
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
  EXPECT_EQ(error.kind, FrameErrorKind::kBadMagic);
}

TEST(FrameTest, InvalidUtf8IsRefusedWithItsOffset) {
  const std::string prefix = R"({"type":"A","reference":1,"message":{"s":")";
  for (const std::string& bad : {"\xC3"s, "\xC0\x80"s, "\xED\xA0\x80"s, "\xF4\x90\x80\x80"s,
                                 "\x80"s, "\xE2\x82"s, "\xFF"s}) {
    const FrameError error = DecodeError(RawFrame(prefix + bad + R"("}})"));
    EXPECT_EQ(error.kind, FrameErrorKind::kInvalidUtf8);
    EXPECT_FALSE(error.stream_lost);
    EXPECT_NE(error.description.find("invalid UTF-8 at byte " + std::to_string(prefix.size())),
              std::string::npos)
        << error.description;
  }
}

TEST(FrameTest, ValidUtf8OfEveryLengthIsAccepted) {
  FrameDecoder decoder;
  decoder.Feed(
      RawFrame("{\"type\":\"A\",\"reference\":1,\"message\":{\"s\":\"a\xC3\xA9\xE2\x82\xAC"
               "\xF0\x9F\x9A\x97\"}}"));
  Message message;
  FrameError error;
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kFrame) << error.description;
  EXPECT_EQ(message.message["s"], "a\u00e9\u20ac\U0001F697");
}

TEST(FrameTest, PayloadErrorsSkipTheFrameAndKeepTheStream) {
  FrameDecoder decoder;
  decoder.Feed(RawFrame("{not json") + EncodeFrame({"Ok", 9, Json::object(), ""}));
  Message message;
  FrameError error;
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
  EXPECT_EQ(error.kind, FrameErrorKind::kInvalidJson);
  EXPECT_FALSE(error.stream_lost);
  EXPECT_NE(error.description.find("frame JSON: [json.exception.parse_error"), std::string::npos)
      << error.description;
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kFrame);
  EXPECT_EQ(message.reference, 9);
}

TEST(FrameTest, ANumberBeyondADoubleIsAPayloadErrorNotACrash) {
  FrameDecoder decoder;
  decoder.Feed(RawFrame(R"({"type":"A","reference":4,"message":{"x":1e400}})") +
               EncodeFrame({"Ok", 9, Json::object(), ""}));
  Message message;
  FrameError error;
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
  EXPECT_EQ(error.kind, FrameErrorKind::kInvalidJson);
  EXPECT_FALSE(error.stream_lost);
  EXPECT_NE(error.description.find("1e400"), std::string::npos) << error.description;
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kFrame);
  EXPECT_EQ(message.reference, 9);
}

struct EnvelopeCase {
  std::string json;
  FrameErrorKind kind;
  std::string description;
  int64_t reference;
};

TEST(FrameTest, EnvelopeErrorsNameTheField) {
  const std::vector<EnvelopeCase> cases = {
      {"[1,2]", FrameErrorKind::kNotAnObject,
       "frame JSON: the envelope is of type array, expected an object", 0},
      {R"({"type":"A","message":{}})", FrameErrorKind::kBadEnvelope,
       "envelope: \"reference\" is missing", 0},
      {R"({"type":"A","reference":1.5,"message":{}})", FrameErrorKind::kBadEnvelope,
       "envelope: \"reference\" is 1.5, expected a 64-bit integer", 0},
      {R"({"type":"A","reference":"3","message":{}})", FrameErrorKind::kBadEnvelope,
       "envelope: \"reference\" is \"3\", expected a 64-bit integer", 0},
      {R"({"type":"A","reference":18446744073709551615,"message":{}})",
       FrameErrorKind::kBadEnvelope,
       "envelope: \"reference\" is 18446744073709551615, expected a 64-bit integer", 0},
      {R"({"reference":4,"message":{}})", FrameErrorKind::kBadEnvelope,
       "envelope: \"type\" is missing", 4},
      {R"({"type":12,"reference":4,"message":{}})", FrameErrorKind::kBadEnvelope,
       "envelope: \"type\" is 12, expected a non-empty string", 4},
      {R"({"type":"","reference":4,"message":{}})", FrameErrorKind::kBadEnvelope,
       "envelope: \"type\" is \"\", expected a non-empty string", 4},
      {R"({"type":"A","reference":5})", FrameErrorKind::kBadEnvelope,
       "envelope: \"message\" is missing", 5},
      {R"({"type":"A","reference":5,"message":[]})", FrameErrorKind::kBadEnvelope,
       "envelope: \"message\" is of type array, expected an object", 5},
      {R"({"type":"A","reference":6,"message":{},"extra":1})", FrameErrorKind::kBadEnvelope,
       "envelope: unknown key \"extra\"", 6},
  };
  for (const auto& test_case : cases) {
    const FrameError error = DecodeError(RawFrame(test_case.json));
    EXPECT_EQ(error.kind, test_case.kind) << test_case.json;
    EXPECT_EQ(error.description, test_case.description) << test_case.json;
    EXPECT_EQ(error.reference, test_case.reference) << test_case.json;
  }
}

TEST(FrameTest, EncodeRefusesFramesOverTheCap) {
  const Message message{"Big", 1, Json::object(), std::string(1000, 'x')};
  EXPECT_THROW(EncodeFrame(message, FrameLimits{500}), std::invalid_argument);
  EXPECT_THROW(EncodeFrameHead("A", 1, Json::array(), 0), std::invalid_argument);
}

TEST(FrameTest, NamingHelpersFollowTheConvention) {
  EXPECT_EQ(ResponseType("RunScenario"), "RunScenarioResponse");
  EXPECT_TRUE(IsReplyType("RunScenarioResponse"));
  EXPECT_TRUE(IsReplyType("Error"));
  EXPECT_FALSE(IsReplyType("Response"));
  EXPECT_FALSE(IsReplyType("RunScenario"));
  EXPECT_EQ(ErrorDescription(ErrorBody("bad value 3")), "bad value 3");
  EXPECT_EQ(ErrorBody("x"), (Json{{"success", false}, {"description", "x"}}));
}

TEST(FrameTest, RepeatedKeyInTheBodyIsRefusedWithItsPath) {
  const FrameError error =
      DecodeError(RawFrame(R"({"type":"Echo","reference":3,"message":{"goal_radius":5,)"
                           R"("seed":1,"goal_radius":7}})"));
  EXPECT_EQ(error.kind, FrameErrorKind::kRefusedJson);
  EXPECT_EQ(error.description, "frame JSON: message.goal_radius: duplicate key in one object");
  EXPECT_FALSE(error.stream_lost);
}

TEST(FrameTest, RepeatedEnvelopeKeyIsRefusedAndTheNextFrameStillDecodes) {
  FrameDecoder decoder;
  decoder.Feed(RawFrame(R"({"type":"Echo","reference":3,"type":"Other","message":{}})"));
  decoder.Feed(RawFrame(R"({"type":"Echo","reference":4,"message":{"a":{"b":1},"b":2}})"));
  Message message;
  FrameError error;
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kError);
  EXPECT_EQ(error.description, "frame JSON: type: duplicate key in one object");
  ASSERT_EQ(decoder.Next(&message, &error), FrameDecoder::Status::kFrame);
  EXPECT_EQ(message.reference, 4);
  EXPECT_EQ(message.message["b"], 2);
}

TEST(FrameTest, NestingDeeperThanTheCapIsRefused) {
  const std::string deep = std::string(70, '[') + std::string(70, ']');
  const FrameError error =
      DecodeError(RawFrame(R"({"type":"Echo","reference":3,"message":{"a":)" + deep + "}}"));
  EXPECT_EQ(error.kind, FrameErrorKind::kRefusedJson);
  EXPECT_NE(error.description.find("nested deeper than 64"), std::string::npos)
      << error.description;
}

// A description cut within a UTF-8 sequence still makes an Error reply that encodes (it used to
// throw, and the throw escaped the connection's io thread).
TEST(FrameTest, AnErrorReplyCarriesAnyDescription) {
  const Json body = ErrorBody("got string \"aa\xC3...\" and \xFF");
  EXPECT_EQ(ErrorDescription(body), "got string \"aa\xEF\xBF\xBD...\" and \xEF\xBF\xBD");
  EXPECT_NO_THROW(EncodeFrame({"Error", 1, body, {}}));
}

}  // namespace
}  // namespace asg::protocol
