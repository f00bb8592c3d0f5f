// ASG_DECLARE_JSON(T): declares the three JSON functions every message type T has, inside
// namespace asg::protocol (where Json is nlohmann::ordered_json):
//   void to_json(Json&, const T&);                          // nlohmann ADL hook
//   void from_json(const Json&, T&);                        // strict, path relative to the value
//   void Decode(const Json&, const std::string& path, T*);  // strict, path prefixed to errors
// The definitions come from ASG_DEFINE_JSON (json_fields.h) or are written by hand.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#define ASG_DECLARE_JSON(T)                \
  void to_json(Json& j, const T& value);   \
  void from_json(const Json& j, T& value); \
  void Decode(const Json& j, const std::string& path, T* value)
