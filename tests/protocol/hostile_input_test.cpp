// Tests for the hostile-input behaviour of protocol/connection.h and protocol/server.h: bad
// bytes from a raw socket get an Error reply where possible and close only that connection.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <thread>

#include "protocol/connection.h"
#include "tests/protocol/loopback_fixture.h"

namespace asg::protocol {
namespace {

using namespace std::chrono_literals;
using namespace std::string_literals;
using testing::RawClient;
using testing::TestServer;

constexpr size_t kCap = size_t{1} << 20;  // frame cap of the test server [bytes]

ConnectionSettings CappedSettings() {
  ConnectionSettings settings;
  settings.limits.max_frame_bytes = kCap;
  return settings;
}

using testing::RawFrame;

// The frames sent on one raw connection of the garbage test.
struct GarbageBatch {
  std::string bytes;
  std::set<int64_t> echo_references;  // well-formed Echo requests
  size_t unknown_types = 0;           // well-formed requests of unknown type
  int64_t last_reference = 0;         // reference of the possibly stream-breaking frame
};

// What the garbage test's connections got back.
struct GarbageTally {
  size_t connections = 0;    // raw connections made
  size_t error_replies = 0;  // Error replies on them
};

// Seeded garbage frames of five kinds.
class GarbageMaker {
 public:
  explicit GarbageMaker(uint32_t seed) : rng_(seed) {}

  // Appends one frame of a random kind to `batch` and returns the kind: 0 random bytes, 1 valid
  // magic with random lengths and payload, 2 a valid frame with one JSON byte replaced (kinds 0..2
  // may break the stream), 3 a valid frame of an unknown type, 4 a valid Echo request.
  uint32_t AppendFrame(int frame, int64_t reference, GarbageBatch* batch) {
    const uint32_t kind = Uniform(0, 4);
    switch (kind) {
      case 0:  // random bytes
        batch->bytes += RandomBytes(Uniform(1, 64));
        break;
      case 1: {  // valid magic, random lengths, random payload
        const bool small = Uniform(0, 1) == 0;
        batch->bytes += testing::FrameHeader(small ? Uniform(0, 200) : Uniform(0, 0xFFFFFFFF),
                                             small ? Uniform(0, 50) : Uniform(0, 0xFFFFFFFF));
        batch->bytes += RandomBytes(Uniform(0, 100));
        break;
      }
      case 2: {  // valid frame, one JSON byte replaced
        std::string json =
            testing::RequestBytes("Echo", reference, Json{{"k", frame}}).substr(kFrameHeaderBytes);
        json[Uniform(0, static_cast<uint32_t>(json.size() - 1))] =
            static_cast<char>(Uniform(0, 255));
        batch->bytes += RawFrame(json);
        break;
      }
      case 3:  // valid frame of an unknown type
        batch->bytes +=
            testing::RequestBytes("Garbage" + std::to_string(frame), reference, Json::object());
        ++batch->unknown_types;
        break;
      default:  // valid request
        batch->bytes += testing::RequestBytes("Echo", reference, Json{{"k", frame}});
        batch->echo_references.insert(reference);
        break;
    }
    return kind;
  }

 private:
  uint32_t Uniform(uint32_t low, uint32_t high) {
    return std::uniform_int_distribution<uint32_t>(low, high)(rng_);
  }
  std::string RandomBytes(size_t count) {
    std::string bytes(count, '\0');
    for (char& byte : bytes) byte = static_cast<char>(Uniform(0, 255));
    return bytes;
  }

  std::mt19937 rng_;
};

// A client connected before the hostile one, and still served after it.
class HostileInputTest : public ::testing::Test {
 protected:
  HostileInputTest() : server_(CappedSettings()), bystander_(server_.ConnectClient()) {}

