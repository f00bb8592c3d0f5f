// The values of the field visitor (json/fields.h): the rules a field may carry (Limit, Names,
// Codes, Expecting), JSON paths, and how each field type is read (ReadValue, strictly, with the
// path in errors), written (WriteValue) and told to a Wording before it is read (ExpectedOf,
// CheckField). Overloads for another module's rule types are found by argument-dependent lookup.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/number_format.h"
#include "json/json.h"
#include "json/wording.h"

namespace asg::json {

// ---------------------------------------------------------------- rules

/// One value of an enumeration and its name.
template <class E>
struct NamedValue {
  E value;
  std::string_view name;
};

/// An enum class written as a string on the wire, e.g. ReliefFeature::Type as "hill".
template <class E>
struct Names {
  std::string_view kind;  ///< what the tag selects, for messages: "relief feature"
  std::span<const NamedValue<E>> table;
};

/// A uint8 code (or an enum class over uint8) written as a number on the wire that must be one
/// of a known set, e.g. StatusCode.status, AnalyzeScenario.termination_reason.
struct Codes {
  std::string_view kind;  ///< for messages: "StatusCode"
  std::span<const NamedValue<uint8_t>> table;
};

/// A field's own words for what it holds, for wordings that say what was expected, e.g.
/// "a string (where an editor finds the schema)"; the schema's description. Decoding is unchanged.
struct Expecting {
  std::string_view text;
};

// ---------------------------------------------------------------- paths and values

/// "a.b" from "a" and "b"; just "b" at the root.
std::string ChildPath(const std::string& path, std::string_view key);
/// "a[3]" from "a" and 3.
std::string IndexPath(const std::string& path, size_t index);
/// A number for error messages (core/number_format.h).
using core::FormatNumber;
/// The closest of `candidates` to `word` when it is close enough to be a likely typo, else "".
std::string_view ClosestName(std::string_view word, std::span<const std::string_view> candidates);

/// Throws DecodeError(path, ...) unless `value` lies in `limit`.
void CheckLimit(const std::string& path, double value, const Limit& limit);
/// Throws DecodeError(path, ...) unless `code` is in `codes`.
void CheckCode(const std::string& path, uint8_t code, const Codes& codes);
/// Index into `names` of the string j; throws DecodeError naming the choices otherwise.
size_t ReadName(const Json& j, const std::string& path, std::span<const std::string_view> names);

/// An integer in [min, max]; integral floats such as 6.0 are accepted.
int64_t ReadSigned(const Json& j, const std::string& path, int64_t min, int64_t max,
                   std::string_view type_name);
/// An integer in [0, max]; integral floats such as 6.0 are accepted.
uint64_t ReadUnsigned(const Json& j, const std::string& path, uint64_t max,
                      std::string_view type_name);

void ReadValue(const Json& j, const std::string& path, bool* out);
/// Any finite number.
void ReadValue(const Json& j, const std::string& path, double* out);
void ReadValue(const Json& j, const std::string& path, std::string* out);

template <class T>
constexpr std::string_view IntegerTypeName() {
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8";
  if constexpr (std::is_same_v<T, uint16_t>) return "uint16";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
  if constexpr (std::is_same_v<T, uint64_t>) return "uint64";
  if constexpr (std::is_same_v<T, int8_t>) return "int8";
  if constexpr (std::is_same_v<T, int16_t>) return "int16";
  if constexpr (std::is_same_v<T, int32_t>) return "int32";
  if constexpr (std::is_same_v<T, int64_t>) return "int64";
  return "integer";
}

template <class T>
requires(std::integral<T> &&
         !std::same_as<T, bool>) void ReadValue(const Json& j, const std::string& path, T* out) {
  if constexpr (std::is_signed_v<T>) {
    *out = static_cast<T>(ReadSigned(j, path, std::numeric_limits<T>::min(),
                                     std::numeric_limits<T>::max(), IntegerTypeName<T>()));
  } else {
    *out =
        static_cast<T>(ReadUnsigned(j, path, std::numeric_limits<T>::max(), IntegerTypeName<T>()));
  }
}

/// An enum class without a Names table, written as its number on the wire (e.g.
/// protocol::TerminationReason): any value of its underlying integer type.
template <class E>
requires std::is_enum_v<E>
void ReadValue(const Json& j, const std::string& path, E* out) {
  std::underlying_type_t<E> number{};
  ReadValue(j, path, &number);
  *out = static_cast<E>(number);
}

/// A free-form JSON value (e.g. sensor reading headers): taken as it is.
inline void ReadValue(const Json& j, const std::string&, Json* out) { *out = j; }

/// A nested message: its own Decode.
template <class T>
requires std::is_class_v<T>
void ReadValue(const Json& j, const std::string& path, T* out) { Decode(j, path, out); }

template <class T>
void ReadValue(const Json& j, const std::string& path, std::vector<T>* out) {
  if (!j.is_array()) throw DecodeError(path, "expected an array, got " + Describe(j));
  out->clear();
  out->reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    T element{};
    ReadValue(j[i], IndexPath(path, i), &element);
    out->push_back(std::move(element));
  }
}

