// How strict decoding words the problems it finds. The field visitor (json/fields.h) decides what
// is wrong: an unknown key (with the likely key it misspells), a missing required one, a value of
// the wrong type or outside its range. A Wording decides how each file format says so, so that a
// format keeps the messages its users know while every format is decoded by the one visitor.
//
// The default wording is the protocol's: `vehicle.max_sped: unknown field; did you mean
// "max_speed"?`, `goal_radius: expected a number, got string "five"`, `must be > 0, got -1`.
// A type picks another one through its json::Schema<T>::kWording (json/fields.h).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"

namespace asg::json {

/// A range a decoded number (or each element of a number array) must lie in.
struct Limit {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false;   ///< low itself is excluded
  bool high_open = false;  ///< high itself is excluded
};
/// > 0.
inline constexpr Limit kPositive{0.0, std::numeric_limits<double>::infinity(), true};
/// >= 0.
inline constexpr Limit kNonNegative{0.0, std::numeric_limits<double>::infinity(), false};
/// [low, high], both included.
constexpr Limit Between(double low, double high) { return Limit{low, high, false}; }

/// Whether `value` lies in `limit`.
bool Within(double value, const Limit& limit);
/// An integer range for messages: "1..1000".
std::string IntegerRange(const Limit& limit);
/// The bound `limit` sets, for messages: "> 0", ">= 0", "<= 5", "in [1, 4096]", "in (0, 86400]".
std::string BoundText(const Limit& limit);

/// What a field holds, as the visitor tells a Wording before the field's value is read.
struct Expected {
  enum class Kind : uint8_t {
    kAny,      ///< a message (its own decoder checks it), a free-form value, or a rule's own type
    kBoolean,  ///< true or false
    kNumber,   ///< a finite number within `limit`
    kInteger,  ///< an integer within `limit`, which holds the C++ type's range at most
    kString,   ///< a string
    kName,     ///< one of `names` (an enumeration written as a string)
    kArray,    ///< an array (a std::vector)
  };
  Kind kind = Kind::kAny;
  Limit limit;                          ///< kNumber, kInteger: the accepted range
  std::string_view type_name;           ///< kInteger: the C++ type, e.g. "uint32"
  double type_max = 0.0;                ///< kInteger: the C++ type's largest value
  std::vector<std::string_view> names;  ///< kName: the accepted names, in order
  size_t size = 0;                      ///< kArray: the number of elements (std::array), or 0
  std::string_view text;                ///< the field's own words for what it holds, or ""

  /// kInteger: the limit is the whole range of an unsigned type, [0, type_max].
  bool whole_unsigned() const { return limit.low == 0.0 && limit.high == type_max; }
};

/// An unknown key of an object, with what the visitor knows about it.
struct UnknownKey {
  std::string_view key;                     ///< the key as written
  const Json& value;                        ///< its value
  std::string_view guess;                   ///< the known key it likely misspells, or ""
  std::span<const std::string_view> known;  ///< the keys the object accepts, in declaration order
  std::string_view tag_kind;  ///< tagged objects: what the tag selects ("relief feature")
  std::string_view tag_name;  ///< tagged objects: the tag's value ("ramp"); else ""
};

/// Whether `j` is a number with an integral value (3 or 3.0).
bool IsWhole(const Json& j);
/// Whether `j` is what `expected` describes: of its JSON type; a number or integer (whole) within
/// the limit; one of the names; an array of the size (when one is given). kAny fits anything.
bool Fits(const Json& j, const Expected& expected);

/// The words of one file format. Stateless; shared by const reference across threads.
class Wording {
 public:
  virtual ~Wording() = default;

  /// Whether CheckValue checks anything; false skips computing what it would be told.
  virtual bool checks_values() const { return false; }
  /// Throws DecodeError when `j`, the value at `path`, is not what `expected` describes. Returning
  /// leaves the check to the value readers, which word their errors the protocol's way.
  virtual void CheckValue(const Json& j, const std::string& path, const Expected& expected) const;
  /// The error for a value at `path` that should be an object.
  virtual DecodeError NotAnObject(const std::string& path, const Json& j) const;
  /// The error for an unknown key of the object at `object_path`.
  virtual DecodeError Unknown(const std::string& object_path, const UnknownKey& unknown) const;
  /// The error for the required `key` missing from the object at `object_path`; `tag_kind` is
  /// what the key selects when it is a tag ("relief feature"), else "".
  virtual DecodeError Missing(const std::string& object_path, std::string_view key,
                              std::string_view tag_kind) const;
};

/// The protocol's wording, which every type has unless its schema names another.
const Wording& DefaultWording();

/// A short rendering of a value as it is written: `"1"`, `[5,1]`, `-1`, cut to about 40 characters.
std::string ShortDump(const Json& j);
/// A short description of a JSON value for error messages: `string "abc"`, `number 1.5`.
std::string Describe(const Json& j);
/// `"name"`, quoted.
std::string Quoted(std::string_view name);
/// `"a", "b", "c"`.
std::string JoinQuoted(std::span<const std::string_view> names);

}  // namespace asg::json
