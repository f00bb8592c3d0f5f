// Strict JSON parsing for any nlohmann::basic_json type: a key repeated within one object and
// nesting deeper than kMaxJsonDepth are refused (a plain parse keeps the last of repeated keys
// silently). The check is cheap: the document is built from nlohmann's SAX events, and a key is
// refused when inserting it finds it already there. The path of the offending key is read off
// the containers still open at that moment, so refusing costs no more than parsing up to it:
// linear in the text, whatever its shape.
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

/// Appends the JSON path of an object's member `key` to `path` ("a" + "b" gives "a.b").
void AppendKeyPath(std::string& path, std::string_view key);
/// Appends the JSON path of an array's element `index` to `path` ("a" + 2 gives "a[2]").
void AppendIndexPath(std::string& path, size_t index);
/// Throws DecodeError for the key at `path` repeated within its object.
[[noreturn]] void ThrowDuplicateKey(std::string path);
/// Throws DecodeError for the container at `path` nested deeper than kMaxJsonDepth.
[[noreturn]] void ThrowTooDeep(std::string path);

/// nlohmann SAX handler that builds the document like a plain parse, but stops at a key already
/// present in its object or at a container nested deeper than kMaxJsonDepth, throwing
/// DecodeError with its path. A syntax error is thrown as the parser reports it (a parse_error).
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
    if (!inserted) {
      std::string path = OpenPath(open_.size() - 1, open_.back());
      AppendKeyPath(path, member->first);
      ThrowDuplicateKey(std::move(path));
    }
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
    if (open_.size() == kMaxJsonDepth) {
      // The container would be the next element of an open array or the last key's value.
      ThrowTooDeep(OpenPath(open_.size(), open_.back()->is_array() ? nullptr : member_));
    }
    open_.push_back(Put(type));
    return true;
  }

  // The path of the value being parsed inside the `count` outermost open containers: within
  // each, the open container one level in, and within the last, `last` (nullptr: the element
  // an array is about to receive). Linear in the size of those containers; run once, on refusal.
  std::string OpenPath(size_t count, const BasicJson* last) const {
    std::string path;
    for (size_t depth = 0; depth < count; ++depth) {
      const BasicJson& container = *open_[depth];
      const BasicJson* child = depth + 1 < count ? open_[depth + 1] : last;
      if (container.is_array()) {
        const size_t size = container.size();
        AppendIndexPath(path, child == nullptr ? size : size - 1);
        continue;
      }
      for (const auto& [name, value] :
           container.template get_ref<const typename BasicJson::object_t&>()) {
        if (&value == child) AppendKeyPath(path, name);
      }
    }
    return path;
  }

  BasicJson& root_;
  std::vector<BasicJson*> open_;  // the open containers, innermost last
  BasicJson* member_ = nullptr;   // the member of the innermost object whose key came last
};

}  // namespace internal

/// Parses `text` into a BasicJson (nlohmann::json, nlohmann::ordered_json, ...). A syntax error
/// throws BasicJson::parse_error unchanged (its byte() locates it); a key repeated within one
/// object, or nesting deeper than kMaxJsonDepth, throws DecodeError whose path names the
/// repeated key ("defaults.goal_radius") or the container nested too deep. Costs about what a
/// plain parse does, refused or not: time linear in the text, one copy of the document.
/// Thread-safe.
template <class BasicJson>
BasicJson ParseJsonStrict(std::string_view text) {
  BasicJson root;
  internal::StrictJsonBuilder<BasicJson> builder(root);
  BasicJson::sax_parse(text, &builder);
  return root;
}

/// Parses JSON text strictly: a syntax error throws DecodeError with an empty path and a message
/// giving the line and column; a key repeated within one object (which a plain parse would
/// silently resolve to the last value) throws DecodeError with the key's path, and so does
/// nesting deeper than kMaxJsonDepth objects and arrays.
Json ParseJson(std::string_view text);

}  // namespace asg::json
