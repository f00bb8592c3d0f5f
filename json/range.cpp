// The JSON Schema of a NumberOrRange field.
#include "json/range.h"

#include <cmath>

namespace asg::json {
namespace {

// A bound as JSON: whole numbers as integers, so that "minimum": 0 rather than 0.0.
Json Bound(double value) {
  if (value == std::trunc(value) && std::abs(value) < 9e15) return static_cast<int64_t>(value);
  return value;
}

Json Scalar(bool integers, const Limit& limit) {
  Json schema = {{"type", integers ? "integer" : "number"}};
  if (std::isfinite(limit.low))
    schema[limit.low_open ? "exclusiveMinimum" : "minimum"] = Bound(limit.low);
  if (std::isfinite(limit.high)) {
    schema[limit.high_open ? "exclusiveMaximum" : "maximum"] = Bound(limit.high);
  }
  return schema;
}

Json OneOf(const Json& scalar) {
  return Json::array({scalar,
                      {{"type", "array"},
                       {"prefixItems", Json::array({scalar, scalar})},
                       {"minItems", 2},
                       {"maxItems", 2}}});
}

}  // namespace

Json RangeSchema(bool integers, const Limit& limit, SchemaBuilder& builder) {
  if (integers) {
    return {{"description", "an integer or [min, max] drawn uniformly among the integers"},
            {"oneOf", OneOf(Scalar(true, limit))}};
  }
  if (!builder.defs().contains("Range")) {
    builder.Define("Range",
                   {{"description", "a number (fixed) or [min, max] sampled uniformly, min <= max"},
                    {"oneOf", OneOf(Scalar(false, Limit{}))}});
  }
  return {{"$ref", "#/$defs/Range"}};
}

}  // namespace asg::json
