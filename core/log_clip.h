// Text that came from a peer (a node's name, a request's type, an error it sent) made fit for
// one log line: clipped to a bounded length at a UTF-8 character boundary, its length said, and
// control characters replaced so that it cannot begin a line of its own.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace asg::core {

/// [bytes] Kept of a name, a type or another short field from a peer.
inline constexpr size_t kLogFieldBytes = 200;
/// [bytes] Kept of a longer text from a peer: a reason, a description, an error message.
inline constexpr size_t kLogMessageBytes = 2000;

/// `text` as it may appear in a log line: unchanged when it is at most `max_bytes` long and
/// holds no control character; else its first `max_bytes` bytes at most (never half a UTF-8
/// character), then "... (N bytes)" with its whole length, and every control character
/// (below 0x20, and 0x7f) as '?'. At most max_bytes + 28 bytes. Thread-safe (pure function).
std::string ClipForLog(std::string_view text, size_t max_bytes = kLogFieldBytes);

}  // namespace asg::core
