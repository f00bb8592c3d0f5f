// The strict field visitor: one list of a type's fields drives its decoding, its encoding and
// its JSON Schema. Every module that maps a type to JSON declares it with this visitor, once.
//
// A type's schema lists its fields once, in declaration order, as calls on a visitor v:
//   v.Required("nominal_size", m.nominal_size, kPositive);
//   v.Optional("border", m.border, kNonNegative);
// FieldWriter runs that list to encode the message into a JSON object; FieldReader runs the same
// list to decode one strictly, naming the JSON path and the value in every error. Rules after the
// field (a Limit, a Codes table) only constrain decoding. SchemaWriter runs the list to write the
// message's JSON Schema (json/schema.h), rules included. An enum class is written by name with a
// Names table, else as its number (which a Codes table limits to known values). A message whose
// fields depend on a tag (ReliefFeature, DriverSpec) reads the tag first with
// RequiredTag/OptionalTag, then lists the fields of that variant only.
//
// Field types (json/field_values.h): bool, double, integers (any integral float within the C++
// type's range), strings, enumerations (with a Names rule), free-form Json, messages with their
// own schema, std::vector and std::array (exactly N elements) of those; an Optional field may
// also be a std::optional (absent: empty; encoded only when set), and a Required one too (always
// present: null when empty). A rule type of another module
// extends the visitor with overloads of ReadValue, WriteValue and RuleSchema found by
// argument-dependent lookup (json/range.h is one).
//
// How errors are worded is the type's Wording (json/wording.h): Schema<T>::kWording when the
// schema names one, else the protocol's.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "json/field_values.h"
#include "json/json.h"
#include "json/schema.h"
#include "json/wording.h"

namespace asg::json {

// ---------------------------------------------------------------- visitors

/// Encodes a message's fields into a JSON object, in the order the schema lists them.
class FieldWriter {
 public:
  explicit FieldWriter(Json& j) : j_(j) { j_ = Json::object(); }

