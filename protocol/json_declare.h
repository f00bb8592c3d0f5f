// ASG_DECLARE_JSON(T): declares the four JSON functions every message type T has, inside
// namespace asg::protocol (where Json is nlohmann::ordered_json):
//   void to_json(Json&, const T&);                          // nlohmann ADL hook
//   void from_json(const Json&, T&);                        // strict, path relative to the value
//   void Decode(const Json&, const std::string& path, T*);  // strict, path prefixed to errors
//   Json DescribeJson(const T*, JsonSchemaBuilder&);        // its JSON Schema (json_schema.h)
// The definitions come from ASG_DEFINE_JSON (json_fields.h) or are written by hand.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace asg::protocol {
class JsonSchemaBuilder;
}  // namespace asg::protocol

#define ASG_DECLARE_JSON(T)                                      \
  void to_json(Json& j, const T& value);                         \
  void from_json(const Json& j, T& value);                       \
  void Decode(const Json& j, const std::string& path, T* value); \
  Json DescribeJson(const T*, JsonSchemaBuilder& builder)