  // Writes bytes from a raw socket, expects one Error reply whose description contains
  // description_part and carries reference, then the end of the stream; the server must name
  // the same problem as the close reason and keep serving the bystander.
  void ExpectErrorThenClose(const std::string& bytes, const std::string& description_part,
                            int64_t reference = 0) {
    {
      RawClient raw(server_.port());
      raw.Write(bytes);
      const testing::RawReadResult result = raw.ReadUntilClosed();
      EXPECT_TRUE(result.closed);
      EXPECT_EQ(result.decode_error, "");
      ASSERT_EQ(result.frames.size(), 1u);
      const Message& reply = result.frames[0];
      EXPECT_EQ(reply.type, kErrorType);
      EXPECT_EQ(reply.reference, reference);
      EXPECT_EQ(reply.message["success"], false);
      EXPECT_NE(ErrorDescription(reply.message).find(description_part), std::string::npos)
          << ErrorDescription(reply.message);
    }
    const auto reasons = server_.WaitForCloses(1);
    ASSERT_EQ(reasons.size(), 1u);
    EXPECT_NE(reasons[0].find("bad frame from"), std::string::npos) << reasons[0];
    EXPECT_NE(reasons[0].find(description_part), std::string::npos) << reasons[0];
    ExpectStillServing();
  }

  void ExpectStillServing() {
    EXPECT_EQ(bystander_->Request("Echo", Json{{"still", "here"}}).message["still"], "here");
    auto late = server_.ConnectClient();
    EXPECT_EQ(late->Request("Echo", Json{{"late", 1}}).message["late"], 1);
    late->Close("test done");
  }

  // Sends `batch` on a raw connection that then stops sending, and expects an answer to every
  // well-formed Echo before the last frame, an Error at least for every unknown type, only
  // well-formed frames and a close.
  void SendGarbageBatch(const GarbageBatch& batch, GarbageTally* tally) {
    const size_t connection = ++tally->connections;
    RawClient raw(server_.port());
    raw.Write(batch.bytes);
    raw.ShutdownSend();
    const testing::RawReadResult result = raw.ReadUntilClosed();
    ASSERT_TRUE(result.closed) << "connection " << connection;
    ASSERT_EQ(result.decode_error, "") << "connection " << connection;
    std::set<int64_t> answered;
    size_t errors = 0;
    for (const Message& reply : result.frames) {
      if (reply.type == kErrorType) {
        ++errors;
        EXPECT_FALSE(ErrorDescription(reply.message).empty());
      } else {
        ASSERT_EQ(reply.type, "EchoResponse");
        answered.insert(reply.reference);
      }
    }
    answered.erase(batch.last_reference);  // a corrupted frame may still be a valid request
    EXPECT_EQ(answered, batch.echo_references) << "connection " << connection;
    EXPECT_GE(errors, batch.unknown_types) << "connection " << connection;
    tally->error_replies += errors;
  }

