// The strict field visitor: one list of a type's fields drives its decoding, its encoding and
// its JSON Schema. Every module that maps a type to JSON declares it here, once.
//
// A type's schema lists its fields once, in declaration order, as calls on a visitor v:
//   v.Required("nominal_size", m.nominal_size, kPositive);
//   v.Optional("border", m.border, kNonNegative);
// FieldWriter runs that list to encode the message into a JSON object; FieldReader runs the same
// list to decode one strictly, naming the JSON path and the value in every error. Rules after the
// field (a Limit, a Codes table) only constrain decoding. SchemaWriter runs the list to write the
// message's JSON Schema (json_schema.h), rules included. An enum class is written by name with a
// Names table, else as its number (which a Codes table limits to known values). A message whose
// fields depend on a tag (ReliefFeature, DriverSpec) reads the tag first with
// RequiredTag/OptionalTag, then lists the fields of that variant only.
#pragma once

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
#include "json/schema.h"

namespace asg::json {

// ---------------------------------------------------------------- rules

/// A range a decoded number (or each element of a number array) must lie in.
struct Limit {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false;   ///< low itself is excluded
  bool high_open = false;  ///< high itself is excluded
};
inline constexpr Limit kPositive{0.0, std::numeric_limits<double>::infinity(), true};
inline constexpr Limit kNonNegative{0.0, std::numeric_limits<double>::infinity(), false};
constexpr Limit Between(double low, double high) { return Limit{low, high, false}; }

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

// ---------------------------------------------------------------- paths and values

/// "a.b" from "a" and "b"; just "b" at the root.
std::string ChildPath(const std::string& path, std::string_view key);
/// "a[3]" from "a" and 3.
std::string IndexPath(const std::string& path, size_t index);
/// A number for error messages (core/number_format.h).
using core::FormatNumber;
/// A short description of a JSON value for error messages: `string "abc"`, `number 1.5`.
std::string Describe(const Json& j);
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

template <class T>
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

template <class T>
Json WriteValue(const T& value, const Limit&) {
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

// ---------------------------------------------------------------- visitors

/// Encodes a message's fields into a JSON object, in the order the schema lists them.
class FieldWriter {
 public:
  explicit FieldWriter(Json& j) : j_(j) { j_ = Json::object(); }

  template <class T, class... Rule>
  void Required(std::string_view key, const T& value, const Rule&... rule) {
    j_[std::string(key)] = WriteValue(value, rule...);
  }
  template <class T, class... Rule>
  void Optional(std::string_view key, const T& value, const Rule&... rule) {
    j_[std::string(key)] = WriteValue(value, rule...);
  }
  template <class E>
  void RequiredTag(std::string_view key, const E& value, const Names<E>& names) {
    j_[std::string(key)] = WriteValue(value, names);
  }
  template <class E>
  void OptionalTag(std::string_view key, const E& value, const Names<E>& names) {
    j_[std::string(key)] = WriteValue(value, names);
  }

 private:
  Json& j_;
};

/// Decodes a JSON object field by field. Type and range errors throw at once; a missing required
/// field is remembered and thrown by Finish() after unknown keys, since a misspelt key is the
/// usual reason a required one is missing.
class FieldReader {
 public:
  /// Throws DecodeError unless j is an object. j and path must outlive the reader.
  FieldReader(const Json& j, const std::string& path);

  template <class T, class... Rule>
  void Required(std::string_view key, T& out, const Rule&... rule) {
    Field(key, /*required=*/true, out, rule...);
  }
  template <class T, class... Rule>
  void Optional(std::string_view key, T& out, const Rule&... rule) {
    Field(key, /*required=*/false, out, rule...);
  }
  /// A tag selecting which fields follow; missing throws at once.
  template <class E>
  void RequiredTag(std::string_view key, E& out, const Names<E>& names) {
    if (!j_.contains(key)) {
      throw DecodeError(Child(key),
                        "missing required field (the " + std::string(names.kind) + " type)");
    }
    Tag(key, out, names);
  }
  /// A tag selecting which fields follow; missing keeps out's default.
  template <class E>
  void OptionalTag(std::string_view key, E& out, const Names<E>& names) {
    Tag(key, out, names);
  }

  /// Throws for the first key no Required/Optional call named, then for the first missing
  /// required field.
  void Finish() const;

  /// The path of one of this object's fields.
  std::string Child(std::string_view key) const { return ChildPath(path_, key); }

 private:
  template <class T, class... Rule>
  void Field(std::string_view key, bool required, T& out, const Rule&... rule) {
    known_.push_back(key);
    const auto it = j_.find(key);
    if (it == j_.end()) {
      if (required && missing_.empty()) missing_ = std::string(key);
      return;
    }
    ReadValue(*it, Child(key), &out, rule...);
  }

  template <class E>
  void Tag(std::string_view key, E& out, const Names<E>& names) {
    Field(key, /*required=*/false, out, names);
    for (const auto& entry : names.table) {
      if (entry.value == out)
        variant_ = std::string(names.kind) + " type \"" + std::string(entry.name) + "\"";
    }
  }

  const Json& j_;
  const std::string& path_;
  std::vector<std::string_view> known_;  ///< keys the schema named, in order
  std::string missing_;                  ///< first missing required key, "" if none
  std::string variant_;                  ///< e.g. `relief feature type "ramp"`, "" if untagged
};

/// Writes the JSON Schema of a message's fields (json_schema.h). Run once per variant of a tagged
/// message: the tag call sets the tag to the variant's value, so the fields that follow are those
/// of that variant.
class SchemaWriter {
 public:
  SchemaWriter(SchemaBuilder& builder, size_t variant)
      : builder_(builder), variant_(variant), partial_(builder.partial()) {}

  template <class T, class... Rule>
  void Required(std::string_view key, T& value, const Rule&... rule) {
    Json schema = ValueSchema(value, rule...);
    if (partial_) schema["default"] = WriteValue(value, rule...);
    Add(key, std::move(schema), /*required=*/!partial_);
  }
  template <class T, class... Rule>
  void Optional(std::string_view key, T& value, const Rule&... rule) {
    Json schema = ValueSchema(value, rule...);
    schema["default"] = WriteValue(value, rule...);
    Add(key, std::move(schema), /*required=*/false);
  }
  template <class E>
  void RequiredTag(std::string_view key, E& out, const Names<E>& names) {
    Tag(key, out, names, /*required=*/true);
  }
  template <class E>
  void OptionalTag(std::string_view key, E& out, const Names<E>& names) {
    Tag(key, out, names, /*required=*/false);
  }

  /// Whether the fields are written as a partial override (SchemaBuilder::Mode::kPartial).
  bool partial() const { return partial_; }
  bool tagged() const { return !tag_key_.empty(); }
  const std::string& tag_key() const { return tag_key_; }
  bool tag_required() const { return tag_required_; }
  const std::vector<std::string>& tag_names() const { return tag_names_; }
  /// The tag value a missing tag means ("" when the tag is required).
  const std::string& tag_default() const { return tag_default_; }
  const Json& properties() const { return properties_; }
  const std::vector<std::string>& required() const { return required_; }

 private:
  void Add(std::string_view key, Json schema, bool required);

  template <class E>
  void Tag(std::string_view key, E& out, const Names<E>& names, bool required) {
    tag_key_ = std::string(key);
    tag_required_ = required;
    Json schema = {{"type", "string"}, {"enum", Json::array()}};
    for (const auto& entry : names.table) {
      tag_names_.emplace_back(entry.name);
      schema["enum"].push_back(entry.name);
      if (!required && entry.value == out) tag_default_ = std::string(entry.name);
    }
    if (!required) schema["default"] = tag_default_;
    out = names.table[variant_].value;
    Add(key, std::move(schema), required);
  }

  Json ValueSchema(const bool&) { return {{"type", "boolean"}}; }
  Json ValueSchema(const double&) { return {{"type", "number"}}; }
  Json ValueSchema(const std::string&) { return {{"type", "string"}}; }
  Json ValueSchema(const Json&) { return Json::object(); }  // any JSON value
  template <class T>
  requires(std::integral<T> && !std::same_as<T, bool>) Json ValueSchema(const T&) {
    return {{"type", "integer"},
            {"minimum", std::numeric_limits<T>::min()},
            {"maximum", std::numeric_limits<T>::max()}};
  }
  template <class T>
  requires std::is_class_v<T> Json ValueSchema(const T&) {
    return DescribeJson(static_cast<const T*>(nullptr), builder_);
  }
  // An enum written as its number: the schema of its underlying integer, or of its codes.
  template <class E>
  requires std::is_enum_v<E> Json ValueSchema(const E& value) {
    return ValueSchema(static_cast<std::underlying_type_t<E>>(value));
  }
  template <class T>
  Json ValueSchema(const std::vector<T>&) {
    const auto mode = builder_.SetMode(SchemaBuilder::Mode::kStrict);  // elements are whole
    Json items = ValueSchema(T{});
    builder_.SetMode(mode);
    return {{"type", "array"}, {"items", std::move(items)}};
  }
  template <class T>
  Json ValueSchema(const T& value, const Limit& limit) {
    Json schema = ValueSchema(value);
    ApplyLimit(schema.contains("items") ? schema["items"] : schema, limit);
    return schema;
  }
  Json ValueSchema(const uint8_t&, const Codes& codes);
  template <class E>
  requires std::is_enum_v<E> Json ValueSchema(const E& value, const Codes& codes) {
    return ValueSchema(static_cast<uint8_t>(value), codes);
  }
  template <class E>
  Json ValueSchema(const E&, const Names<E>& names) {
    Json schema = {{"type", "string"}, {"enum", Json::array()}};
    for (const auto& entry : names.table) schema["enum"].push_back(entry.name);
    return schema;
  }

  static void ApplyLimit(Json& schema, const Limit& limit);

  SchemaBuilder& builder_;
  size_t variant_;
  bool partial_;
  Json properties_ = Json::object();
  std::vector<std::string> required_;
  std::string tag_key_;
  bool tag_required_ = false;
  std::vector<std::string> tag_names_;
  std::string tag_default_;
};

/// The definition of a tagged message from one writer per variant (json_schema.cpp).
Json TaggedSchema(const std::vector<SchemaWriter>& variants);
/// The definition of a message without a tag.
Json ObjectSchema(const SchemaWriter& writer);

// ---------------------------------------------------------------- schemas

/// Schema<T>::Fields(v, m) lists T's fields on visitor v; Schema<T>::Check(m, reader), where
/// present, checks decoded fields against each other. Specialised in messages_json.cpp.
template <class T>
struct Schema;

template <class T>
void EncodeFields(Json& j, const T& value) {
  FieldWriter writer(j);
  Schema<T>::Fields(writer, value);
}

template <class T>
void DecodeFields(const Json& j, const std::string& path, T* value) {
  T result{};
  FieldReader reader(j, path);
  Schema<T>::Fields(reader, result);
  reader.Finish();
  if constexpr (requires { Schema<T>::Check(result, reader); }) Schema<T>::Check(result, reader);
  *value = std::move(result);
}

/// T's definition in `builder` (once per type) and {"$ref": "#/$defs/<name>"}.
template <class T>
Json DescribeFields(const char* name, SchemaBuilder& builder) {
  Json ref = {{"$ref", std::string("#/$defs/") + name}};
  if (!builder.Begin(name)) return ref;
  std::vector<SchemaWriter> variants;
  variants.emplace_back(builder, 0);
  T first{};
  Schema<T>::Fields(variants.front(), first);
  if (!variants.front().tagged()) {
    builder.Define(name, ObjectSchema(variants.front()));
    return ref;
  }
  for (size_t k = 1; k < variants.front().tag_names().size(); ++k) {
    variants.emplace_back(builder, k);
    T value{};
    Schema<T>::Fields(variants.back(), value);
  }
  builder.Define(name, TaggedSchema(variants));
  return ref;
}

}  // namespace asg::json

/// Defines the four functions json/declare.h declares for T from json::Schema<T>; used in T's
/// namespace once per type.
#define ASG_DEFINE_JSON(T)                                                                    \
  void to_json(::asg::json::Json& j, const T& value) { ::asg::json::EncodeFields(j, value); } \
  void from_json(const ::asg::json::Json& j, T& value) {                                      \
    ::asg::json::DecodeFields(j, "", &value);                                                 \
  }                                                                                           \
  void Decode(const ::asg::json::Json& j, const std::string& path, T* value) {                \
    ::asg::json::DecodeFields(j, path, value);                                                \
  }                                                                                           \
  ::asg::json::Json DescribeJson(const T*, ::asg::json::SchemaBuilder& builder) {             \
    return ::asg::json::DescribeFields<T>(#T, builder);                                       \
  }
