// The batch sections' wording.
#include "client/batch/batch_wording.h"

#include <cmath>

#include "client/batch/batch_json.h"
#include "core/number_format.h"
#include "json/fields.h"

namespace asg::client {
namespace {

using json::Expected;

// The problem of an integer field's value, or "" when it is fine.
std::string IntegerProblem(const Json& j, const Expected& expected) {
  if (!j.is_number()) return "expected an unsigned integer, got " + DescribeValue(j);
  if (!json::IsWhole(j) || j.get<double>() < 0.0) {
    return "expected " +
           (expected.whole_unsigned() ? std::string("a non-negative integer")
                                      : "an integer in " + json::IntegerRange(expected.limit)) +
           ", got " + ShortDump(j);
  }
  if (json::Fits(j, expected)) return "";
  return "expected " +
         (expected.limit.low == 0.0 ? "at most " + core::FormatNumber(expected.limit.high)
                                    : json::IntegerRange(expected.limit)) +
         ", got " + ShortDump(j);
}

// "a string", or the field's own words for it.
std::string Text(const Expected& expected, const char* plain) {
  return expected.text.empty() ? plain : std::string(expected.text);
}

}  // namespace

void BatchWording::CheckValue(const Json& j, const std::string& path,
                              const Expected& expected) const {
  std::string problem;
  switch (expected.kind) {
    case Expected::Kind::kBoolean:
      if (!j.is_boolean()) problem = "expected a boolean, got " + DescribeValue(j);
      break;
    case Expected::Kind::kNumber:
      if (!j.is_number()) problem = "expected a number, got " + DescribeValue(j);
      break;
    case Expected::Kind::kInteger:
      problem = IntegerProblem(j, expected);
      break;
    case Expected::Kind::kString:
      if (!j.is_string())
        problem = "expected " + Text(expected, "a string") + ", got " + ShortDump(j);
      break;
    case Expected::Kind::kArray:
      if (!j.is_array())
        problem = "expected " + Text(expected, "an array") + ", got " + ShortDump(j);
      break;
    default:
      break;
  }
  if (!problem.empty()) throw json::DecodeError(path, problem);
}

json::DecodeError BatchWording::NotAnObject(const std::string& path, const Json& j) const {
  if (path.empty()) {
    return json::DecodeError(path, "expected a JSON object at the top level, got " + ShortDump(j));
  }
  return json::DecodeError(path, "expected an object, got " + ShortDump(j));
}

json::DecodeError BatchWording::Unknown(const std::string& object_path,
                                        const json::UnknownKey& unknown) const {
  std::string problem(unknown_);
  if (!unknown.guess.empty()) {
    problem += "; did you mean " + json::Quoted(unknown.guess) + "?";
  } else if (list_keys_) {
    std::string keys;
    for (const std::string_view key : unknown.known) {
      keys += (keys.empty() ? "" : ", ") + std::string(key);
    }
    problem += " (expected " + keys + ")";
  }
  return json::DecodeError(json::ChildPath(object_path, unknown.key), problem);
}

json::DecodeError BatchWording::Missing(const std::string& object_path, std::string_view key,
                                        std::string_view) const {
  return json::DecodeError(json::ChildPath(object_path, key), std::string(missing_));
}

}  // namespace asg::client
