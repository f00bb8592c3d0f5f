// The JSON Schema of a service request's body, written from the same json::Schema<T> field list
// RequestReader runs (worker/serve/requests.cpp), so the schema cannot drift from what a service
// accepts. Every field is optional (an absent field keeps its default); a nested object is
// written in place; a OneOf rule becomes an enumeration. Ranges and cross-field rules are checked
// by the reader alone and described in docs/interactive.md.
#pragma once

#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "worker/serve/request_reader.h"

namespace asg::worker::serve {

/// Runs a json::Schema<T> field list to write {"type": "object", "properties": ...,
/// "additionalProperties": false}.
class RequestSchemaWriter {
 public:
  template <class T, class... Rule>
  void Required(std::string_view key, const T& value, const Rule&... rule) {
    properties_[std::string(key)] = ValueSchema(value, rule...);
    required_.push_back(std::string(key));
  }
  template <class T, class... Rule>
  void Optional(std::string_view key, const T& value, const Rule&... rule) {
    properties_[std::string(key)] = ValueSchema(value, rule...);
  }

  /// The object schema of the fields visited so far.
  json::Json Result() const {
    json::Json schema = {
        {"type", "object"}, {"properties", properties_}, {"additionalProperties", false}};
    if (!required_.empty()) schema["required"] = required_;
    return schema;
  }

  /// The schema of T's body.
  template <HasSchema T>
  static json::Json Of() {
    T value{};
    RequestSchemaWriter writer;
    json::Schema<T>::Fields(writer, value);
    return writer.Result();
  }

 private:
  template <class T, class... Rule>
  static json::Json ValueSchema(const T&, const Rule&... rule) {
    if constexpr ((std::is_same_v<Rule, OneOf> || ...)) {
      json::Json names = json::Json::array();
      (AddNames(rule, &names), ...);
      return {{"type", "string"}, {"enum", std::move(names)}};
    } else {
      return TypeSchema(static_cast<const T*>(nullptr));
    }
  }
  template <class Rule>
  static void AddNames(const Rule& rule, json::Json* names) {
    if constexpr (std::is_same_v<Rule, OneOf>) {
      for (const std::string_view name : rule.names) names->push_back(std::string(name));
    }
  }

  static json::Json TypeSchema(const std::string*) { return {{"type", "string"}}; }
  static json::Json TypeSchema(const bool*) { return {{"type", "boolean"}}; }
  static json::Json TypeSchema(const double*) { return {{"type", "number"}}; }
  static json::Json TypeSchema(const json::Json*) { return {{"type", "object"}}; }
  template <class T>
  requires(std::integral<T> && !std::same_as<T, bool>) static json::Json TypeSchema(const T*) {
    return {{"type", "integer"}};
  }
  template <class T>
  static json::Json TypeSchema(const std::vector<T>*) {
    return {{"type", "array"}, {"items", TypeSchema(static_cast<const T*>(nullptr))}};
  }
  template <class T>
  static json::Json TypeSchema(const std::optional<T>*) {
    return TypeSchema(static_cast<const T*>(nullptr));
  }
  template <HasSchema T>
  static json::Json TypeSchema(const T*) {
    return Of<T>();
  }

  json::Json properties_ = json::Json::object();
  json::Json required_ = json::Json::array();
};

}  // namespace asg::worker::serve
