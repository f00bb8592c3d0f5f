// SchemaBuilder and the object definitions SchemaWriter's fields make (json/schema.h).
#include "json/schema.h"

#include <stdexcept>

#include "json/fields.h"

namespace asg::json {

SchemaBuilder::Mode SchemaBuilder::SetMode(Mode mode) {
  const Mode previous = mode_;
  mode_ = mode;
  return previous;
}

bool SchemaBuilder::Begin(const std::string& name) {
  if (const auto found = modes_.find(name); found != modes_.end()) {
    if (found->second != mode_) {
      throw std::logic_error("JSON Schema: " + name +
                             " is needed both whole (in an array) and as a partial override");
    }
    return false;
  }
  modes_.emplace(name, mode_);
  defs_[name] = nullptr;  // reserved: a message reached again while written gets only a $ref
  return true;
}

void SchemaBuilder::Define(const std::string& name, Json schema) {
  defs_[name] = std::move(schema);
}

namespace {

Json NameList(const std::vector<std::string>& names) {
  Json list = Json::array();
  for (const std::string& name : names) list.push_back(name);
  return list;
}

}  // namespace

Json ObjectSchema(const SchemaWriter& writer) {
  Json schema = {{"type", "object"}, {"properties", writer.properties()}};
  if (!writer.partial() && !writer.required().empty()) {
    schema["required"] = NameList(writer.required());
  }
  schema["additionalProperties"] = false;
  return schema;
}

// Every variant's fields are properties of the object (the first schema of a name is kept); one
// clause per variant then limits the names to that variant's, gives those whose schema differs
// from the first one's, and requires its required fields.
// A missing optional tag means its default variant; in partial mode a missing tag may still be
// set by the object the override is merged over, so the clauses only apply to a written tag.
Json TaggedSchema(const std::vector<SchemaWriter>& variants) {
  const SchemaWriter& first = variants.front();
  const std::string& tag = first.tag_key();
  Json properties = Json::object();
  Json clauses = Json::array();
  for (size_t k = 0; k < variants.size(); ++k) {
    const SchemaWriter& variant = variants[k];
    Json names = Json::array();
    Json differing = Json::object();  // this variant's fields whose schema is not the union's
    for (const auto& [key, schema] : variant.properties().items()) {
      names.push_back(key);
      if (!properties.contains(key)) properties[key] = schema;
      if (properties[key] != schema) differing[key] = schema;
    }
    const std::string& value = first.tag_names()[k];
    Json condition = {{"properties", {{tag, {{"const", value}}}}}};
    if (first.partial() || value != first.tag_default()) condition["required"] = {tag};
    Json then = {{"propertyNames", {{"enum", names}}}};
    if (!differing.empty()) then["properties"] = differing;
    if (!first.partial()) {
      std::vector<std::string> required;
      for (const std::string& key : variant.required()) {
        if (key != tag) required.push_back(key);
      }
      if (!required.empty()) then["required"] = NameList(required);
    }
    clauses.push_back({{"if", condition}, {"then", then}});
  }
  Json schema = {{"type", "object"}, {"properties", properties}};
  if (!first.partial() && first.tag_required()) schema["required"] = {tag};
  schema["additionalProperties"] = false;
  schema["allOf"] = clauses;
  return schema;
}

}  // namespace asg::json
