// Tests for json/parse.h: strict parsing refuses repeated keys and deep nesting with their paths.
#include "json/parse.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace asg::json
