// The ASG Farm wire frame and its socket-free codec.
//
// A frame is, in order:
//   4 bytes   the ASCII magic "ASG1"
//   4 bytes   JSON length in bytes, unsigned big-endian
//   4 bytes   attachment length in bytes, unsigned big-endian
//   JSON      UTF-8 text of the envelope {"type": "<name>", "reference": <integer>, "message":
//   {..}} bytes     the binary attachment (usually empty; images and point clouds travel here)
//
// Naming convention of every message on the wire, for the whole project:
//   - a service request's type is the service name: "RunScenario", "AnalyzeScenario",
//     "NotifyReady", "RegisterVehicleNode", "WorkerIssueNotification";
//   - its reply's type is the service name + "Response" ("RunScenarioResponse") and carries the
//     reference of the request;
//   - a topic uses the message name: "StatusCode", "VehicleStatus", "VehicleNodeOperatingInfo";
//   - "Heartbeat" is reserved for the connection's liveness frames and never reaches a handler;
//   - "Error" is the reply to a request that failed or could not be understood:
//     {"type": "Error", "reference": r, "message": {"success": false, "description": "..."}},
//     with r the reference of the offending request, or 0 when it could not be read.
// References: each connection numbers the frames it originates 1, 2, 3, ...; 0 means "none"
// (heartbeats, errors about unreadable frames).
//
// A decoder may also accept monoDrive's control-channel framing, told apart by a stream's first
// byte: 4 bytes the magic 0x6d6f6e6f ("mono"), 4 bytes the length of the whole frame (header
// included), unsigned big-endian, then the JSON envelope; no attachment. A monoDrive reply's
// type is its request's type and its message may be any JSON value (a string, a boolean).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/messages_json.h"

namespace asg::protocol {

/// The magic that opens every frame.
inline constexpr std::string_view kFrameMagic = "ASG1";
/// Size of the fixed frame header: magic, JSON length, attachment length [bytes].
inline constexpr size_t kFrameHeaderBytes = 12;
/// Default cap on JSON + attachment of one frame [bytes] (64 MiB).
inline constexpr size_t kDefaultMaxFrameBytes = size_t{64} << 20;
/// The magic that opens every monoDrive frame, sent big-endian: the bytes "mono".
inline constexpr std::string_view kMonoDriveMagic = "mono";
/// Size of a monoDrive frame header: magic, length of the whole frame [bytes].
inline constexpr size_t kMonoDriveHeaderBytes = 8;
/// Type of the liveness frames exchanged by connections.
inline constexpr std::string_view kHeartbeatType = "Heartbeat";
/// Type of an error reply.
inline constexpr std::string_view kErrorType = "Error";
/// Suffix appended to a service name to form its reply type.
inline constexpr std::string_view kResponseSuffix = "Response";

/// One decoded frame. The attachment is raw bytes held in a std::string (may contain NULs); a
/// std::string moves without copying and hands its bytes to Asio buffers directly.
struct Message {
  std::string type;               ///< message name, see the naming convention above
  int64_t reference = 0;          ///< frame reference; a reply carries its request's reference
  Json message = Json::object();  ///< the message body, always a JSON object
  std::string attachment;         ///< binary attachment, empty when the frame has none
};

/// Size limits of a frame.
struct FrameLimits {
  size_t max_frame_bytes = kDefaultMaxFrameBytes;  ///< [bytes] cap on JSON + attachment length
};

/// The reply type of a service: ResponseType("RunScenario") == "RunScenarioResponse".
std::string ResponseType(std::string_view service);

/// True for "Error" and for any type ending in "Response".
bool IsReplyType(std::string_view type);

/// The body of an Error reply: {"success": false, "description": description}, where a byte of
/// the description that begins no well-formed UTF-8 sequence becomes U+FFFD.
Json ErrorBody(std::string_view description);

/// The description of an Error reply's body, or a text saying the body has none (quoting the
/// body, cut short).
std::string ErrorDescription(const Json& body);

/// Encodes the 12-byte header and the JSON of a frame whose attachment has attachment_bytes
/// bytes; the attachment itself is sent right after. Throws std::invalid_argument naming the
/// sizes when the frame exceeds limits, and nlohmann::json::type_error when a string in message
/// is not valid UTF-8.
std::string EncodeFrameHead(std::string_view type, int64_t reference, const Json& message,
                            size_t attachment_bytes, const FrameLimits& limits = {});

/// Encodes a whole frame (header, JSON, attachment). Throws as EncodeFrameHead.
std::string EncodeFrame(const Message& message, const FrameLimits& limits = {});

/// The framing of a byte stream.
enum class Framing : uint8_t {
  kUnknown,    ///< no byte has arrived yet on a stream that accepts both
  kAsg,        ///< the farm's "ASG1" frames
  kMonoDrive,  ///< monoDrive's "mono" frames
};

/// Encodes a whole monoDrive frame: magic, length of the whole frame, JSON envelope. `message`
/// may be any JSON value. Throws std::invalid_argument naming the sizes when the JSON exceeds
/// limits, and nlohmann::json::type_error when a string in message is not valid UTF-8.
std::string EncodeMonoDriveFrame(std::string_view type, int64_t reference, const Json& message,
                                 const FrameLimits& limits = {});

/// Why a stream of bytes did not decode into a frame.
enum class FrameErrorKind : uint8_t {
  kBadMagic,           ///< the first 4 bytes are not "ASG1" (nor "mono" where accepted)
  kJsonTooLong,        ///< the JSON length alone exceeds the cap
  kAttachmentTooLong,  ///< JSON + attachment length exceeds the cap
  kInvalidUtf8,        ///< the JSON bytes are not valid UTF-8
  kInvalidJson,        ///< the JSON bytes do not parse
  kNotAnObject,        ///< the JSON is not an object
  kBadEnvelope,        ///< "type", "reference" or "message" missing or ill-typed, or extra keys
  kRefusedJson,        ///< a key repeated within one object, or nesting deeper than kMaxJsonDepth
};

/// A decoding error: its kind, a description naming the item and the value, and the frame's
/// reference when the envelope got far enough to show one (0 otherwise).
struct FrameError {
  FrameErrorKind kind = FrameErrorKind::kBadMagic;
  std::string description;
  int64_t reference = 0;
  /// True for header errors (magic, lengths): the frame boundaries are lost and the decoder
  /// refuses every later frame. False for payload errors: the frame was skipped whole.
  bool stream_lost = false;
};

/// Incremental decoder: feed it byte chunks of any size as they arrive, then take frames out.
/// Not thread-safe; one decoder per byte stream.
class FrameDecoder {
 public:
  /// Result of Next().
  enum class Status : uint8_t { kFrame, kNeedMore, kError };

