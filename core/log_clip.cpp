// Peer text clipped for log lines.
#include "core/log_clip.h"

#include <algorithm>

namespace asg::core {

namespace {

bool IsControl(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

/// Whether `c` continues a UTF-8 character (10xxxxxx).
bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string ClipForLog(std::string_view text, size_t max_bytes) {
  const bool fits = text.size() <= max_bytes;
  if (fits && std::none_of(text.begin(), text.end(), IsControl)) return std::string(text);
  size_t kept = std::min(text.size(), max_bytes);
  // Cut before the character that would be split.
  if (!fits) {
    while (kept > 0 && IsContinuation(text[kept])) --kept;
  }
  std::string clipped(text.substr(0, kept));
  std::replace_if(clipped.begin(), clipped.end(), IsControl, '?');
  if (!fits) clipped += "... (" + std::to_string(text.size()) + " bytes)";
  return clipped;
}

}  // namespace asg::core
