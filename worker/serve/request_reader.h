// Strict reading of a service request's JSON with the json/ field visitor: a request type lists
// its fields once in a json::Schema<T> specialisation (worker/serve/requests.cpp), and
// RequestReader runs that list. It is json::FieldReader with the interactive worker's wording of
// a bad value, the field's path and the value as JSON then what it must be, e.g.
// `initial_pose.pose.position.x = "a": must be a number` (docs/interactive.md, "Error
// replies"); an unknown field is refused as json::FieldReader refuses it. Absent fields keep the
// value they had; an std::optional field is set only when present.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "json/fields.h"

namespace asg::worker::serve {

/// The first rule of every field RequestReader reads: selects the ReadValue overloads below.
struct Worded {};

/// A rule: any JSON object, taken as it is (decoded later, or ignored).
struct AnyObject {};

/// A rule: a string that must be one of `names`.
struct OneOf {
  std::span<const std::string_view> names;
};

/// The error of a bad value: `path = value: problem` (path "" is "message").
std::invalid_argument FieldError(const std::string& path, const json::Json& value,
                                 const std::string& problem);

/// Reads one JSON object's fields as listed by json::Schema<T>::Fields; throws
/// std::invalid_argument for a bad value and json::DecodeError for an unknown field.
class RequestReader {
 public:
  /// Throws FieldError unless `j` is an object; `path` prefixes field names ("" at the top). `j`
  /// must outlive the reader.
  RequestReader(const json::Json& j, std::string path);

  template <class T, class... Rule>
  void Required(std::string_view key, T& out, const Rule&... rule) {
    reader_.Required(key, out, Worded{}, rule...);
    ++fields_;
  }
  template <class T, class... Rule>
  void Optional(std::string_view key, T& out, const Rule&... rule) {
    reader_.Optional(key, out, Worded{}, rule...);
    ++fields_;
  }
  /// Throws for the first field no Required/Optional call named.
  void Finish() const;

 private:
  const json::Json& j_;
  std::string path_;
  json::FieldReader reader_;
  int fields_ = 0;  // Required/Optional calls
};

/// True for types with a json::Schema specialisation.
template <class T>
concept HasSchema = requires {
  sizeof(json::Schema<T>);
};

/// Reads `j` into the fields of `*out` that it has, then checks that it has no other field.
template <HasSchema T>
void ReadFields(const json::Json& j, const std::string& path, T* out) {
  RequestReader reader(j, path);
  json::Schema<T>::Fields(reader, *out);
  reader.Finish();
}

// ---------------------------------------------------------------- values, found by the Worded rule

void ReadValue(const json::Json& j, const std::string& path, std::string* out, Worded);
void ReadValue(const json::Json& j, const std::string& path, bool* out, Worded);
/// A finite number.
void ReadValue(const json::Json& j, const std::string& path, double* out, Worded);
void ReadValue(const json::Json& j, const std::string& path, json::Json* out, Worded,
               const AnyObject&);
void ReadValue(const json::Json& j, const std::string& path, std::string* out, Worded,
               const OneOf& one_of);

/// An integer (not 1.0) in [min, max], whose message names the range.
int64_t ReadInteger(const json::Json& j, const std::string& path, int64_t min, int64_t max);

/// An integer in the type's range, narrowed by `limit`.
template <class T>
requires(std::integral<T> &&
         !std::same_as<T, bool>) void ReadValue(const json::Json& j, const std::string& path,
                                                T* out, Worded, const json::Limit& limit = {}) {
  constexpr auto kTypeMax = static_cast<uint64_t>(std::numeric_limits<T>::max());
  int64_t min = static_cast<int64_t>(std::numeric_limits<T>::min());
  int64_t max = static_cast<int64_t>(
      std::min<uint64_t>(kTypeMax, static_cast<uint64_t>(std::numeric_limits<int64_t>::max())));
  if (std::isfinite(limit.low)) min = std::max(min, static_cast<int64_t>(std::ceil(limit.low)));
  if (std::isfinite(limit.high)) max = std::min(max, static_cast<int64_t>(std::floor(limit.high)));
  *out = static_cast<T>(ReadInteger(j, path, min, max));
}

template <class T>
void ReadValue(const json::Json& j, const std::string& path, std::vector<T>* out, Worded) {
  if (!j.is_array()) throw FieldError(path, j, "must be an array");
  out->clear();
  out->reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    T element{};
    ReadValue(j[i], json::IndexPath(path, i), &element, Worded{});
    out->push_back(std::move(element));
  }
}

template <class T, class... Rule>
void ReadValue(const json::Json& j, const std::string& path, std::optional<T>* out, Worded,
               const Rule&... rule) {
  T value{};
  ReadValue(j, path, &value, Worded{}, rule...);
  *out = std::move(value);
}

/// A nested object of a type with a json::Schema.
template <HasSchema T>
void ReadValue(const json::Json& j, const std::string& path, T* out, Worded) {
  ReadFields(j, path, out);
}

}  // namespace asg::worker::serve