  TestServer server_;
  std::shared_ptr<Connection> bystander_;
};

TEST_F(HostileInputTest, WrongMagic) {
  ExpectErrorThenClose("GET / HTTP/1.1\r\nHost: farm\r\n\r\n",
                       "magic is 0x47 0x45 0x54 0x20, expected \"ASG1\"");
}

TEST_F(HostileInputTest, JsonLengthOverTheCap) {
  ExpectErrorThenClose(testing::FrameHeader(2 << 20, 0) + "{}",
                       "JSON length 2097152 bytes is over the cap of 1048576 bytes");
}

TEST_F(HostileInputTest, AttachmentLengthOverTheCap) {
  ExpectErrorThenClose(testing::FrameHeader(100, 0xFFFFFF00) + "{}",
                       "attachment length 4294967040 bytes with JSON length 100 bytes is over "
                       "the cap of 1048576 bytes");
}

TEST_F(HostileInputTest, InvalidJson) {
  ExpectErrorThenClose(RawFrame(R"({"type": oops, "reference": 3})"),
                       "frame JSON: [json.exception.parse_error.101]");
}

TEST_F(HostileInputTest, RepeatedKey) {
  ExpectErrorThenClose(
      RawFrame(R"({"type":"Echo","reference":3,"message":{"goal_radius":5,"goal_radius":7}})"),
      "frame JSON: message.goal_radius: duplicate key in one object");
}

TEST_F(HostileInputTest, InvalidUtf8) {
  ExpectErrorThenClose(
      RawFrame("{\"type\":\"Echo\",\"reference\":3,\"message\":{\"s\":\"\xC0\xAF\"}}"),
      "invalid UTF-8 at byte 45 (0xC0)");
}

TEST_F(HostileInputTest, JsonThatIsNotAnObject) {
  ExpectErrorThenClose(RawFrame("\"just a string\""), "the envelope is of type string");
}

TEST_F(HostileInputTest, BadEnvelopeRepliesWithTheReferenceItCarries) {
  ExpectErrorThenClose(RawFrame(R"({"reference":77,"message":{}})"), "\"type\" is missing", 77);
}

TEST_F(HostileInputTest, UnknownTypeGetsAnErrorAndTheConnectionStaysUp) {
  RawClient raw(server_.port());
  raw.Write(testing::RequestBytes("FormatDisk", 5, Json::object()));
  const Message error = raw.ReadReply();
  EXPECT_EQ(error.type, kErrorType);
  EXPECT_EQ(error.reference, 5);
  EXPECT_EQ(ErrorDescription(error.message), "unknown message type \"FormatDisk\"");
  raw.Write(testing::RequestBytes("Echo", 6, Json{{"same", "socket"}}));
  const Message reply = raw.ReadReply();
  EXPECT_EQ(reply.type, "EchoResponse");
  EXPECT_EQ(reply.reference, 6);
  EXPECT_EQ(server_.WaitForCloses(0).size(), 0u);
}

TEST_F(HostileInputTest, ThrowingHandlerGetsAnErrorAndTheConnectionStaysUp) {
  RawClient raw(server_.port());
  raw.Write(testing::RequestBytes("Throw", 8, Json::object()));
  const Message error = raw.ReadReply();
  EXPECT_EQ(error.type, kErrorType);
  EXPECT_EQ(error.reference, 8);
  EXPECT_EQ(ErrorDescription(error.message), "thrown by handler: value 7");
  raw.Write(testing::RequestBytes("Echo", 9, Json::object()));
  EXPECT_EQ(raw.ReadReply().reference, 9);
}

TEST_F(HostileInputTest, PeerClosingMidFrame) {
  {
    RawClient raw(server_.port());
    raw.Write(testing::FrameHeader(100, 0) + R"({"type":)");
    raw.ShutdownSend();
    const testing::RawReadResult result = raw.ReadUntilClosed();
    EXPECT_TRUE(result.closed);
    EXPECT_TRUE(result.frames.empty());
  }
  const auto reasons = server_.WaitForCloses(1);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("closed mid-frame after 20 of 112 bytes"), std::string::npos)
      << reasons[0];
  ExpectStillServing();
}

TEST_F(HostileInputTest, PeerClosingMidHeader) {
  {
    RawClient raw(server_.port());
    raw.Write("ASG1\x00\x00"s);
  }
  const auto reasons = server_.WaitForCloses(1);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("closed mid-frame after 6 of at least 12 bytes"), std::string::npos)
      << reasons[0];
  ExpectStillServing();
}

// 3000 frames of every kind of garbage. Each connection carries frames up to the first one that
// may break the stream, so every frame is read by the server. The server must answer every
// well-formed request sent before the break, send only well-formed frames, close every such
// connection, and keep serving.
TEST_F(HostileInputTest, RandomizedGarbageNeverStopsTheServer) {
  constexpr int kFrames = 3000;
  GarbageMaker maker(20240611);
  GarbageTally tally;
  GarbageBatch batch;
  for (int frame = 0; frame < kFrames; ++frame) {
    const int64_t reference = frame + 1;
    const uint32_t kind = maker.AppendFrame(frame, reference, &batch);
    if (kind <= 2 || frame == kFrames - 1) {
      batch.last_reference = reference;
      SendGarbageBatch(batch, &tally);
      if (::testing::Test::HasFatalFailure()) return;
      batch = GarbageBatch{};
    }
  }
  EXPECT_GE(tally.error_replies, tally.connections / 2);
  EXPECT_EQ(server_.WaitForCloses(tally.connections).size(), tally.connections);
  ExpectStillServing();
}

