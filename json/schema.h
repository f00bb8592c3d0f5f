// JSON Schema (draft 2020-12) of the messages, written from the same field lists the strict
// decoders run (json/fields.h), so the schema cannot drift from what decoding accepts:
//
//   SchemaBuilder builder(SchemaBuilder::Mode::kPartial);
//   Json request = SchemaRef<RunScenarioRequest>(builder);   // {"$ref":
//   "#/$defs/RunScenarioRequest"} Json schema = {{"$defs", builder.defs()}, ...};
//
// Each message type is one definition named after its C++ type, with its fields as properties
// (type, range, enumeration, and the default of optional fields) and additionalProperties false.
// A message whose fields depend on a tag (ReliefFeature, DriverSpec, SensorSpec) lists the union
// of its variants' fields and one if/then clause per variant limiting the names to that variant's.
//
// What no field list expresses (arrays whose lengths must agree, control_rate dividing
// physics_rate, commands in ascending t) is checked by the decoders alone.
#pragma once

#include <map>
#include <string>

#include "json/declare.h"
#include "json/json.h"

namespace asg::json {

class SchemaBuilder {
 public:
  enum class Mode {
    kStrict,   ///< required fields are required, as decoding a whole message needs them
    kPartial,  ///< overrides deep-merged over defaults (batch files): nothing is required and
               ///< each field's default is a default-constructed message's value; elements of
               ///< arrays, which a merge replaces whole, are still strict
  };

  explicit SchemaBuilder(Mode mode) : mode_(mode) {}

  /// The mode of the definitions being written now.
  bool partial() const { return mode_ == Mode::kPartial; }
  /// Switches the mode, returning the previous one (array elements are written strict).
  Mode SetMode(Mode mode);

  /// Reserves the definition `name` in the current mode; false when it exists already (or is
  /// being written). Throws std::logic_error when it exists in the other mode, since a name
  /// stands for one definition.
  bool Begin(const std::string& name);
  /// Sets the definition reserved by Begin.
  void Define(const std::string& name, Json schema);

  /// Every definition written so far, by name, in the order they were first reached.
  const Json& defs() const { return defs_; }

 private:
  Mode mode_;
  Json defs_ = Json::object();
  std::map<std::string, Mode> modes_;
};

/// {"$ref": "#/$defs/T"}, writing T's definition (and those it uses) into `builder` first.
template <class T>
Json SchemaRef(SchemaBuilder& builder) {
  return DescribeJson(static_cast<const T*>(nullptr), builder);
}

}  // namespace asg::json
