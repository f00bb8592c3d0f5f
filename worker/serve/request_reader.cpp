// The interactive worker's wording of bad request fields.
#include "worker/serve/request_reader.h"

#include <algorithm>

#include "json/short_text.h"

namespace asg::worker::serve {
namespace {

/// Longest value quoted in a message, before it is cut.
constexpr size_t kMaxShown = 60;

/// The value as JSON, cut to kMaxShown bytes (however large the value).
std::string Shown(const json::Json& value) { return json::ShortJson(value, kMaxShown); }

/// "a, b or c".
std::string Alternatives(std::span<const std::string_view> names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

/// Throws FieldError unless `j` is an object.
const json::Json& CheckObject(const json::Json& j, const std::string& path) {
  if (!j.is_object()) throw FieldError(path, j, "must be an object");
  return j;
}

}  // namespace

std::invalid_argument FieldError(const std::string& path, const json::Json& value,
                                 const std::string& problem) {
  return std::invalid_argument((path.empty() ? std::string("message") : path) + " = " +
                               Shown(value) + ": " + problem);
}

RequestReader::RequestReader(const json::Json& j, std::string path)
    : j_(j), path_(std::move(path)), reader_(CheckObject(j, path_), path_) {}

void RequestReader::Finish() const {
  // An object without fields has no field names to suggest.
  if (fields_ == 0 && !j_.empty()) {
    throw json::DecodeError(
        json::ChildPath(path_, json::CutText(j_.begin().key(), json::kMaxKeyShown)),
        "unknown field");
  }
  reader_.Finish();
}

void ReadValue(const json::Json& j, const std::string& path, std::string* out, Worded) {
  if (!j.is_string()) throw FieldError(path, j, "must be a string");
  *out = j.get<std::string>();
}

void ReadValue(const json::Json& j, const std::string& path, bool* out, Worded) {
  if (!j.is_boolean()) throw FieldError(path, j, "must be true or false");
  *out = j.get<bool>();
}

void ReadValue(const json::Json& j, const std::string& path, double* out, Worded) {
  if (!j.is_number()) throw FieldError(path, j, "must be a number");
  const double number = j.get<double>();
  if (!std::isfinite(number)) throw FieldError(path, j, "must be finite");
  *out = number;
}

void ReadValue(const json::Json& j, const std::string& path, json::Json* out, Worded,
               const AnyObject&) {
  *out = CheckObject(j, path);
}

void ReadValue(const json::Json& j, const std::string& path, std::string* out, Worded,
               const OneOf& one_of) {
  ReadValue(j, path, out, Worded{});
  if (std::find(one_of.names.begin(), one_of.names.end(), *out) == one_of.names.end()) {
    throw FieldError(path, j, "must be " + Alternatives(one_of.names));
  }
}

int64_t ReadInteger(const json::Json& j, const std::string& path, int64_t min, int64_t max) {
  const std::string range =
      "must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (!j.is_number_integer()) throw FieldError(path, j, range);
  if (j.is_number_unsigned()) {
    // Above int64's range only when above max.
    const uint64_t number = j.get<uint64_t>();
    if (number > static_cast<uint64_t>(max)) throw FieldError(path, j, range);
    const auto signed_number = static_cast<int64_t>(number);
    if (signed_number < min) throw FieldError(path, j, range);
    return signed_number;
  }
  const int64_t number = j.get<int64_t>();
  if (number < min || number > max) throw FieldError(path, j, range);
  return number;
}

}  // namespace asg::worker::serve
