// Tests for client/batch/batch_json.h.
#include "client/batch/batch_json.h"

#include <gtest/gtest.h>

#include <string>

namespace asg::client {
namespace {

TEST(DeepMergeTest, NestedObjectsMergeKeyByKey) {
  const Json base = Json::parse(R"({"a": 1, "o": {"x": 1, "y": 2, "inner": {"p": 1, "q": 2}}})");
  const Json overrides = Json::parse(R"({"o": {"y": 20, "inner": {"q": 3}, "z": 4}, "b": 5})");
  // Keys keep the base's order; keys new in the overrides follow, in their order.
  EXPECT_EQ(DeepMerge(base, overrides).dump(),
            R"({"a":1,"o":{"x":1,"y":20,"inner":{"p":1,"q":3},"z":4},"b":5})");
}

TEST(DeepMergeTest, ArraysAndScalarsReplace) {
  const Json base = Json::parse(R"({"list": [1, 2, 3], "s": "old", "o": {"k": 1}})");
  const Json overrides = Json::parse(R"({"list": [9], "s": 7, "o": [1]})");
  EXPECT_EQ(DeepMerge(base, overrides), Json::parse(R"({"list": [9], "s": 7, "o": [1]})"));
}

TEST(DeepMergeTest, ObjectsOfDifferentTypeReplace) {
  const Json base = Json::parse(R"({"driver": {"type": "planner", "sensor_range": 30}})");
  EXPECT_EQ(DeepMerge(base, Json::parse(R"({"driver": {"type": "straight", "speed": 3}})")),
            Json::parse(R"({"driver": {"type": "straight", "speed": 3}})"));
  EXPECT_EQ(DeepMerge(base, Json::parse(R"({"driver": {"type": "planner", "speed": 3}})")),
            Json::parse(R"({"driver": {"type": "planner", "sensor_range": 30, "speed": 3}})"));
  EXPECT_EQ(DeepMerge(base, Json::parse(R"({"driver": {"speed": 3}})")),
            Json::parse(R"({"driver": {"type": "planner", "sensor_range": 30, "speed": 3}})"));
}

TEST(DeepMergeTest, InputsAreUnchanged) {
  const Json base = Json::parse(R"({"o": {"x": 1}})");
  const Json overrides = Json::parse(R"({"o": {"x": 2}})");
  DeepMerge(base, overrides);
  EXPECT_EQ(base["o"]["x"], 1);
  EXPECT_EQ(overrides["o"]["x"], 2);
}

TEST(PositionOfOffsetTest, CountsLinesAndColumnsFromOne) {
  const std::string text = "ab\ncde\n\nf";
  EXPECT_EQ(PositionOfOffset(text, 0).line, 1u);
  EXPECT_EQ(PositionOfOffset(text, 0).column, 1u);
  EXPECT_EQ(PositionOfOffset(text, 4).line, 2u);
  EXPECT_EQ(PositionOfOffset(text, 4).column, 2u);
  EXPECT_EQ(PositionOfOffset(text, 8).line, 4u);
  EXPECT_EQ(PositionOfOffset(text, 8).column, 1u);
  EXPECT_EQ(PositionOfOffset(text, 100).line, 4u);  // clamped to the end
  EXPECT_EQ(PositionOfOffset(text, 100).column, 2u);
}

TEST(ParseJsonTextTest, SyntaxErrorNamesOriginLineAndColumn) {
  const std::string text = "{\n  \"a\": 1,\n  \"b\": tru\n}\n";
  try {
    ParseJsonText(text, "batch.json");
    FAIL() << "no error";
  } catch (const BatchError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind("batch.json:3:", 0), 0u) << message;
    EXPECT_NE(message.find("malformed JSON"), std::string::npos) << message;
  }
}

TEST(ParseJsonTextTest, MissingCommaPointsAtTheEndOfTheNextKey) {
  const std::string text = "{\"a\": 1\n \"b\": 2}";
  try {
    ParseJsonText(text, "x.json");
    FAIL() << "no error";
  } catch (const BatchError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("x.json:2:4: malformed JSON", 0), 0u) << error.what();
  }
}

TEST(ParseJsonTextTest, RepeatedKeyIsRefusedNamingItsPathAndTheFile) {
  const std::string text =
      "{\n  \"defaults\": {\"goal_radius\": 5.0, \"seed\": 1, \"goal_radius\": 7.0},\n"
      "  \"scenarios\": []\n}\n";
  try {
    ParseJsonText(text, "batch.json");
    FAIL() << "no error";
  } catch (const BatchError& error) {
    EXPECT_STREQ(error.what(), "batch.json: defaults.goal_radius: duplicate key in one object");
  }
  // The same key in two different objects is no repetition.
  const Json parsed = ParseJsonText(R"({"a": {"goal_radius": 1}, "b": {"goal_radius": 2}})", "ok");
  EXPECT_EQ(parsed["b"]["goal_radius"], 2);
}

TEST(ReadTextFileTest, MissingFileNamesTheFile) {
  try {
    ReadTextFile("/nonexistent/asg/batch.json");
    FAIL() << "no error";
  } catch (const BatchError& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/asg/batch.json: cannot read"),
              std::string::npos);
  }
}

TEST(ShortDumpTest, LongValuesAreCut) {
  EXPECT_EQ(ShortDump(Json(3)), "3");
  EXPECT_EQ(ShortDump(Json(std::string(100, 'a'))).size(), 60u);
}

}  // namespace
}  // namespace asg::client