  /// With accept_monodrive, the stream's first byte decides its framing: 'm' monoDrive's, any
  /// other the farm's; without, every frame is the farm's.
  explicit FrameDecoder(const FrameLimits& limits = {}, bool accept_monodrive = false);

  /// Appends received bytes. Memory grows only with bytes actually fed, never with a length a
  /// header claims, and above 16 KiB is given back once every byte fed is decoded.
  void Feed(std::string_view bytes);

  /// Decodes the next frame into *message (kFrame), reports that more bytes are needed
  /// (kNeedMore) or fills *error (kError). After a stream_lost error every call repeats it.
  Status Next(Message* message, FrameError* error);

  /// Caps the JSON + attachment of frames whose header is read from now on at `bytes`, never
  /// above the limits' cap; a connection lowers it while its peer has not registered.
  void set_max_frame_bytes(size_t bytes) { max_frame_bytes_ = std::min(bytes, limits_cap_); }
  /// The cap on JSON + attachment of the next frame [bytes].
  size_t max_frame_bytes() const { return max_frame_bytes_; }

  /// Bytes fed but not yet decoded [bytes].
  size_t buffered_bytes() const { return buffer_.size() - read_offset_; }

  /// Total length of the frame being received once its header is complete, else 0 [bytes].
  size_t pending_frame_bytes() const;

  /// The stream's framing: kUnknown until the first byte of a stream that accepts both.
  Framing framing() const { return framing_; }

 private:
  Status Fail(FrameError* error, FrameErrorKind kind, std::string description, bool stream_lost,
              int64_t reference = 0);

  size_t limits_cap_;       // the limits' cap, at most what 32 bits can tell
  size_t max_frame_bytes_;  // the cap in force, at most limits_cap_
  std::string buffer_;      // received bytes; decoded ones precede read_offset_
  size_t read_offset_ = 0;  // first byte not yet decoded
  Framing framing_;         // decided by the first byte when both are accepted
  bool stream_lost_ = false;
  FrameError lost_error_;  // repeated once the stream is lost
};

}  // namespace asg::protocol
