// Tests for json/fields.h, json/wording.h, json/short_text.h and json/range.h: one field list
// decoding, encoding and describing a small type, and a type whose wording is its own.
#include "json/fields.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "json/declare.h"
#include "json/range.h"
#include "json/short_text.h"

namespace asg::json::testing {

enum class Shape : uint8_t { kBox, kBall };

struct Span {
  double min = 0.0;
  double max = 1.0;
};

struct Probe {
  std::string name;
  double size = 1.0;
  uint32_t count = 2;
  Shape shape = Shape::kBox;
  std::optional<double> weight;
  std::vector<double> values;
  std::array<int, 2> pair{0, 0};
  Span span;
};
ASG_DECLARE_JSON(Probe);

/// A field always present whose value may be null.
struct Nullable {
  std::optional<uint32_t> id;
};
ASG_DECLARE_JSON(Nullable);

/// The same fields as Probe's, worded the way a hypothetical config file words them.
struct Worded {
  uint32_t count = 2;
  bool enabled = false;
};
ASG_DECLARE_JSON(Worded);

class PlainWording : public Wording {
 public:
  bool checks_values() const override { return true; }
  void CheckValue(const Json& j, const std::string& path, const Expected& expected) const override {
    if (expected.kind == Expected::Kind::kInteger && !j.is_number_unsigned()) {
      throw DecodeError(path, "wants a count");
    }
    if (expected.kind == Expected::Kind::kInteger && !Within(j.get<double>(), expected.limit)) {
      throw DecodeError(path, "wants a count " + BoundText(expected.limit));
    }
  }
  DecodeError Unknown(const std::string& object_path, const UnknownKey& unknown) const override {
    return DecodeError(object_path, "has no key " + Quoted(unknown.key));
  }
};
inline const PlainWording kPlainWording;

constexpr std::array<NamedValue<Shape>, 2> kShapeTable{
    {{Shape::kBox, "box"}, {Shape::kBall, "ball"}}};
constexpr Names<Shape> kShapes{"shape", kShapeTable};

}  // namespace asg::json::testing

namespace asg::json {

template <>
struct Schema<testing::Probe> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("name", m.name);
    v.Optional("size", m.size, kPositive);
    v.Optional("count", m.count, Between(1, 10));
    v.Optional("shape", m.shape, testing::kShapes);
    v.Optional("weight", m.weight);
    v.Optional("values", m.values, kNonNegative);
    v.Optional("pair", m.pair);
    v.Optional("span", m.span, kNumberOrRange);
  }
};

template <>
struct Schema<testing::Nullable> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("id", m.id);
  }
};

template <>
struct Schema<testing::Worded> {
  static constexpr const char* kName = "WordedSettings";
  static constexpr const Wording* kWording = &testing::kPlainWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("count", m.count, Between(1, 10));
    v.Optional("enabled", m.enabled);
  }
};

}  // namespace asg::json

namespace asg::json::testing {

ASG_DEFINE_JSON(Probe)
ASG_DEFINE_JSON(Nullable)
ASG_DEFINE_JSON(Worded)

namespace {

template <class T>
std::string ErrorOf(const std::string& text) {
  try {
    T value;
    Decode(Json::parse(text), "probe", &value);
  } catch (const DecodeError& error) {
    return error.what();
  }
  return "no error";
}

TEST(FieldReader, DecodesEveryKindOfField) {
  Probe probe;
  Decode(Json::parse(R"({"name": "a", "size": 2.5, "count": 3, "shape": "ball", "weight": 4,
                         "values": [1, 2], "pair": [5, 6], "span": [0.5, 2]})"),
         "", &probe);
  EXPECT_EQ(probe.name, "a");
  EXPECT_EQ(probe.size, 2.5);
  EXPECT_EQ(probe.count, 3u);
  EXPECT_EQ(probe.shape, Shape::kBall);
  ASSERT_TRUE(probe.weight.has_value());
  EXPECT_EQ(*probe.weight, 4.0);
  EXPECT_EQ(probe.values, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(probe.pair, (std::array<int, 2>{5, 6}));
  EXPECT_EQ(probe.span.min, 0.5);
  EXPECT_EQ(probe.span.max, 2.0);
  // Absent fields keep their defaults; an absent optional stays empty.
  Decode(Json::parse(R"({"name": "b", "span": 3})"), "", &probe);
  EXPECT_EQ(probe.size, 1.0);
  EXPECT_FALSE(probe.weight.has_value());
  EXPECT_EQ(probe.span.min, 3.0);
  EXPECT_EQ(probe.span.max, 3.0);
}

TEST(FieldReader, NamesAnUnknownKeyAndTheKeyItLikelyMisspells) {
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "sise": 2})"),
            "probe.sise: unknown field; did you mean \"size\"?");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "colour": 2})"),
            "probe.colour: unknown field (fields: \"name\", \"size\", \"count\", \"shape\", "
            "\"weight\", \"values\", \"pair\", \"span\")");
  // Two neighbouring characters swapped are one slip.
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "szie": 2})"),
            "probe.szie: unknown field; did you mean \"size\"?");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "shpae": "box"})"),
            "probe.shpae: unknown field; did you mean \"shape\"?");
  // One character is too short to be a likely slip.
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "z": 2})").rfind("probe.z: unknown field (fields:", 0),
            0u);
}

