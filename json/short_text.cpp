// Bounded renderings: a value is written only as far as the cut will keep.
#include "json/short_text.h"

namespace asg::json {
namespace {

// Appends the JSON text of `string` to `out`, of which only the first `max_bytes` matter: the
// string's first bytes beyond them are left out.
void DumpStringUpTo(const std::string& string, size_t max_bytes, std::string& out) {
  const size_t room = max_bytes >= out.size() ? max_bytes - out.size() : 0;
  const std::string head = string.substr(0, room + 1);
  out += Json(head).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Appends the compact JSON text of `j` (as j.dump() writes it) to `out`, stopping once `out`
// holds more than `max_bytes`: what follows would be cut anyway.
void DumpUpTo(const Json& j, size_t max_bytes, std::string& out) {
  if (j.is_string()) {
    DumpStringUpTo(j.get_ref<const std::string&>(), max_bytes, out);
  } else if (j.is_array() || j.is_object()) {
    out += j.is_array() ? '[' : '{';
    bool first = true;
    for (auto it = j.begin(); it != j.end() && out.size() <= max_bytes; ++it) {
      if (!first) out += ',';
      first = false;
      if (j.is_object()) {
        DumpStringUpTo(it.key(), max_bytes, out);
        out += ':';
      }
      DumpUpTo(*it, max_bytes, out);
    }
    out += j.is_array() ? ']' : '}';
  } else {
    out += j.dump();
  }
}

}  // namespace

std::string CutText(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  // Back from the first byte left out to the lead byte of its sequence, if it continues one.
  size_t kept = max_bytes > 3 ? max_bytes - 3 : 0;
  while (kept > 0 && (static_cast<unsigned char>(text[kept]) & 0xC0) == 0x80) --kept;
  std::string cut(text.substr(0, kept));
  cut += "...";
  return cut;
}

std::string ShortJson(const Json& j, size_t max_bytes) {
  std::string text;
  DumpUpTo(j, max_bytes, text);
  return CutText(text, max_bytes);
}

}  // namespace asg::json