// A peer that trickles one byte at a time is never silent, yet each frame must arrive whole
// within frame_timeout of its first byte: the bytes arriving do not extend the deadline.
TEST(HostileDeadlineTest, TricklingPeerIsCutAtTheFrameDeadline) {
  ConnectionSettings settings;
  settings.heartbeat_interval = 50ms;
  settings.frame_timeout = 300ms;
  TestServer server(settings);
  {
    RawClient raw(server.port());
    raw.Write(testing::RequestBytes("Heartbeat", 0, Json::object()));
    const std::string frame =
        testing::RequestBytes("Echo", 5, Json{{"padding", std::string(200, 'x')}});
    const auto start = std::chrono::steady_clock::now();
    // One byte every 10 ms would take over 2 s; the trickle stops after 800 ms.
    for (size_t i = 0; i < frame.size() && std::chrono::steady_clock::now() - start < 800ms; ++i) {
      raw.Write(frame.substr(i, 1));
      std::this_thread::sleep_for(10ms);
    }
    const testing::RawReadResult result = raw.ReadUntilClosed();
    EXPECT_TRUE(result.closed);
    ASSERT_EQ(result.frames.size(), 1u);
    EXPECT_EQ(result.frames[0].type, kErrorType);
    EXPECT_NE(
        ErrorDescription(result.frames[0].message).find("not whole within frame_timeout 300 ms"),
        std::string::npos)
        << ErrorDescription(result.frames[0].message);
  }
  const auto reasons = server.WaitForCloses(1);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("not whole within frame_timeout 300 ms"), std::string::npos)
      << reasons[0];
}

// The deadline is per frame: two frames each sent in pieces within it are served, although
// together they take longer than the deadline.
TEST(HostileDeadlineTest, FramesSentInPiecesWithinTheDeadlineAreServed) {
  ConnectionSettings settings;
  settings.heartbeat_interval = 50ms;
  settings.frame_timeout = 400ms;
  TestServer server(settings);
  RawClient raw(server.port());
  for (const int64_t reference : {1, 2}) {
    const std::string frame = testing::RequestBytes("Echo", reference, Json{{"n", reference}});
    const size_t third = frame.size() / 3;
    raw.Write(frame.substr(0, third));
    std::this_thread::sleep_for(100ms);
    raw.Write(frame.substr(third, third));
    std::this_thread::sleep_for(100ms);
    raw.Write(frame.substr(2 * third));
    const Message reply = raw.ReadReply();
    EXPECT_EQ(reply.type, "EchoResponse");
    EXPECT_EQ(reply.reference, reference);
  }
}

ConnectionSettings RegistrationSettings() {
  ConnectionSettings settings;
  settings.heartbeat_interval = 50ms;
  settings.registration_timeout = 300ms;
  return settings;
}

// Sends a Heartbeat every 50 ms for 600 ms, twice the registration deadline.
void SendHeartbeatsFor600Ms(RawClient& raw) {
  for (int i = 0; i < 12; ++i) {
    raw.Write(testing::RequestBytes("Heartbeat", 0, Json::object()));
    std::this_thread::sleep_for(50ms);
  }
}

TEST(HostileDeadlineTest, PeerThatOnlySendsHeartbeatsIsCutAtTheRegistrationDeadline) {
  TestServer server(RegistrationSettings());
  {
    RawClient raw(server.port());
    SendHeartbeatsFor600Ms(raw);
    const testing::RawReadResult result = raw.ReadUntilClosed();
    EXPECT_TRUE(result.closed);
    ASSERT_EQ(result.frames.size(), 1u);
    EXPECT_EQ(result.frames[0].type, kErrorType);
    EXPECT_NE(ErrorDescription(result.frames[0].message)
                  .find("did not register within registration_timeout 300 ms"),
              std::string::npos)
        << ErrorDescription(result.frames[0].message);
  }
  const auto reasons = server.WaitForCloses(1);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_NE(reasons[0].find("did not register within registration_timeout 300 ms"),
            std::string::npos)
      << reasons[0];
}

