// ParseJson and the strict parse's slow path: a parser callback that tracks where it is in the
// document, so that a repeated key or a too deep container is reported with its path.
#include "json/parse.h"

#include <set>
#include <string>

#include "core/check.h"
#include "json/fields.h"

namespace asg::json {
namespace internal {
namespace {

// One open object or array while parsing.
struct Container {
  explicit Container(bool is_object) : object(is_object) {}
  bool object = false;
  std::set<std::string, std::less<>> keys;  ///< keys seen so far (objects)
  std::string key;                          ///< key of the value being parsed (objects)
  size_t index = 0;                         ///< index of the element being parsed (arrays)
};

std::string PathOf(const std::vector<Container>& open) {
  std::string path;
  for (const Container& container : open) {
    path = container.object ? ChildPath(path, container.key) : IndexPath(path, container.index);
  }
  return path;
}

}  // namespace

void ThrowStrictParseError(std::string_view text) {
  std::vector<Container> open;
  auto track = [&open](int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    switch (event) {
      case nlohmann::json::parse_event_t::object_start:
      case nlohmann::json::parse_event_t::array_start:
        if (open.size() == kMaxJsonDepth) {
          throw DecodeError(PathOf(open), "nested deeper than " + std::to_string(kMaxJsonDepth) +
                                              " objects and arrays");
        }
        open.emplace_back(event == nlohmann::json::parse_event_t::object_start);
        break;
      case nlohmann::json::parse_event_t::key: {
        const auto& key = parsed.get_ref<const std::string&>();
        Container& object = open.back();
        object.key = key;
        if (!object.keys.insert(key).second) {
          throw DecodeError(PathOf(open), "duplicate key in one object");
        }
        break;
      }
      case nlohmann::json::parse_event_t::object_end:
      case nlohmann::json::parse_event_t::array_end:
        open.pop_back();
        if (!open.empty() && !open.back().object) ++open.back().index;
        break;
      case nlohmann::json::parse_event_t::value:
        if (!open.empty() && !open.back().object) ++open.back().index;
        break;
    }
    return true;
  };
  [[maybe_unused]] const nlohmann::json parsed = nlohmann::json::parse(text, track);
  // The strict parse refused the text, so the tracking parse throws before it gets here.
  ASG_CHECK(false);
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