  template <class T, class... Rule>
  void Required(std::string_view key, const T& value, const Rule&... rule) {
    j_[std::string(key)] = WriteValue(value, rule...);
  }
  /// An unset std::optional is written as null.
  template <class T, class... Rule>
  void Required(std::string_view key, const std::optional<T>& value, const Rule&... rule) {
    j_[std::string(key)] = value ? WriteValue(*value, rule...) : Json(nullptr);
  }
  template <class T, class... Rule>
  void Optional(std::string_view key, const T& value, const Rule&... rule) {
    j_[std::string(key)] = WriteValue(value, rule...);
  }
  /// An unset std::optional is left out.
  template <class T, class... Rule>
  void Optional(std::string_view key, const std::optional<T>& value, const Rule&... rule) {
    if (value) j_[std::string(key)] = WriteValue(*value, rule...);
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
  /// Throws DecodeError unless j is an object. j, path and wording must outlive the reader.
  FieldReader(const Json& j, const std::string& path, const Wording& wording = DefaultWording());

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
    if (!j_.contains(key)) throw wording_.Missing(path_, key, names.kind);
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

  /// The path of this object.
  const std::string& path() const { return path_; }
  /// The path of one of this object's fields.
  std::string Child(std::string_view key) const { return ChildPath(path_, key); }
  /// The wording of this object's errors.
  const Wording& wording() const { return wording_; }
  /// Whether the object has `key` (for checks of which optional fields go together).
  bool Has(std::string_view key) const { return j_.contains(key); }

 private:
  template <class T, class... Rule>
  void Field(std::string_view key, bool required, T& out, const Rule&... rule) {
    known_.push_back(key);
    const auto it = j_.find(key);
    if (it == j_.end()) {
      if (required && missing_.empty()) missing_ = std::string(key);
      return;
    }
    const std::string path = Child(key);
    if (wording_.checks_values()) CheckField(*it, path, &out, wording_, rule...);
    ReadValue(*it, path, &out, rule...);
  }

  /// A present std::optional is set, an absent one left empty; a required one is null when
  /// empty.
  template <class T, class... Rule>
  void Field(std::string_view key, bool required, std::optional<T>& out, const Rule&... rule) {
    const auto it = j_.find(key);
    if (required && it != j_.end() && it->is_null()) {
      known_.push_back(key);
      out.reset();
      return;
    }
    const bool present = it != j_.end();
    T value{};
    Field(key, required, value, rule...);  // names the key; records it missing if required
    if (present) out = std::move(value);
  }

  template <class E>
  void Tag(std::string_view key, E& out, const Names<E>& names) {
    Field(key, /*required=*/false, out, names);
    for (const auto& entry : names.table) {
      if (entry.value == out) {
        tag_kind_ = names.kind;
        tag_name_ = entry.name;
      }
    }
  }

  const Json& j_;
  const std::string& path_;
  const Wording& wording_;
  std::vector<std::string_view> known_;  ///< keys the schema named, in order
  std::string missing_;                  ///< first missing required key, "" if none
  std::string_view tag_kind_;            ///< e.g. "relief feature", "" if untagged
  std::string_view tag_name_;            ///< e.g. "ramp", "" if untagged
};

/// Writes the JSON Schema of a message's fields (json/schema.h). Run once per variant of a tagged
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
  /// A required std::optional: its value's schema, or null.
  template <class T, class... Rule>
  void Required(std::string_view key, std::optional<T>& value, const Rule&... rule) {
    T element = value.value_or(T{});
    Json schema = {{"anyOf", Json::array({ValueSchema(element, rule...), {{"type", "null"}}})}};
    if (partial_) schema["default"] = value ? WriteValue(*value, rule...) : Json(nullptr);
    Add(key, std::move(schema), /*required=*/!partial_);
  }
  template <class T, class... Rule>
  void Optional(std::string_view key, T& value, const Rule&... rule) {
    Json schema = ValueSchema(value, rule...);
    schema["default"] = WriteValue(value, rule...);
    Add(key, std::move(schema), /*required=*/false);
  }
  /// An unset std::optional has no default (what it means when absent is the type's to say).
  template <class T, class... Rule>
  void Optional(std::string_view key, std::optional<T>& value, const Rule&... rule) {
    T element = value.value_or(T{});
    Json schema = ValueSchema(element, rule...);
    if (value) schema["default"] = WriteValue(*value, rule...);
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
  template <class T, size_t N>
  Json ValueSchema(const std::array<T, N>&) {
    Json schema = ValueSchema(std::vector<T>{});
    schema["minItems"] = N;
    schema["maxItems"] = N;
    return schema;
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
  template <class T>
  Json ValueSchema(const T& value, const Expecting& expecting) {
    Json schema = ValueSchema(value);
    schema["description"] = expecting.text;
    return schema;
  }
  /// A rule of another module: its RuleSchema, found by argument-dependent lookup.
  template <class T, class Rule>
  Json ValueSchema(const T& value, const Rule& rule) {
    return RuleSchema(value, rule, builder_);
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

/// The definition of a tagged message from one writer per variant (json/schema.cpp).
Json TaggedSchema(const std::vector<SchemaWriter>& variants);
/// The definition of a message without a tag.
Json ObjectSchema(const SchemaWriter& writer);

// ---------------------------------------------------------------- schemas

/// Schema<T>::Fields(v, m) lists T's fields on visitor v; Schema<T>::Check(m, reader), where
/// present, checks decoded fields against each other. Optional members: kName, the name of T's
/// JSON Schema definition when it is not T's C++ name, and kWording, a pointer to the Wording of
/// T's errors (json/wording.h) when it is not the protocol's. Specialised beside each type's JSON
/// functions, e.g. in protocol/messages_json.cpp.
template <class T>
struct Schema;

/// The wording of T's errors: Schema<T>::kWording, or the protocol's.
template <class T>
const Wording& WordingOf() {
  if constexpr (requires { Schema<T>::kWording; }) {
    return *Schema<T>::kWording;
  } else {
    return DefaultWording();
  }
}

template <class T>
void EncodeFields(Json& j, const T& value) {
  FieldWriter writer(j);
  Schema<T>::Fields(writer, value);
}

template <class T>
void DecodeFields(const Json& j, const std::string& path, T* value) {
  T result{};
  FieldReader reader(j, path, WordingOf<T>());
  Schema<T>::Fields(reader, result);
  reader.Finish();
  if constexpr (requires { Schema<T>::Check(result, reader); }) Schema<T>::Check(result, reader);
  *value = std::move(result);
}

/// T's definition in `builder` (once per type) and {"$ref": "#/$defs/<name>"}; the name is
/// Schema<T>::kName when given, else `type_name`.
template <class T>
Json DescribeFields(const char* type_name, SchemaBuilder& builder) {
  std::string name = type_name;
  if constexpr (requires { Schema<T>::kName; }) name = Schema<T>::kName;
  Json ref = {{"$ref", "#/$defs/" + name}};
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
