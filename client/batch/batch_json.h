// JSON helpers of the batch layer: deep merge of defaults and overrides, and parsing text with
// errors that name the origin (a file) and the line:column of the problem.
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/number_format.h"

namespace asg::client {

using Json = nlohmann::ordered_json;

/// A batch that cannot be used at all: unreadable file, malformed JSON, or a structural problem
/// (wrong type of a top-level key, duplicate scenario numbers, a bad "generate" section). The
/// message names the file and the line:column or the JSON path.
class BatchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `overrides` merged into `base`: where both hold an object, keys merge recursively; anything
/// else in `overrides` (array, scalar, null) replaces the value of `base`. One exception: two
/// objects that both have a "type" key with different values do not merge, the override
/// replaces (a "straight" driver shares no fields with a "planner" one, and the strict decoder
/// would reject the planner's fields). Neither input changes.
Json DeepMerge(const Json& base, const Json& overrides);

/// A 1-based line and column in a text.
struct TextPosition {
  size_t line = 1;    ///< 1-based line
  size_t column = 1;  ///< 1-based column, in bytes
};

/// The line and column of the byte at 0-based `offset` in `text` (offset is clamped to the text's
/// size, so the end of the text has a position too).
TextPosition PositionOfOffset(std::string_view text, size_t offset);

/// Parses `text` as JSON; a syntax error throws BatchError "<origin>:<line>:<column>: malformed
/// JSON: <detail>", the position being that of the last byte of the offending token. A key
/// repeated within one object throws BatchError "<origin>: <path>: duplicate key in one object"
/// (path as "defaults.goal_radius"), and so does nesting deeper than 64 objects and arrays.
Json ParseJsonText(std::string_view text, const std::string& origin);

/// The whole content of `file`; throws BatchError "<file>: cannot read: <reason>".
std::string ReadTextFile(const std::filesystem::path& file);

/// A short rendering of a JSON value for error messages (dump, cut to about 60 characters).
std::string ShortDump(const Json& value);

/// A value for an error message with its JSON type: `string "x"`, `number -1`, `null`.
std::string DescribeValue(const Json& value);

/// A number for an error message: core::FormatNumber ("75", "0.5", "1000000"), by the name the
/// batch layer's callers know.
inline std::string NumberText(double value) { return core::FormatNumber(value); }

/// Throws BatchError "<origin>: <path>: <problem>".
[[noreturn]] void FailAt(const std::string& origin, const std::string& path,
                         const std::string& problem);

}  // namespace asg::client
