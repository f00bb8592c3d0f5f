// Deep merge, positioned parse errors and file reading for batch files.
#include "client/batch/batch_json.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "json/parse.h"
#include "protocol/messages_json.h"

namespace asg::client {

Json DeepMerge(const Json& base, const Json& overrides) {
  if (!base.is_object() || !overrides.is_object()) return overrides;
  const auto base_type = base.find("type");
  const auto override_type = overrides.find("type");
  if (base_type != base.end() && override_type != overrides.end() && *base_type != *override_type) {
    return overrides;
  }
  Json merged = base;
  for (const auto& [key, value] : overrides.items()) {
    const auto found = merged.find(key);
    merged[key] = found == merged.end() ? value : DeepMerge(*found, value);
  }
  return merged;
}

TextPosition PositionOfOffset(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  TextPosition position;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++position.line;
      line_start = i + 1;
    }
  }
  position.column = offset - line_start + 1;
  return position;
}

Json ParseJsonText(std::string_view text, const std::string& origin) {
  try {
    // Strict: a key repeated within one object is refused instead of keeping the last value.
    return json::ParseJsonStrict<Json>(text);
  } catch (const json::DecodeError& error) {
    throw BatchError(origin + ": " + error.what());
  } catch (const Json::parse_error& error) {
    // error.byte is the 1-based count of bytes read when parsing stopped, i.e. the offending
    // byte is at 0-based offset byte - 1.
    const size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    const TextPosition position = PositionOfOffset(text, offset);
    // nlohmann's message is "[json.exception.parse_error.101] parse error at line L, column C:
    // detail"; keep only the detail since the position is given in front.
    std::string detail = error.what();
    const size_t colon = detail.find(": ");
    if (colon != std::string::npos) detail = detail.substr(colon + 2);
    throw BatchError(origin + ":" + std::to_string(position.line) + ":" +
                     std::to_string(position.column) + ": malformed JSON: " + detail);
  }
}

std::string ReadTextFile(const std::filesystem::path& file) {
  std::error_code ignored;
  if (std::filesystem::is_directory(file, ignored)) {
    throw BatchError(file.string() + ": cannot read: it is a directory");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw BatchError(file.string() + ": cannot read: " + std::strerror(errno));
  }
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw BatchError(file.string() + ": cannot read: I/O error");
  return content.str();
}

std::string ShortDump(const Json& value) {
  constexpr size_t kMaxLength = 60;
  std::string text = value.dump();
  if (text.size() > kMaxLength) text = text.substr(0, kMaxLength - 3) + "...";
  return text;
}

std::string DescribeValue(const Json& value) {
  if (value.is_null()) return "null";
  return std::string(value.type_name()) + " " + ShortDump(value);
}

void FailAt(const std::string& origin, const std::string& path, const std::string& problem) {
  throw BatchError(origin + ": " + path + ": " + problem);
}

}  // namespace asg::client
