// Short renderings of text and JSON values for error messages: bounded in length and in the
// work they cost however large the input (a frame may carry a megabyte-long key or array), and
// never cut within a UTF-8 sequence, so that the message stays valid UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "json/json.h"

namespace asg::json {

/// Longest key quoted whole in an error's path or message [bytes]; a longer one is cut.
inline constexpr size_t kMaxKeyShown = 128;

/// `text`, or, when it is longer than `max_bytes` (at least 4), its first bytes and "...",
/// never cut within a UTF-8 sequence. Thread-safe.
std::string CutText(std::string_view text, size_t max_bytes);

/// `j` as compact JSON (as j.dump() writes it, invalid UTF-8 replaced), cut like CutText; only
/// about `max_bytes` of it are ever written, however large `j` is. Thread-safe.
std::string ShortJson(const Json& j, size_t max_bytes);

}  // namespace asg::json
