// Tests for json/parse.h: strict parsing refuses repeated keys and deep nesting with their paths.
#include "json/parse.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace asg::json {
namespace {

TEST(ParseJson, GivesLineAndColumnOfSyntaxErrors) {
  try {
    ParseJson("{\"x\": 1,\n \"y\": ,}");
    FAIL() << "no DecodeError";
  } catch (const DecodeError& error) {
    EXPECT_EQ(error.path(), "");
    EXPECT_EQ(std::string(error.what()),
              "invalid JSON: parse error at line 2, column 7: syntax error while parsing value - "
              "unexpected ','; expected '[', '{', or a literal");
  }
}

TEST(ParseJson, RefusesANumberBeyondADouble) {
  try {
    ParseJson(R"({"sim_timeout_period": 1e400})");
    FAIL() << "1e400 was accepted";
  } catch (const DecodeError& error) {
    EXPECT_NE(std::string(error.what()).find("1e400"), std::string::npos) << error.what();
  }
}

TEST(ParseJson, RejectsDuplicateKeysWithTheirPath) {
  try {
    ParseJson(R"({"a": [1, {"b": {}}, {"b": {"c": 1, "c": 2}}], "d": 0})");
    FAIL() << "no DecodeError";
  } catch (const DecodeError& error) {
    EXPECT_EQ(error.path(), "a[2].b.c");
    EXPECT_STREQ(error.what(), "a[2].b.c: duplicate key in one object");
  }
  EXPECT_THROW(ParseJson(R"({"x": 1, "y": 2, "x": 3})"), DecodeError);
}

TEST(ParseJson, BoundsNestingDepth) {
  const std::string deep_ok = std::string(64, '[') + std::string(64, ']');
  EXPECT_NO_THROW(ParseJson(deep_ok));
  const std::string too_deep = std::string(1'000'000, '[');
  try {
    ParseJson(too_deep);
    FAIL() << "no DecodeError";
  } catch (const DecodeError& error) {
    std::string path_of_the_64th_array;
    for (int i = 0; i < 64; ++i) path_of_the_64th_array += "[0]";
    EXPECT_EQ(error.path(), path_of_the_64th_array);
    EXPECT_NE(std::string(error.what()).find("nested deeper than 64 objects and arrays"),
              std::string::npos);
  }
}

// An array of `elements` empty objects, then one whose key "a" is repeated: about 3 bytes per
// element, the shape that made the former error path quadratic.
std::string ManyObjectsThenARepeatedKey(size_t elements) {
  std::string text = "[";
  text.reserve(3 * elements + 20);
  for (size_t i = 0; i < elements; ++i) text += "{},";
  text += R"({"a": 1, "a": 2}])";
  return text;
}

TEST(ParseJson, RefusesARepeatedKeyInTimeLinearInTheText) {
  // 1 MB and 4 MB: a linear refusal takes well under a second for both; the former path (a
  // second parse rescanning the array at each object's end) took 30 s for the first alone.
  constexpr auto kBound = std::chrono::seconds(10);
  const auto start = std::chrono::steady_clock::now();
  for (const size_t elements : {size_t{320'000}, size_t{1'280'000}}) {
    try {
      ParseJson(ManyObjectsThenARepeatedKey(elements));
      FAIL() << "no DecodeError";
    } catch (const DecodeError& error) {
      EXPECT_EQ(error.path(), "[" + std::to_string(elements) + "].a");
      EXPECT_EQ(error.problem(), "duplicate key in one object");
    }
    ASSERT_LT(std::chrono::steady_clock::now() - start, kBound) << elements << " elements";
  }
}

TEST(ParseJson, NamesTheObjectKeysAndIndexesAroundATooDeepContainer) {
  std::string text = R"({"a": [0, {"b": {"c": 1}, "d": )";
  for (int i = 0; i < 64; ++i) text += "[";
  try {
    ParseJson(text);
    FAIL() << "no DecodeError";
  } catch (const DecodeError& error) {
    std::string path = "a[1].d";
    for (int i = 0; i < 61; ++i) path += "[0]";
    EXPECT_EQ(error.path(), path);
  }
}

TEST(ParseJson, ParsesALargeDocumentInTimeLinearInTheText) {
  // 1.28 million small objects (about 12 MB): a plain parse's pace, whatever the shape.
  std::string text = "[";
  for (int i = 0; i < 1'280'000; ++i) text += R"({"k": 1},)";
  text += "{}]";
  const auto start = std::chrono::steady_clock::now();
  const Json parsed = ParseJson(text);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(parsed.size(), 1'280'001u);
}

}  // namespace
}  // namespace asg::json