TEST(FieldReader, ReportsAMissingRequiredFieldAfterUnknownKeys) {
  EXPECT_EQ(ErrorOf<Probe>(R"({"size": 2})"), "probe.name: missing required field");
  EXPECT_EQ(ErrorOf<Probe>(R"({"nane": "a"})"),
            "probe.nane: unknown field; did you mean \"name\"?");
}

TEST(FieldReader, ChecksTypesAndLimits) {
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "size": -1})"), "probe.size: must be > 0, got -1");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "count": 11})"),
            "probe.count: must be in [1, 10], got 11");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "values": [1, -2]})"),
            "probe.values[1]: must be >= 0, got -2");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "pair": [1, 2, 3]})"),
            "probe.pair: expected an array of 2 values, got an array [1,2,3]");
  EXPECT_EQ(
      ErrorOf<Probe>(R"({"name": "a", "shape": "bal"})"),
      "probe.shape: unknown value \"bal\"; did you mean \"ball\"? (one of \"box\", \"ball\")");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": 3})"), "probe.name: expected a string, got number 3");
}

TEST(NumberOrRange, TakesANumberOrAnOrderedPair) {
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "span": [5, 1]})"), "probe.span: min > max in [5,1]");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "span": "1"})"),
            "probe.span: expected a number or [min, max], got \"1\"");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "span": [1, 2, 3]})"),
            "probe.span: expected a number or [min, max], got [1,2,3]");
  EXPECT_EQ(ErrorOf<Probe>(R"({"name": "a", "span": [1, "b"]})"),
            "probe.span[1]: expected a number, got string \"b\"");
}

TEST(FieldWriter, WritesFieldsInTheListsOrderAndLeavesOutAnUnsetOptional) {
  Probe probe;
  probe.name = "a";
  probe.values = {1.5};
  EXPECT_EQ(Json(probe).dump(),
            R"({"name":"a","size":1.0,"count":2,"shape":"box","values":[1.5],"pair":[0,0],)"
            R"("span":[0.0,1.0]})");
  probe.weight = 2.0;
  EXPECT_EQ(Json(probe)["weight"], 2.0);
  Probe back;
  Decode(Json(probe), "", &back);
  EXPECT_EQ(back.weight, probe.weight);
  EXPECT_EQ(back.span.max, 1.0);
}

TEST(SchemaWriter, DescribesTheFieldsFromTheSameList) {
  SchemaBuilder builder(SchemaBuilder::Mode::kStrict);
  EXPECT_EQ(SchemaRef<Probe>(builder), Json::parse(R"({"$ref": "#/$defs/Probe"})"));
  const Json& probe = builder.defs().at("Probe");
  std::vector<std::string> keys;
  for (const auto& [key, value] : probe["properties"].items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "size", "count", "shape", "weight", "values",
                                            "pair", "span"}));
  EXPECT_EQ(probe["required"], Json::parse(R"(["name"])"));
  EXPECT_EQ(probe["additionalProperties"], false);
  EXPECT_EQ(probe["properties"]["size"]["exclusiveMinimum"], 0.0);
  EXPECT_EQ(probe["properties"]["count"]["minimum"], 1);
  EXPECT_EQ(probe["properties"]["count"]["maximum"], 10);
  EXPECT_EQ(probe["properties"]["count"]["default"], 2);
  EXPECT_EQ(probe["properties"]["shape"]["enum"], Json::parse(R"(["box", "ball"])"));
  EXPECT_FALSE(probe["properties"]["weight"].contains("default"));  // an unset optional
  EXPECT_EQ(probe["properties"]["pair"]["minItems"], 2);
  EXPECT_EQ(probe["properties"]["span"]["$ref"], "#/$defs/Range");
  EXPECT_TRUE(builder.defs().contains("Range"));
}

