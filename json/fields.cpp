// Non-template parts of json/fields.h: paths, typo suggestions, the scalar readers and the
// field reader.
#include "json/fields.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace asg::json {
namespace {

// Whether two characters are the same letter, case aside.
bool SameLetter(char a, char b) {
  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
}

// Case-insensitive edit distance where a swap of two neighbouring characters ("scael" for
// "scale") is one edit, like an insertion, a deletion or a substitution (optimal string
// alignment). Three rows: the one two back is where a swap comes from.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> before(b.size() + 1);
  std::vector<size_t> previous(b.size() + 1);
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    before.swap(previous);
    previous.swap(row);
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const bool same = SameLetter(a[i - 1], b[j - 1]);
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && SameLetter(a[i - 1], b[j - 2]) && SameLetter(a[i - 2], b[j - 1])) {
        row[j] = std::min(row[j], before[j - 2] + 1);
      }
    }
  }
  return row[b.size()];
}

}  // namespace

std::string ChildPath(const std::string& path, std::string_view key) {
  if (path.empty()) return std::string(key);
  std::string child;
  child.reserve(path.size() + 1 + key.size());
  child.append(path).append(".").append(key);
  return child;
}

std::string IndexPath(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string_view ClosestName(std::string_view word, std::span<const std::string_view> candidates) {
  std::string_view best;
  // One character is too short to tell a slip from another name ("z" is not a misspelt "x").
  if (word.size() < 2) return best;
  size_t best_distance = 0;
  size_t best_edits = 0;
  for (const std::string_view candidate : candidates) {
    // A key cut short or run on ("sim_timeout" for "sim_timeout_period") is a likely slip too.
    const bool prefix =
        word.size() >= 3 && (candidate.starts_with(word) || word.starts_with(candidate));
    // About one edit in three characters still reads as the same word.
    const size_t allowed = std::max<size_t>(1, std::min(word.size(), candidate.size()) / 3);
    // Lengths further apart than that take more edits than allowed, and the edits between a
    // word and its prefix are the difference in length: a megabyte-long word costs nothing.
    const size_t length_gap =
        std::max(word.size(), candidate.size()) - std::min(word.size(), candidate.size());
    if (!prefix && length_gap > allowed) continue;
    const size_t edits = prefix ? length_gap : EditDistance(word, candidate);
    size_t distance = edits;
    if (prefix) distance = std::min<size_t>(distance, 1);
    // Of equally likely slips, the one fewest edits away: "goal_radius" for "goal_radious", not
    // "goal", of which it merely runs on.
    const bool closer =
        distance < best_distance || (distance == best_distance && edits < best_edits);
    if (distance <= allowed && (best.empty() || closer)) {
      best = candidate;
      best_distance = distance;
      best_edits = edits;
    }
  }
  return best;
}

void CheckLimit(const std::string& path, double value, const Limit& limit) {
  if (Within(value, limit)) return;
  throw DecodeError(path, "must be " + BoundText(limit) + ", got " + FormatNumber(value));
}

void CheckCode(const std::string& path, uint8_t code, const Codes& codes) {
  std::string known;
  for (const auto& entry : codes.table) {
    if (entry.value == code) return;
    if (!known.empty()) known += ", ";
    known += std::to_string(entry.value) + " " + std::string(entry.name);
  }
  throw DecodeError(path, std::to_string(code) + " is not a known " + std::string(codes.kind) +
                              " (known: " + known + ")");
}

size_t ReadName(const Json& j, const std::string& path, std::span<const std::string_view> names) {
  if (!j.is_string()) {
    throw DecodeError(path, "expected one of " + JoinQuoted(names) + ", got " + Describe(j));
  }
  const auto& text = j.get_ref<const std::string&>();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return i;
  }
  std::string message = "unknown value " + Quoted(text);
  const std::string_view guess = ClosestName(text, names);
  if (!guess.empty()) message += "; did you mean " + Quoted(guess) + "?";
  throw DecodeError(path, message + " (one of " + JoinQuoted(names) + ")");
}

namespace {

// The integral value of a float, or throws.
double IntegralFloat(const Json& j, const std::string& path, std::string_view type_name) {
  const double value = j.get<double>();
  if (!std::isfinite(value) || value != std::trunc(value)) {
    throw DecodeError(path,
                      "expected an integer (" + std::string(type_name) + "), got " + Describe(j));
  }
  return value;
}

[[noreturn]] void ThrowOutOfRange(const std::string& path, const Json& j,
                                  std::string_view type_name, const std::string& min,
                                  const std::string& max) {
  throw DecodeError(path, Describe(j) + " is out of range for " + std::string(type_name) + " (" +
                              min + ".." + max + ")");
}

}  // namespace

