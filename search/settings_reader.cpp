// Typed, checked reads of a settings object.
#include "search/settings_reader.h"

#include <limits>
#include <stdexcept>

namespace asg::search {

namespace {
const nlohmann::ordered_json kNull;
}  // namespace

SettingsReader::SettingsReader(const std::string& strategy, const nlohmann::ordered_json& settings)
    : strategy_(strategy), settings_(settings) {
  if (!settings_.is_null() && !settings_.is_object()) {
    throw std::invalid_argument(strategy_ + " settings must be a JSON object, got " +
                                settings_.dump());
  }
}

std::string SettingsReader::Prefix(const std::string& key,
                                   const nlohmann::ordered_json& value) const {
  return strategy_ + " setting \"" + key + "\" is " + value.dump() + ": ";
}

nlohmann::ordered_json SettingsReader::Schema() const {
  return {{"type", "object"}, {"properties", properties_}, {"additionalProperties", false}};
}

const nlohmann::ordered_json* SettingsReader::Find(const std::string& key,
                                                   nlohmann::ordered_json schema) {
  if (known_.insert(key).second) {
    known_in_order_ += (known_in_order_.empty() ? "" : ", ") + key;
    properties_[key] = std::move(schema);
  }
  if (!settings_.is_object()) return nullptr;
  const auto it = settings_.find(key);
  return it == settings_.end() ? nullptr : &*it;
}

void SettingsReader::Read(const std::string& key, double* value) {
  const nlohmann::ordered_json* json = Find(key, {{"type", "number"}, {"default", *value}});
  if (!json) return;
  if (!json->is_number()) throw std::invalid_argument(Prefix(key, *json) + "needs a number");
  *value = json->get<double>();
}

void SettingsReader::Read(const std::string& key, uint32_t* value) {
  const nlohmann::ordered_json* json = Find(key, {{"type", "integer"},
                                                  {"minimum", 0},
                                                  {"maximum", std::numeric_limits<uint32_t>::max()},
                                                  {"default", *value}});
  if (!json) return;
  const bool integer =
      json->is_number_unsigned() || (json->is_number_integer() && json->get<int64_t>() >= 0);
  if (!integer || json->get<uint64_t>() > std::numeric_limits<uint32_t>::max()) {
    throw std::invalid_argument(Prefix(key, *json) + "needs a non-negative integer below 2^32");
  }
  *value = json->get<uint32_t>();
}

void SettingsReader::Read(const std::string& key, bool* value) {
  const nlohmann::ordered_json* json = Find(key, {{"type", "boolean"}, {"default", *value}});
  if (!json) return;
  if (!json->is_boolean()) throw std::invalid_argument(Prefix(key, *json) + "needs true or false");
  *value = json->get<bool>();
}

void SettingsReader::Read(const std::string& key, std::string* value) {
  const nlohmann::ordered_json* json = Find(key, {{"type", "string"}, {"default", *value}});
  if (!json) return;
  if (!json->is_string()) throw std::invalid_argument(Prefix(key, *json) + "needs a string");
  *value = json->get<std::string>();
}

const nlohmann::ordered_json& SettingsReader::Raw(const std::string& key,
                                                  nlohmann::ordered_json schema) {
  const nlohmann::ordered_json* json = Find(key, std::move(schema));
  return json ? *json : kNull;
}

void SettingsReader::Finish() const {
  if (!settings_.is_object()) return;
  for (const auto& [key, value] : settings_.items()) {
    if (!known_.count(key)) {
      throw std::invalid_argument(strategy_ + " has no setting \"" + key + "\" (value " +
                                  value.dump() + "); known: " + known_in_order_);
    }
  }
}

}  // namespace asg::search
