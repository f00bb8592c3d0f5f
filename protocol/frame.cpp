// Frame encoding and the incremental, validating decoder.
#include "protocol/frame.h"

#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "json/parse.h"
#include "json/short_text.h"
#include "json/wording.h"

namespace asg::protocol {
namespace {

/// [bytes] storage a decoder keeps between frames; more, needed by a large frame, is given back
/// once the frame is decoded, so an idle connection holds little.
constexpr size_t kRetainedBufferBytes = 16 * 1024;

/// [bytes] the most of an envelope's bad value that an error quotes.
constexpr size_t kMaxValueShown = 64;

void PutUint32BigEndian(uint32_t value, char* out) {
  out[0] = static_cast<char>((value >> 24) & 0xFF);
  out[1] = static_cast<char>((value >> 16) & 0xFF);
  out[2] = static_cast<char>((value >> 8) & 0xFF);
  out[3] = static_cast<char>(value & 0xFF);
}

uint32_t GetUint32BigEndian(const char* in) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(in);
  return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) |
         uint32_t{bytes[3]};
}

std::string HexBytes(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string text;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const auto byte = static_cast<unsigned char>(bytes[i]);
    if (i > 0) text += ' ';
    text += "0x";
    text += kDigits[byte >> 4];
    text += kDigits[byte & 0xF];
  }
  return text;
}

