// The protocol's wording, and the value renderings every wording uses.
#include "json/wording.h"

#include <algorithm>
#include <cmath>

#include "core/number_format.h"
#include "json/fields.h"
#include "json/short_text.h"

namespace asg::json {
namespace {

// Longest dump of a value quoted in an error message [bytes].
constexpr size_t kMaxQuoted = 40;

}  // namespace

bool Within(double value, const Limit& limit) {
  const bool above_low = limit.low_open ? value > limit.low : value >= limit.low;
  const bool below_high = limit.high_open ? value < limit.high : value <= limit.high;
  return above_low && below_high;
}

std::string IntegerRange(const Limit& limit) {
  return core::FormatNumber(limit.low) + ".." + core::FormatNumber(limit.high);
}

std::string BoundText(const Limit& limit) {
  using core::FormatNumber;
  if (std::isinf(limit.high)) return (limit.low_open ? "> " : ">= ") + FormatNumber(limit.low);
  if (std::isinf(limit.low)) return (limit.high_open ? "< " : "<= ") + FormatNumber(limit.high);
  return std::string("in ") + (limit.low_open ? "(" : "[") + FormatNumber(limit.low) + ", " +
         FormatNumber(limit.high) + (limit.high_open ? ")" : "]");
}

std::string ShortDump(const Json& j) { return ShortJson(j, kMaxQuoted); }

std::string Describe(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_number_float() && !std::isfinite(j.get<double>())) {  // only possible in memory
    const double value = j.get<double>();
    return std::isnan(value) ? "NaN" : value > 0 ? "infinity" : "-infinity";
  }
  const std::string text = ShortDump(j);
  switch (j.type()) {
    case Json::value_t::boolean:
      return text;
    case Json::value_t::string:
      return "string " + text;
    case Json::value_t::array:
      return "an array " + text;
    case Json::value_t::object:
      return "an object " + text;
    default:
      return "number " + text;
  }
}

std::string Quoted(std::string_view name) {
  std::string quoted;  // appended rather than concatenated: GCC 12 warns falsely on "\"" + s
  quoted.reserve(name.size() + 2);
  quoted.append(1, '"').append(name).append(1, '"');
  return quoted;
}

std::string JoinQuoted(std::span<const std::string_view> names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += ", ";
    text += Quoted(names[i]);
  }
  return text;
}

bool IsWhole(const Json& j) {
  return j.is_number() && j.get<double>() == std::trunc(j.get<double>());
}

bool Fits(const Json& j, const Expected& expected) {
  switch (expected.kind) {
    case Expected::Kind::kBoolean:
      return j.is_boolean();
    case Expected::Kind::kNumber:
      return j.is_number() && Within(j.get<double>(), expected.limit);
    case Expected::Kind::kInteger:
      return IsWhole(j) && Within(j.get<double>(), expected.limit);
    case Expected::Kind::kString:
      return j.is_string();
    case Expected::Kind::kName:
      return j.is_string() && std::find(expected.names.begin(), expected.names.end(),
                                        j.get_ref<const std::string&>()) != expected.names.end();
    case Expected::Kind::kArray:
      return j.is_array() && (expected.size == 0 || j.size() == expected.size);
    default:
      return true;
  }
}

void Wording::CheckValue(const Json&, const std::string&, const Expected&) const {}

DecodeError Wording::NotAnObject(const std::string& path, const Json& j) const {
  return DecodeError(path, "expected an object, got " + Describe(j));
}

DecodeError Wording::Unknown(const std::string& object_path, const UnknownKey& unknown) const {
  std::string message = "unknown field";
  if (!unknown.tag_name.empty()) {
    message =
        "not a field of " + std::string(unknown.tag_kind) + " type " + Quoted(unknown.tag_name);
  }
  if (!unknown.guess.empty()) {
    message += "; did you mean " + Quoted(unknown.guess) + "?";
  } else {
    message += " (fields: " + JoinQuoted(unknown.known) + ")";
  }
  return DecodeError(ChildPath(object_path, CutText(unknown.key, kMaxKeyShown)), message);
}

DecodeError Wording::Missing(const std::string& object_path, std::string_view key,
                             std::string_view tag_kind) const {
  if (tag_kind.empty()) return DecodeError(ChildPath(object_path, key), "missing required field");
  return DecodeError(ChildPath(object_path, key),
                     "missing required field (the " + std::string(tag_kind) + " type)");
}

const Wording& DefaultWording() {
  static const Wording wording;
  return wording;
}

}  // namespace asg::json
