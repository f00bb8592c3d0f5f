// How the batch file's own sections word their errors (json/wording.h), as `asg-client check`
// has always printed them after "<file>: <path>: ":
//   expected an unsigned integer, got string "x"      a value of another type
//   expected a non-negative integer, got -1           a number that is not one
//   expected 1..65535, got 0 / expected at most 255, got 256
//   unknown field; did you mean "seed"?               an unknown key
// A scalar of the wrong type is named with its type; a string, object or array expected is
// shown as written. The sections differ in two words only: "search" says "unknown key" and
// "is required", listing its keys; "generate" lists none.
#pragma once

#include <string>
#include <string_view>

#include "json/wording.h"

namespace asg::client {

/// The wording of one group of the batch's sections.
class BatchWording : public json::Wording {
 public:
  /// `unknown`: "unknown field"; `missing`: "missing required field"; `list_keys`: an unknown
  /// key without a likely match lists the known ones.
  constexpr BatchWording(std::string_view unknown, std::string_view missing, bool list_keys)
      : unknown_(unknown), missing_(missing), list_keys_(list_keys) {}

  bool checks_values() const override { return true; }
  void CheckValue(const json::Json& j, const std::string& path,
                  const json::Expected& expected) const override;
  json::DecodeError NotAnObject(const std::string& path, const json::Json& j) const override;
  json::DecodeError Unknown(const std::string& object_path,
                            const json::UnknownKey& unknown) const override;
  json::DecodeError Missing(const std::string& object_path, std::string_view key,
                            std::string_view tag_kind) const override;

 private:
  std::string_view unknown_;
  std::string_view missing_;
  bool list_keys_;
};

/// The top level and "vehicle_nodes".
inline const BatchWording kBatchWording("unknown field", "missing required field", true);
/// "generate" and its objects.
inline const BatchWording kGenerateWording("unknown field", "missing required field", false);
/// "search" and its objects.
inline const BatchWording kSearchWording("unknown key", "is required", true);

}  // namespace asg::client