/// Exactly N elements.
template <class T, size_t N>
void ReadValue(const Json& j, const std::string& path, std::array<T, N>* out) {
  if (!j.is_array() || j.size() != N) {
    throw DecodeError(path,
                      "expected an array of " + std::to_string(N) + " values, got " + Describe(j));
  }
  for (size_t i = 0; i < N; ++i) ReadValue(j[i], IndexPath(path, i), &(*out)[i]);
}

template <class T>
requires std::is_arithmetic_v<T>
void ReadValue(const Json& j, const std::string& path, T* out, const Limit& limit) {
  ReadValue(j, path, out);
  CheckLimit(path, static_cast<double>(*out), limit);
}

template <class T>
void ReadValue(const Json& j, const std::string& path, std::vector<T>* out, const Limit& limit) {
  ReadValue(j, path, out);
  for (size_t i = 0; i < out->size(); ++i) {
    CheckLimit(IndexPath(path, i), static_cast<double>((*out)[i]), limit);
  }
}

template <class T, size_t N>
void ReadValue(const Json& j, const std::string& path, std::array<T, N>* out, const Limit& limit) {
  ReadValue(j, path, out);
  for (size_t i = 0; i < N; ++i) {
    CheckLimit(IndexPath(path, i), static_cast<double>((*out)[i]), limit);
  }
}

inline void ReadValue(const Json& j, const std::string& path, uint8_t* out, const Codes& codes) {
  ReadValue(j, path, out);
  CheckCode(path, *out, codes);
}

/// An enum class over uint8 written as its number, which must be one of `codes`.
template <class E>
requires(std::is_enum_v<E>&& std::same_as<std::underlying_type_t<E>, uint8_t>) void ReadValue(
    const Json& j, const std::string& path, E* out, const Codes& codes) {
  uint8_t code = 0;
  ReadValue(j, path, &code, codes);
  *out = static_cast<E>(code);
}

template <class E>
std::vector<std::string_view> NameList(const Names<E>& names) {
  std::vector<std::string_view> list;
  for (const auto& entry : names.table) list.push_back(entry.name);
  return list;
}

template <class E>
void ReadValue(const Json& j, const std::string& path, E* out, const Names<E>& names) {
  *out = names.table[ReadName(j, path, NameList(names))].value;
}

template <class T>
void ReadValue(const Json& j, const std::string& path, T* out, const Expecting&) {
  ReadValue(j, path, out);
}

template <class T>
Json WriteValue(const T& value) {
  return Json(value);  // scalars natively, messages through their to_json
}

/// An enum class without a Names table: its number.
template <class E>
requires std::is_enum_v<E> Json WriteValue(const E& value) {
  return Json(static_cast<std::underlying_type_t<E>>(value));
}

template <class T>
Json WriteValue(const std::vector<T>& values) {
  Json array = Json::array();
  for (const T& value : values) array.push_back(WriteValue(value));
  return array;
}

template <class T, size_t N>
Json WriteValue(const std::array<T, N>& values) {
  Json array = Json::array();
  for (const T& value : values) array.push_back(WriteValue(value));
  return array;
}

template <class T>
Json WriteValue(const T& value, const Limit&) {
  return WriteValue(value);
}

