// ASG_DECLARE_JSON(T): declares the four JSON functions every JSON-mapped type T has, inside T's
// own namespace (so that nlohmann and the field visitors find them by argument-dependent lookup):
//   void to_json(Json&, const T&);                          // nlohmann ADL hook
//   void from_json(const Json&, T&);                        // strict, path relative to the value
//   void Decode(const Json&, const std::string& path, T*);  // strict, path prefixed to errors
//   Json DescribeJson(const T*, json::SchemaBuilder&);      // its JSON Schema (json/schema.h)
// The definitions come from ASG_DEFINE_JSON (json/fields.h) or are written by hand.
#pragma once

#include <string>

#include "json/json.h"

namespace asg::json {
class SchemaBuilder;
}  // namespace asg::json

#define ASG_DECLARE_JSON(T)                                                   \
  void to_json(::asg::json::Json& j, const T& value);                         \
  void from_json(const ::asg::json::Json& j, T& value);                       \
  void Decode(const ::asg::json::Json& j, const std::string& path, T* value); \
  ::asg::json::Json DescribeJson(const T*, ::asg::json::SchemaBuilder& builder)