// Returns the offset of the first byte of the first ill-formed UTF-8 sequence, or npos when the
// whole text is well-formed (no overlong forms, no surrogates, nothing above U+10FFFF).
size_t FindInvalidUtf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  size_t i = 0;
  while (i < size) {
    // ASCII fast path, 8 bytes at a time.
    if (i + 8 <= size) {
      uint64_t word;
      std::memcpy(&word, bytes + i, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char lead = bytes[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    size_t length = 0;
    unsigned char low = 0x80;  // allowed range of the second byte
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;   // overlong
      if (lead == 0xED) high = 0x9F;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;   // overlong
      if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (i + length > size || bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (size_t k = 2; k < length; ++k) {
      if ((bytes[i + k] & 0xC0) != 0x80) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

// `text` with each byte that begins no well-formed UTF-8 sequence replaced by U+FFFD: an Error
// reply can carry any description (a value cut short in an error message, say).
std::string ValidUtf8(std::string_view text) {
  std::string valid;
  for (size_t bad = FindInvalidUtf8(text); bad != std::string_view::npos;
       bad = FindInvalidUtf8(text)) {
    valid.append(text.substr(0, bad)).append("\xEF\xBF\xBD");
    text.remove_prefix(bad + 1);
  }
  return valid.append(text);
}

// What a frame header's bytes say: the lengths of the frame's parts once the header is whole.
struct HeaderLengths {
  size_t header_bytes = kFrameHeaderBytes;
  size_t json_bytes = 0;
  size_t attachment_bytes = 0;
  size_t total() const { return header_bytes + json_bytes + attachment_bytes; }
};

// The error of a header whose magic is not `magic` (and, in `also`, what else was accepted).
FrameError BadMagic(std::string_view seen, std::string_view magic, std::string_view also) {
  return FrameError{FrameErrorKind::kBadMagic,
                    "frame header: magic is " + HexBytes(seen) + ", expected \"" +
                        std::string(magic) + "\"" + std::string(also),
                    0, true};
}

// The error of a JSON length over the cap; the frame boundaries are lost.
FrameError JsonTooLong(size_t json_bytes, size_t max_frame_bytes) {
  return FrameError{FrameErrorKind::kJsonTooLong,
                    "frame header: JSON length " + std::to_string(json_bytes) +
                        " bytes is over the cap of " + std::to_string(max_frame_bytes) + " bytes",
                    0, true};
}

// Checks the "ASG1" header at the start of `buffered`: kFrame when the whole frame is there (its
// lengths in `lengths`), kNeedMore, or kError for a bad magic or a length over `max_frame_bytes`
// (the frame boundaries are lost), described in `error`. `also` ends a bad magic's description.
FrameDecoder::Status ReadHeader(std::string_view buffered, size_t max_frame_bytes,
                                std::string_view also, FrameError* error, HeaderLengths* lengths) {
  using Status = FrameDecoder::Status;
  const char* header = buffered.data();
  // The magic is checked on the bytes present, so garbage is refused before a full header.
  const size_t magic_bytes = std::min(buffered.size(), kFrameMagic.size());
  if (std::string_view(header, magic_bytes) != kFrameMagic.substr(0, magic_bytes)) {
    *error = BadMagic(std::string_view(header, magic_bytes), kFrameMagic, also);
    return Status::kError;
  }
  if (buffered.size() < kFrameHeaderBytes) return Status::kNeedMore;

  lengths->header_bytes = kFrameHeaderBytes;
  lengths->json_bytes = GetUint32BigEndian(header + 4);
  lengths->attachment_bytes = GetUint32BigEndian(header + 8);
  if (lengths->json_bytes > max_frame_bytes) {
    *error = JsonTooLong(lengths->json_bytes, max_frame_bytes);
    return Status::kError;
  }
  if (lengths->attachment_bytes > max_frame_bytes - lengths->json_bytes) {
    *error =
        FrameError{FrameErrorKind::kAttachmentTooLong,
                   "frame header: attachment length " + std::to_string(lengths->attachment_bytes) +
                       " bytes with JSON length " + std::to_string(lengths->json_bytes) +
                       " bytes is over the cap of " + std::to_string(max_frame_bytes) + " bytes",
                   0, true};
    return Status::kError;
  }
  return buffered.size() < lengths->total() ? Status::kNeedMore : Status::kFrame;
}

// Checks a monoDrive header ("mono", length of the whole frame) as ReadHeader does.
FrameDecoder::Status ReadMonoDriveHeader(std::string_view buffered, size_t max_frame_bytes,
                                         FrameError* error, HeaderLengths* lengths) {
  using Status = FrameDecoder::Status;
  const char* header = buffered.data();
  const size_t magic_bytes = std::min(buffered.size(), kMonoDriveMagic.size());
  if (std::string_view(header, magic_bytes) != kMonoDriveMagic.substr(0, magic_bytes)) {
    *error = BadMagic(std::string_view(header, magic_bytes), kMonoDriveMagic,
                      " (monoDrive framing, decided by the connection's first frame)");
    return Status::kError;
  }
  if (buffered.size() < kMonoDriveHeaderBytes) return Status::kNeedMore;

  const size_t total = GetUint32BigEndian(header + 4);
  if (total < kMonoDriveHeaderBytes) {
    *error = FrameError{FrameErrorKind::kJsonTooLong,
                        "frame header: monoDrive length " + std::to_string(total) +
                            " bytes is less than its 8-byte header",
                        0, true};
    return Status::kError;
  }
  lengths->header_bytes = kMonoDriveHeaderBytes;
  lengths->json_bytes = total - kMonoDriveHeaderBytes;
  lengths->attachment_bytes = 0;
  if (lengths->json_bytes > max_frame_bytes) {
    *error = JsonTooLong(lengths->json_bytes, max_frame_bytes);
    return Status::kError;
  }
  return buffered.size() < total ? Status::kNeedMore : Status::kFrame;
}

// A payload error: the frame was skipped whole and the stream goes on.
FrameError PayloadError(FrameErrorKind kind, std::string description, int64_t reference = 0) {
  return FrameError{kind, std::move(description), reference, false};
}

// Parses a frame's JSON text into `envelope`; the error when it is not well-formed UTF-8, not
// strict JSON or not an object.
std::optional<FrameError> ParseEnvelope(std::string_view json_text, Json* envelope) {
  if (const size_t bad = FindInvalidUtf8(json_text); bad != std::string_view::npos) {
    return PayloadError(FrameErrorKind::kInvalidUtf8, "frame JSON: invalid UTF-8 at byte " +
                                                          std::to_string(bad) + " (" +
                                                          HexBytes(json_text.substr(bad, 1)) + ")");
  }
  try {
    *envelope = json::ParseJsonStrict<Json>(json_text);
  } catch (const Json::parse_error& parse_error) {
    return PayloadError(FrameErrorKind::kInvalidJson,
                        std::string("frame JSON: ") + parse_error.what());
  } catch (const Json::out_of_range& range_error) {
    // A number beyond the range of a double (1e400).
    return PayloadError(FrameErrorKind::kInvalidJson,
                        std::string("frame JSON: ") + range_error.what());
  } catch (const DecodeError& decode_error) {
    // The path is that of the envelope: a repeated key of the body reads "message.<key>".
    return PayloadError(FrameErrorKind::kRefusedJson,
                        std::string("frame JSON: ") + decode_error.what());
  }
  if (!envelope->is_object()) {
    return PayloadError(FrameErrorKind::kNotAnObject,
                        std::string("frame JSON: the envelope is of type ") +
                            envelope->type_name() + ", expected an object");
  }
  return std::nullopt;
}

// Reads the envelope's "reference" into `reference`; the error when it is missing or not a
// 64-bit integer.
std::optional<FrameError> ReadReference(const Json& envelope, int64_t* reference) {
  const auto reference_it = envelope.find("reference");
  if (reference_it == envelope.end()) {
    return PayloadError(FrameErrorKind::kBadEnvelope, "envelope: \"reference\" is missing");
  }
  if (reference_it->is_number_integer() &&
      (reference_it->is_number_unsigned()
           ? reference_it->get<uint64_t>() <= uint64_t{std::numeric_limits<int64_t>::max()}
           : true)) {
    *reference = reference_it->get<int64_t>();
    return std::nullopt;
  }
  return PayloadError(FrameErrorKind::kBadEnvelope,
                      "envelope: \"reference\" is " +
                          json::ShortJson(*reference_it, kMaxValueShown) +
                          ", expected a 64-bit integer");
}

// The error when the envelope's "type" is not a non-empty string, its "message" not an object,
// or it has another key; the error carries the frame's `reference`.
std::optional<FrameError> CheckEnvelope(const Json& envelope, int64_t reference) {
  const auto type_it = envelope.find("type");
  if (type_it == envelope.end()) {
    return PayloadError(FrameErrorKind::kBadEnvelope, "envelope: \"type\" is missing", reference);
  }
  if (!type_it->is_string() || type_it->get_ref<const std::string&>().empty()) {
    return PayloadError(FrameErrorKind::kBadEnvelope,
                        "envelope: \"type\" is " + json::ShortJson(*type_it, kMaxValueShown) +
                            ", expected a non-empty string",
                        reference);
  }
  const auto message_it = envelope.find("message");
  if (message_it == envelope.end()) {
    return PayloadError(FrameErrorKind::kBadEnvelope, "envelope: \"message\" is missing",
                        reference);
  }
  if (!message_it->is_object()) {
    return PayloadError(FrameErrorKind::kBadEnvelope,
                        std::string("envelope: \"message\" is of type ") + message_it->type_name() +
                            ", expected an object",
                        reference);
  }
  for (const auto& [key, value] : envelope.items()) {
    if (key != "type" && key != "reference" && key != "message") {
      return PayloadError(
          FrameErrorKind::kBadEnvelope,
          "envelope: unknown key " + json::Quoted(json::CutText(key, json::kMaxKeyShown)),
          reference);
    }
  }
  return std::nullopt;
}

// `header_bytes` zero bytes (the header, filled in by the caller) and the JSON envelope, written
// by hand so that the message body is serialised without a copy.
std::string HeaderAndEnvelope(size_t header_bytes, std::string_view type, int64_t reference,
                              const Json& message) {
  std::string frame(header_bytes, '\0');
  frame += R"({"type":)";
  frame += Json(type).dump();
  frame += R"(,"reference":)";
  frame += std::to_string(reference);
  frame += R"(,"message":)";
  frame += message.dump();
  frame += '}';
  return frame;
}

}  // namespace

std::string ResponseType(std::string_view service) {
  std::string type(service);
  type += kResponseSuffix;
  return type;
}

bool IsReplyType(std::string_view type) {
  return type == kErrorType ||
         (type.size() > kResponseSuffix.size() && type.ends_with(kResponseSuffix));
}

Json ErrorBody(std::string_view description) {
  return Json{{"success", false}, {"description", ValidUtf8(description)}};
}

std::string ErrorDescription(const Json& body) {
  const auto it = body.find("description");
  if (it != body.end() && it->is_string()) return it->get<std::string>();
  return "Error reply without a description: " + json::ShortJson(body, kMaxValueShown);
}

std::string EncodeFrameHead(std::string_view type, int64_t reference, const Json& message,
                            size_t attachment_bytes, const FrameLimits& limits) {
  if (!message.is_object()) {
    throw std::invalid_argument("frame \"" + std::string(type) +
                                "\": message must be a JSON object, got " +
                                std::string(message.type_name()));
  }
  std::string frame = HeaderAndEnvelope(kFrameHeaderBytes, type, reference, message);
  const size_t json_bytes = frame.size() - kFrameHeaderBytes;
  if (json_bytes > limits.max_frame_bytes ||
      attachment_bytes > limits.max_frame_bytes - json_bytes) {
    throw std::invalid_argument("frame \"" + std::string(type) + "\": JSON " +
                                std::to_string(json_bytes) + " bytes + attachment " +
                                std::to_string(attachment_bytes) + " bytes exceed the cap of " +
                                std::to_string(limits.max_frame_bytes) + " bytes");
  }
  std::memcpy(frame.data(), kFrameMagic.data(), kFrameMagic.size());
  PutUint32BigEndian(static_cast<uint32_t>(json_bytes), frame.data() + 4);
  PutUint32BigEndian(static_cast<uint32_t>(attachment_bytes), frame.data() + 8);
  return frame;
}

std::string EncodeFrame(const Message& message, const FrameLimits& limits) {
  std::string frame = EncodeFrameHead(message.type, message.reference, message.message,
                                      message.attachment.size(), limits);
  frame += message.attachment;
  return frame;
}

std::string EncodeMonoDriveFrame(std::string_view type, int64_t reference, const Json& message,
                                 const FrameLimits& limits) {
  std::string frame = HeaderAndEnvelope(kMonoDriveHeaderBytes, type, reference, message);
  const size_t json_bytes = frame.size() - kMonoDriveHeaderBytes;
  if (json_bytes > limits.max_frame_bytes ||
      frame.size() > size_t{std::numeric_limits<uint32_t>::max()}) {
    throw std::invalid_argument("monoDrive frame \"" + std::string(type) + "\": JSON " +
                                std::to_string(json_bytes) + " bytes exceed the cap of " +
                                std::to_string(limits.max_frame_bytes) + " bytes");
  }
  std::memcpy(frame.data(), kMonoDriveMagic.data(), kMonoDriveMagic.size());
  PutUint32BigEndian(static_cast<uint32_t>(frame.size()), frame.data() + 4);
  return frame;
}

// Lengths travel as 32-bit values, so a larger cap could never be reached.
FrameDecoder::FrameDecoder(const FrameLimits& limits, bool accept_monodrive)
    : limits_cap_(std::min<size_t>(limits.max_frame_bytes, std::numeric_limits<uint32_t>::max())),
      max_frame_bytes_(limits_cap_),
      framing_(accept_monodrive ? Framing::kUnknown : Framing::kAsg) {}

void FrameDecoder::Feed(std::string_view bytes) {
  // Drop decoded bytes before growing, so the buffer holds at most one frame plus one chunk.
  if (read_offset_ > 0 && read_offset_ >= buffer_.size() / 2) {
    buffer_.erase(0, read_offset_);
    read_offset_ = 0;
  }
  buffer_.append(bytes);
}

size_t FrameDecoder::pending_frame_bytes() const {
  const char* header = buffer_.data() + read_offset_;
  if (framing_ == Framing::kMonoDrive) {
    if (stream_lost_ || buffered_bytes() < kMonoDriveHeaderBytes) return 0;
    return GetUint32BigEndian(header + 4);
  }
  if (stream_lost_ || buffered_bytes() < kFrameHeaderBytes) return 0;
  return kFrameHeaderBytes + size_t{GetUint32BigEndian(header + 4)} +
         size_t{GetUint32BigEndian(header + 8)};
}

FrameDecoder::Status FrameDecoder::Fail(FrameError* error, FrameErrorKind kind,
                                        std::string description, bool stream_lost,
                                        int64_t reference) {
  *error = FrameError{kind, std::move(description), reference, stream_lost};
  if (stream_lost) {
    stream_lost_ = true;
    lost_error_ = *error;
  }
  return Status::kError;
}

FrameDecoder::Status FrameDecoder::Next(Message* message, FrameError* error) {
  if (stream_lost_) {
    *error = lost_error_;
    return Status::kError;
  }
  if (buffered_bytes() == 0) {
    // Every byte fed is decoded: the storage a large frame needed is given back.
    buffer_.clear();
    read_offset_ = 0;
    if (buffer_.capacity() > kRetainedBufferBytes) std::string().swap(buffer_);
    return Status::kNeedMore;
  }
  const std::string_view buffered(buffer_.data() + read_offset_, buffered_bytes());
  // A stream that accepts both framings takes the one its first byte opens.
  std::string_view also;
  if (framing_ == Framing::kUnknown) {
    framing_ = buffered.front() == kMonoDriveMagic.front() ? Framing::kMonoDrive : Framing::kAsg;
    also = " or monoDrive's \"mono\"";
  }
  HeaderLengths lengths;
  FrameError header_error;
  const Status status =
      framing_ == Framing::kMonoDrive
          ? ReadMonoDriveHeader(buffered, max_frame_bytes_, &header_error, &lengths)
          : ReadHeader(buffered, max_frame_bytes_, also, &header_error, &lengths);
  if (status == Status::kError) {
    return Fail(error, header_error.kind, std::move(header_error.description), true);
  }
  if (status != Status::kFrame) return status;

  // The whole frame is here: consume it, then validate its payload.
  const char* header = buffer_.data() + read_offset_;
  const std::string_view json_text(header + lengths.header_bytes, lengths.json_bytes);
  const std::string_view attachment(header + lengths.header_bytes + lengths.json_bytes,
                                    lengths.attachment_bytes);
  read_offset_ += lengths.total();

  Json envelope;
  int64_t reference = 0;
  std::optional<FrameError> refused = ParseEnvelope(json_text, &envelope);
  if (!refused) refused = ReadReference(envelope, &reference);
  if (!refused) refused = CheckEnvelope(envelope, reference);
  if (refused) {
    *error = std::move(*refused);
    return Status::kError;
  }
  message->type = std::move(envelope["type"].get_ref<std::string&>());
  message->reference = reference;
  message->message = std::move(envelope["message"]);
  message->attachment.assign(attachment);
  return Status::kFrame;
}

}  // namespace asg::protocol