TEST(FieldVisitor, ARequiredOptionalIsNullWhenEmpty) {
  Nullable value;
  EXPECT_EQ(Json(value).dump(), R"({"id":null})");
  value.id = 3;
  EXPECT_EQ(Json(value).dump(), R"({"id":3})");
  Nullable back;
  Decode(Json::parse(R"({"id": 4})"), "", &back);
  EXPECT_EQ(back.id, std::optional<uint32_t>(4));
  Decode(Json::parse(R"({"id": null})"), "", &back);
  EXPECT_FALSE(back.id.has_value());
  EXPECT_EQ(ErrorOf<Nullable>("{}"), "probe.id: missing required field");
  EXPECT_EQ(ErrorOf<Nullable>(R"({"id": -1})").rfind("probe.id: ", 0), 0u);
  SchemaBuilder builder(SchemaBuilder::Mode::kStrict);
  SchemaRef<Nullable>(builder);
  const Json& schema = builder.defs().at("Nullable");
  EXPECT_EQ(schema["required"], Json::parse(R"(["id"])"));
  EXPECT_EQ(schema["properties"]["id"]["anyOf"][0]["type"], "integer");
  EXPECT_EQ(schema["properties"]["id"]["anyOf"][1], Json::parse(R"({"type": "null"})"));
}

TEST(Wording, ATypeWordsItsErrorsItsOwnWay) {
  EXPECT_EQ(ErrorOf<Worded>(R"({"count": "x"})"), "probe.count: wants a count");
  EXPECT_EQ(ErrorOf<Worded>(R"({"count": 12})"), "probe.count: wants a count in [1, 10]");
  EXPECT_EQ(ErrorOf<Worded>(R"({"cont": 1})"), "probe: has no key \"cont\"");
  // What the wording leaves alone is worded the protocol's way.
  EXPECT_EQ(ErrorOf<Worded>(R"({"enabled": 1})"),
            "probe.enabled: expected true or false, got number 1");
  EXPECT_EQ(ErrorOf<Worded>("[]"), "probe: expected an object, got an array []");
  SchemaBuilder builder(SchemaBuilder::Mode::kStrict);
  EXPECT_EQ(SchemaRef<Worded>(builder), Json::parse(R"({"$ref": "#/$defs/WordedSettings"})"));
}

// A value quoted in a message is cut short, never within a UTF-8 sequence, and rendered in time
// that does not grow with the value (a frame may carry a megabyte-long string or array).
TEST(Wording, QuotesLargeValuesShortAndCutsBetweenCharacters) {
  EXPECT_EQ(ShortDump(Json::parse(R"({"a":[1,2.5,"x"],"b":null})")),
            R"({"a":[1,2.5,"x"],"b":null})");
  const std::string cut = ShortJson(Json(std::string(35, 'a') + "\u00e9\u00e9"), 40);
  EXPECT_EQ(cut, "\"" + std::string(35, 'a') + "...");  // not half of the first e-acute
  EXPECT_EQ(CutText("\u00e9\u00e9\u00e9", 5), "\u00e9...");
  EXPECT_EQ(ShortJson(Json(std::vector<int>(5'000'000, 7)), 40),
            "[7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,...");
  const Json huge_key = {{std::string(4'000'000, 'k'), 1}};
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ShortJson(huge_key, 40).size(), 40u);
  // A 4 MB unknown key is named cut short, and the search for the key it misspells costs
  // nothing: no name lies within a few edits of it.
  try {
    Probe probe;
    Decode(Json{{"name", "a"}, {std::string(4'000'000, 'x'), 1}}, "", &probe);
    FAIL() << "no DecodeError";
  } catch (const DecodeError& error) {
    EXPECT_EQ(error.path(), std::string(125, 'x') + "...");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace asg::json::testing