int64_t ReadSigned(const Json& j, const std::string& path, int64_t min, int64_t max,
                   std::string_view type_name) {
  auto out_of_range = [&] {
    ThrowOutOfRange(path, j, type_name, std::to_string(min), std::to_string(max));
  };
  if (j.is_number_unsigned()) {
    const auto value = j.get<uint64_t>();
    if (value > static_cast<uint64_t>(max)) out_of_range();
    return static_cast<int64_t>(value);
  }
  if (j.is_number_integer()) {
    const auto value = j.get<int64_t>();
    if (value < min || value > max) out_of_range();
    return value;
  }
  if (j.is_number_float()) {
    const double value = IntegralFloat(j, path, type_name);
    // 2^63 and beyond cannot be an int64; below that every integral double converts exactly.
    if (value < static_cast<double>(min) || value >= 9223372036854775808.0 ||
        static_cast<int64_t>(value) > max) {
      out_of_range();
    }
    return static_cast<int64_t>(value);
  }
  throw DecodeError(path,
                    "expected an integer (" + std::string(type_name) + "), got " + Describe(j));
}

uint64_t ReadUnsigned(const Json& j, const std::string& path, uint64_t max,
                      std::string_view type_name) {
  auto out_of_range = [&] { ThrowOutOfRange(path, j, type_name, "0", std::to_string(max)); };
  if (j.is_number_unsigned()) {
    const auto value = j.get<uint64_t>();
    if (value > max) out_of_range();
    return value;
  }
  if (j.is_number_integer()) {  // parsed text holds only negatives here; values set in code too
    const auto value = j.get<int64_t>();
    if (value < 0 || static_cast<uint64_t>(value) > max) out_of_range();
    return static_cast<uint64_t>(value);
  }
  if (j.is_number_float()) {
    const double value = IntegralFloat(j, path, type_name);
    if (value < 0.0 || value >= 18446744073709551616.0 || static_cast<uint64_t>(value) > max) {
      out_of_range();
    }
    return static_cast<uint64_t>(value);
  }
  throw DecodeError(path,
                    "expected an integer (" + std::string(type_name) + "), got " + Describe(j));
}

void ReadValue(const Json& j, const std::string& path, bool* out) {
  if (!j.is_boolean()) throw DecodeError(path, "expected true or false, got " + Describe(j));
  *out = j.get<bool>();
}

void ReadValue(const Json& j, const std::string& path, double* out) {
  if (!j.is_number()) {
    std::string message = "expected a number, got " + Describe(j);
    if (j.is_null()) message += " (a NaN or infinite number is written as null)";
    throw DecodeError(path, message);
  }
  const double value = j.get<double>();
  if (!std::isfinite(value))
    throw DecodeError(path, "expected a finite number, got " + Describe(j));
  *out = value;
}

void ReadValue(const Json& j, const std::string& path, std::string* out) {
  if (!j.is_string()) throw DecodeError(path, "expected a string, got " + Describe(j));
  *out = j.get<std::string>();
}

FieldReader::FieldReader(const Json& j, const std::string& path, const Wording& wording)
    : j_(j), path_(path), wording_(wording) {
  if (!j.is_object()) throw wording_.NotAnObject(path, j);
}

void FieldReader::Finish() const {
  for (const auto& [key, value] : j_.items()) {
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    throw wording_.Unknown(
        path_, UnknownKey{key, value, ClosestName(key, known_), known_, tag_kind_, tag_name_});
  }
  if (!missing_.empty()) throw wording_.Missing(path_, missing_, "");
}

}  // namespace asg::json

// ---------------------------------------------------------------- SchemaWriter

namespace asg::json {

void SchemaWriter::Add(std::string_view key, Json schema, bool required) {
  properties_[std::string(key)] = std::move(schema);
  if (required) required_.emplace_back(key);
}

Json SchemaWriter::ValueSchema(const uint8_t&, const Codes& codes) {
  Json schema = {{"type", "integer"}, {"enum", Json::array()}};
  std::string meaning;
  for (const auto& entry : codes.table) {
    schema["enum"].push_back(entry.value);
    meaning +=
        (meaning.empty() ? "" : ", ") + std::to_string(entry.value) + " " + std::string(entry.name);
  }
  schema["description"] = std::string(codes.kind) + ": " + meaning;
  return schema;
}

void SchemaWriter::ApplyLimit(Json& schema, const Limit& limit) {
  if (std::isfinite(limit.low)) {
    schema.erase("minimum");
    schema[limit.low_open ? "exclusiveMinimum" : "minimum"] = limit.low;
  }
  if (std::isfinite(limit.high)) {
    schema.erase("maximum");
    schema[limit.high_open ? "exclusiveMaximum" : "maximum"] = limit.high;
  }
  // Whole-number bounds of integer fields stay integers: "minimum": 1 rather than 1.0.
  if (schema.value("type", "") == "integer") {
    for (const char* bound : {"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"}) {
      if (!schema.contains(bound) || !schema[bound].is_number_float()) continue;
      const double value = schema[bound].get<double>();
      if (value == std::trunc(value)) schema[bound] = static_cast<int64_t>(value);
    }
  }
}

}  // namespace asg::json