TEST(HostileDeadlineTest, RegisteredPeerStaysPastTheRegistrationDeadline) {
  TestServer server(RegistrationSettings());
  RawClient raw(server.port());
  raw.Write(testing::RequestBytes("Register", 1, Json::object()));
  EXPECT_EQ(raw.ReadReply().type, "RegisterResponse");
  SendHeartbeatsFor600Ms(raw);
  raw.Write(testing::RequestBytes("Echo", 2, Json{{"still", "here"}}));
  const Message reply = raw.ReadReply();
  EXPECT_EQ(reply.type, "EchoResponse");
  EXPECT_EQ(reply.reference, 2);
}

// A peer that must register and has not may send only small frames: a larger one is refused
// from its header, before any of its bytes are buffered or parsed; once registered, the same
// frame is served.
TEST(UnregisteredPeerTest, FrameOverTheCapBeforeRegistrationIsRefusedFromItsHeader) {
  ConnectionSettings settings;
  settings.registration_timeout = 10s;
  TestServer server(settings);
  const std::string large =
      testing::RequestBytes("Echo", 2, Json{{"pad", std::string(100'000, 'x')}});
  {
    RawClient raw(server.port());
    raw.Write(large.substr(0, 64));  // the header announces about 100 kB, over the 64 KiB cap
    const testing::RawReadResult result = raw.ReadUntilClosed();
    EXPECT_TRUE(result.closed);
    ASSERT_EQ(result.frames.size(), 1u);
    EXPECT_NE(ErrorDescription(result.frames[0].message)
                  .find("over the cap of 65536 bytes for a peer not yet registered"),
              std::string::npos)
        << ErrorDescription(result.frames[0].message);
  }
  RawClient registered(server.port());
  registered.Write(testing::RequestBytes("Register", 1, Json::object()));
  EXPECT_EQ(registered.ReadReply().type, "RegisterResponse");
  registered.Write(large);
  const Message reply = registered.ReadReply();
  EXPECT_EQ(reply.type, "EchoResponse");
  EXPECT_EQ(reply.message["pad"].get_ref<const std::string&>().size(), 100'000u);
}

// The partial frames of all the peers not yet registered share one cap: a peer whose partial
// frame passes it is cut, and the bytes it held are given back to the others.
TEST(UnregisteredPeerTest, PartialFramesOfUnregisteredPeersShareOneCap) {
  ConnectionSettings settings;
  settings.registration_timeout = 10s;
  settings.max_unregistered_bytes = 16 * 1024;
  TestServer server(settings);
  const std::string frame =
      testing::RequestBytes("Echo", 3, Json{{"pad", std::string(60'000, 'y')}});
  {
    RawClient raw(server.port());
    raw.Write(frame.substr(0, 30'000));  // holds 26 KiB beyond the uncounted first 4 KiB
    const testing::RawReadResult result = raw.ReadUntilClosed();
    EXPECT_TRUE(result.closed);
    ASSERT_EQ(result.frames.size(), 1u);
    EXPECT_NE(ErrorDescription(result.frames[0].message)
                  .find("partial frames of peers not yet registered over their shared cap of "
                        "16384 bytes"),
              std::string::npos)
        << ErrorDescription(result.frames[0].message);
  }
  ASSERT_EQ(server.WaitForCloses(1).size(), 1u);
  // What the cut peer held is given back: another one's 12 kB partial frame fits, and completes.
  RawClient small(server.port());
  const std::string small_frame =
      testing::RequestBytes("Echo", 4, Json{{"pad", std::string(12'000, 'z')}});
  small.Write(small_frame.substr(0, 11'000));
  small.Write(small_frame.substr(11'000));
  EXPECT_EQ(small.ReadReply().type, "EchoResponse");
  // A registered peer's frames do not count.
  RawClient registered(server.port());
  registered.Write(testing::RequestBytes("Register", 1, Json::object()));
  EXPECT_EQ(registered.ReadReply().type, "RegisterResponse");
  registered.Write(frame.substr(0, 30'000));
  registered.Write(frame.substr(30'000));
  EXPECT_EQ(registered.ReadReply().type, "EchoResponse");
}

}  // namespace
}  // namespace asg::protocol
