// ParseJson and the strict parse's refusals with their paths.
#include "json/parse.h"

#include <string>

#include "json/fields.h"
#include "json/short_text.h"

namespace asg::json {
namespace internal {

void AppendKeyPath(std::string& path, std::string_view key) {
  path = ChildPath(path, CutText(key, kMaxKeyShown));
}

void AppendIndexPath(std::string& path, size_t index) { path = IndexPath(path, index); }

void ThrowDuplicateKey(std::string path) {
  throw DecodeError(std::move(path), "duplicate key in one object");
}

void ThrowTooDeep(std::string path) {
  throw DecodeError(std::move(path),
                    "nested deeper than " + std::to_string(kMaxJsonDepth) + " objects and arrays");
}

}  // namespace internal

Json ParseJson(std::string_view text) {
  try {
    return ParseJsonStrict<Json>(text);
  } catch (const Json::parse_error& error) {
    // nlohmann's text reads "[json.exception.parse_error.101] parse error at line 2, column 5:
    // ..."; the bracketed id means nothing to whoever wrote the JSON.
    std::string message = error.what();
    if (const size_t end = message.find("] "); message.starts_with("[") && end != message.npos) {
      message.erase(0, end + 2);
    }
    throw DecodeError("", "invalid JSON: " + message);
  } catch (const Json::out_of_range& error) {
    // A number beyond the range of a double (1e400).
    std::string message = error.what();
    if (const size_t end = message.find("] "); message.starts_with("[") && end != message.npos) {
      message.erase(0, end + 2);
    }
    throw DecodeError("", "invalid JSON: " + message);
  }
}

}  // namespace asg::json
