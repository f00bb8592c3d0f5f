// A rule of the field visitor (json/fields.h) for a quantity drawn from a range: written as a
// number (fixed, min = max) or as a two-element array [min, max] with min <= max. It applies to
// any struct with members `min` and `max` of one arithmetic type, such as a sampled range of
// metres or an instance count:
//   v.Optional("yaw", m.yaw, kNumberOrRange);
//   v.Required("count", m.count, NumberOrRange{Between(0, 65535)});
// Encoded as [min, max]. Its JSON Schema is the definition "Range" for numbers, an inline oneOf
// of an integer and a pair of integers for integer members.
#pragma once

#include <string>
#include <type_traits>

#include "json/fields.h"

namespace asg::json {

/// The rule; `limit` bounds both ends.
struct NumberOrRange {
  Limit limit;
};
inline constexpr NumberOrRange kNumberOrRange{};

/// A struct with arithmetic members `min` and `max` of one type.
template <class T>
concept MinMax =
    std::is_arithmetic_v<decltype(T::min)> && std::is_same_v<decltype(T::min), decltype(T::max)>;

/// Reads a number or [min, max] into out->min and out->max.
template <MinMax T>
void ReadValue(const Json& j, const std::string& path, T* out, const NumberOrRange& rule) {
  if (j.is_number()) {
    ReadValue(j, path, &out->min, rule.limit);
    out->max = out->min;
    return;
  }
  if (!j.is_array() || j.size() != 2) {
    throw DecodeError(path, "expected a number or [min, max], got " + ShortDump(j));
  }
  ReadValue(j[0], IndexPath(path, 0), &out->min, rule.limit);
  ReadValue(j[1], IndexPath(path, 1), &out->max, rule.limit);
  if (out->min > out->max) throw DecodeError(path, "min > max in " + ShortDump(j));
}

template <MinMax T>
Json WriteValue(const T& value, const NumberOrRange&) {
  return Json::array({value.min, value.max});
}

/// The schema of a range of numbers ({"$ref": "#/$defs/Range"}, defined in `builder` once) or
/// of integers within `limit`.
Json RangeSchema(bool integers, const Limit& limit, SchemaBuilder& builder);

template <MinMax T>
Json RuleSchema(const T&, const NumberOrRange& rule, SchemaBuilder& builder) {
  return RangeSchema(std::is_integral_v<decltype(T::min)>, rule.limit, builder);
}

}  // namespace asg::json
