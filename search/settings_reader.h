// Reads a strategy's settings from a JSON object into its settings struct, key by key, with
// errors that name the strategy, the key and the value. Keys absent from the JSON keep the
// struct's defaults; Finish() rejects keys no Read() asked for. Used by strategy_registry.cpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace asg::search {

/// One strategy's settings object being read. Borrows `settings`; not thread-safe.
class SettingsReader {
 public:
  /// Throws std::invalid_argument when `settings` is neither null nor an object.
  SettingsReader(const std::string& strategy, const nlohmann::ordered_json& settings);
  /// Reads a number into `value` when `key` is present; throws std::invalid_argument when the
  /// value has another type (as do the overloads below for their types).
  void Read(const std::string& key, double* value);
  /// Reads a non-negative integer below 2^32.
  void Read(const std::string& key, uint32_t* value);
  /// Reads a boolean.
  void Read(const std::string& key, bool* value);
  /// Reads a string.
  void Read(const std::string& key, std::string* value);
  /// The JSON of `key` (null when absent), marking the key as known; for structured settings,
  /// whose JSON Schema `schema` (any value by default) Schema() lists.
  const nlohmann::ordered_json& Raw(
      const std::string& key, nlohmann::ordered_json schema = nlohmann::ordered_json::object());
  /// Throws std::invalid_argument naming the first key that no Read() or Raw() asked for, and
  /// listing the known ones.
  void Finish() const;
  /// "<strategy> setting \"key\" is <value>: " for messages of structured settings.
  std::string Prefix(const std::string& key, const nlohmann::ordered_json& value) const;
  /// A JSON Schema (draft 2020-12) of the settings asked for so far: each key with its type and
  /// the value it had before reading (its default when the settings leave it out).
  nlohmann::ordered_json Schema() const;

 private:
  /// The setting `key`, or null when absent; records `schema` as the key's schema.
  const nlohmann::ordered_json* Find(const std::string& key, nlohmann::ordered_json schema);

  std::string strategy_;
  const nlohmann::ordered_json& settings_;
  std::set<std::string> known_;
  std::string known_in_order_;
  nlohmann::ordered_json properties_ = nlohmann::ordered_json::object();
};

}  // namespace asg::search
