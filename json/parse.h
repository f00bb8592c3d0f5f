// Strict JSON parsing for any nlohmann::basic_json type: a key repeated within one object and
// nesting deeper than kMaxJsonDepth are refused (a plain parse keeps the last of repeated keys
// silently). The check is cheap: the document is built from nlohmann's SAX events, and a key is
// refused when inserting it finds it already there; the path of the offending key is worked out
// by a second, slower parse, only once the text is known to be refused.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/json.h"

namespace asg::json {

/// Deepest nesting of objects and arrays that strict parsing accepts. Deeper than any message
/// (RunScenarioRequest reaches 5) with room for wrappers such as a batch file; it bounds the
/// parser's memory on hostile input like a megabyte of '['.
inline constexpr size_t kMaxJsonDepth = 64;

namespace internal {

/// Thrown by StrictJsonBuilder to stop a parse that will be refused; never leaves
/// ParseJsonStrict.
struct StrictParseStop {};

/// nlohmann SAX handler that builds the document like a plain parse, but stops (throwing
/// StrictParseStop) at a key already present in its object or at a container nested deeper
/// than kMaxJsonDepth. A syntax error is thrown as the parser reports it (a parse_error).
template <class BasicJson>
class StrictJsonBuilder {
 public:
  using number_integer_t = typename BasicJson::number_integer_t;
  using number_unsigned_t = typename BasicJson::number_unsigned_t;
  using number_float_t = typename BasicJson::number_float_t;
  using string_t = typename BasicJson::string_t;
  using binary_t = typename BasicJson::binary_t;

  /// Builds into `root`, which must outlive the parse.
  explicit StrictJsonBuilder(BasicJson& root) : root_(root) {}

  bool null() { return Put(nullptr) != nullptr; }
  bool boolean(bool value) { return Put(value) != nullptr; }
  bool number_integer(number_integer_t value) { return Put(value) != nullptr; }
  bool number_unsigned(number_unsigned_t value) { return Put(value) != nullptr; }
  bool number_float(number_float_t value, const string_t& /*text*/) {
    return Put(value) != nullptr;
  }
  bool string(string_t& value) { return Put(std::move(value)) != nullptr; }
  bool binary(binary_t& value) { return Put(BasicJson::binary(std::move(value))) != nullptr; }
  bool start_object(std::size_t /*size*/) { return Open(BasicJson::value_t::object); }
  bool key(string_t& name) {
    auto& object = open_.back()->template get_ref<typename BasicJson::object_t&>();
    auto [member, inserted] = object.emplace(std::move(name), BasicJson());
    if (!inserted) throw StrictParseStop{};
    member_ = &member->second;
    return true;
  }
  bool end_object() {
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*size*/) { return Open(BasicJson::value_t::array); }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& error) {
    throw error;  // the concrete type (parse_error, out_of_range), as a plain parse throws it
  }

 private:
  // Places a value where the document is being built: the root, the end of the innermost
  // array, or the member whose key came last.
  template <class Value>
  BasicJson* Put(Value&& value) {
    if (open_.empty()) {
      root_ = BasicJson(std::forward<Value>(value));
      return &root_;
    }
    BasicJson& container = *open_.back();
    if (container.is_array()) {
      auto& array = container.template get_ref<typename BasicJson::array_t&>();
      array.emplace_back(std::forward<Value>(value));
      return &array.back();
    }
    *member_ = BasicJson(std::forward<Value>(value));
    return member_;
  }
  bool Open(typename BasicJson::value_t type) {
    if (open_.size() == kMaxJsonDepth) throw StrictParseStop{};
    open_.push_back(Put(type));
    return true;
  }

  BasicJson& root_;
  std::vector<BasicJson*> open_;  // the open containers, innermost last
  BasicJson* member_ = nullptr;   // the member of the innermost object whose key came last
};

/// Throws DecodeError naming the path of the first repeated key or of the first container
/// nested too deep in `text`, which a StrictJsonBuilder refused. Slow: tracks every key.
[[noreturn]] void ThrowStrictParseError(std::string_view text);

}  // namespace internal

/// Parses `text` into a BasicJson (nlohmann::json, nlohmann::ordered_json, ...). A syntax error
/// throws BasicJson::parse_error unchanged (its byte() locates it); a key repeated within one
/// object, or nesting deeper than kMaxJsonDepth, throws DecodeError whose path names the
/// repeated key ("defaults.goal_radius") or the container nested too deep. Costs about what a
/// plain parse does. Thread-safe.
template <class BasicJson>
BasicJson ParseJsonStrict(std::string_view text) {
  BasicJson root;
  internal::StrictJsonBuilder<BasicJson> builder(root);
  try {
    BasicJson::sax_parse(text, &builder);
  } catch (const internal::StrictParseStop&) {
    internal::ThrowStrictParseError(text);
  }
  return root;
}

/// Parses JSON text strictly: a syntax error throws DecodeError with an empty path and a message
/// giving the line and column; a key repeated within one object (which a plain parse would
/// silently resolve to the last value) throws DecodeError with the key's path, and so does
/// nesting deeper than kMaxJsonDepth objects and arrays.
Json ParseJson(std::string_view text);

}  // namespace asg::json