template <class T>
Json WriteValue(const T& value, const Expecting&) {
  return WriteValue(value);
}

inline Json WriteValue(uint8_t code, const Codes&) { return Json(code); }

template <class E>
requires(std::is_enum_v<E>&& std::same_as<std::underlying_type_t<E>, uint8_t>) Json
    WriteValue(const E& value, const Codes& codes) {
  return WriteValue(static_cast<uint8_t>(value), codes);
}

template <class E>
Json WriteValue(const E& value, const Names<E>& names) {
  for (const auto& entry : names.table) {
    if (entry.value == value) return Json(entry.name);
  }
  // Not an enumerator (a cast from a bad integer): written as its number, which decoding rejects.
  return Json(static_cast<int64_t>(value));
}

// ---------------------------------------------------------------- what a wording is told

/// What a field of type T holds (json/wording.h), before its rule narrows it.
template <class T>
Expected ExpectedOf(const T*) {
  Expected expected;
  if constexpr (std::is_same_v<T, bool>) {
    expected.kind = Expected::Kind::kBoolean;
  } else if constexpr (std::is_floating_point_v<T>) {
    expected.kind = Expected::Kind::kNumber;
  } else if constexpr (std::is_integral_v<T>) {
    expected.kind = Expected::Kind::kInteger;
    expected.limit = Between(static_cast<double>(std::numeric_limits<T>::min()),
                             static_cast<double>(std::numeric_limits<T>::max()));
    expected.type_name = IntegerTypeName<T>();
    expected.type_max = static_cast<double>(std::numeric_limits<T>::max());
  } else if constexpr (std::is_same_v<T, std::string>) {
    expected.kind = Expected::Kind::kString;
  }
  return expected;
}

template <class T>
Expected ExpectedOf(const T* value, const Limit& limit) {
  Expected expected = ExpectedOf(value);
  if (expected.kind == Expected::Kind::kInteger) {  // the type's range within the rule's
    expected.limit.low = std::max(expected.limit.low, limit.low);
    expected.limit.high = std::min(expected.limit.high, limit.high);
    expected.limit.low_open = expected.limit.low == limit.low && limit.low_open;
    expected.limit.high_open = expected.limit.high == limit.high && limit.high_open;
  } else {
    expected.limit = limit;
  }
  return expected;
}

template <class T>
Expected ExpectedOf(const T* value, const Expecting& expecting) {
  Expected expected = ExpectedOf(value);
  expected.text = expecting.text;
  return expected;
}

template <class E>
Expected ExpectedOf(const E*, const Names<E>& names) {
  Expected expected;
  expected.kind = Expected::Kind::kName;
  expected.names = NameList(names);
  return expected;
}

/// Rules of another module (and combinations of rules) word their own errors.
template <class T, class... Rule>
Expected ExpectedOf(const T*, const Rule&...) {
  return Expected{};
}

/// Lets `wording` check `j` against what a field of out's type holds: an array and then each
/// element for a std::vector or std::array, else the value itself.
template <class T, class... Rule>
void CheckField(const Json& j, const std::string& path, const T* out, const Wording& wording,
                const Rule&... rule) {
  wording.CheckValue(j, path, ExpectedOf(out, rule...));
}

template <class T, class... Rule>
void CheckElements(const Json& j, const std::string& path, size_t size, const Wording& wording,
                   const Rule&... rule) {
  Expected array;
  array.kind = Expected::Kind::kArray;
  array.size = size;
  wording.CheckValue(j, path, array);
  if (!j.is_array()) return;
  for (size_t i = 0; i < j.size(); ++i) {
    CheckField(j[i], IndexPath(path, i), static_cast<const T*>(nullptr), wording, rule...);
  }
}

template <class T, class... Rule>
void CheckField(const Json& j, const std::string& path, const std::vector<T>*,
                const Wording& wording, const Rule&... rule) {
  CheckElements<T>(j, path, 0, wording, rule...);
}

template <class T, size_t N, class... Rule>
void CheckField(const Json& j, const std::string& path, const std::array<T, N>*,
                const Wording& wording, const Rule&... rule) {
  CheckElements<T>(j, path, N, wording, rule...);
}

}  // namespace asg::json
