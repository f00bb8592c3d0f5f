// Tests for worker/serve/request_reader.h: a type's json::Schema read with the interactive
// worker's wording, `path = value: what it must be`, at any depth.
#include "worker/serve/request_reader.h"

#include <gtest/gtest.h>

namespace asg::worker::serve {
namespace {

using json::Json;

struct Inner {
  double x = 0.0;
};

struct Sample {
  std::string name = "none";
  bool flag = false;
  double number = 1.5;
  int small = 3;
  uint64_t count = 1;
  std::vector<Inner> items;
  std::optional<Inner> maybe;
  std::optional<std::string> level;
  Json object;
};

constexpr std::string_view kLevels[] = {"low", "high"};

}  // namespace
}  // namespace asg::worker::serve

namespace asg::json {

template <>
struct Schema<worker::serve::Inner> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("x", m.x);
  }
};

template <>
struct Schema<worker::serve::Sample> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("name", m.name);
    v.Optional("flag", m.flag);
    v.Optional("number", m.number);
    v.Optional("small", m.small, Between(0, 5));
    v.Optional("count", m.count, Between(1, 1000));
    v.Optional("items", m.items);
    v.Optional("maybe", m.maybe);
    v.Optional("level", m.level, worker::serve::OneOf{worker::serve::kLevels});
    v.Optional("object", m.object, worker::serve::AnyObject{});
  }
};

}  // namespace asg::json

namespace asg::worker::serve {
namespace {

/// `text` read over a default Sample.
Sample Read(const std::string& text) {
  Sample sample;
  ReadFields(Json::parse(text), "", &sample);
  return sample;
}

/// The message `text` is refused with.
std::string Refusal(const std::string& text) {
  try {
    Read(text);
  } catch (const std::exception& error) {
    return error.what();
  }
  ADD_FAILURE() << text << " was read";
  return {};
}

TEST(RequestReaderTest, AbsentFieldsKeepTheirValues) {
  const Sample sample = Read("{}");
  EXPECT_EQ(sample.name, "none");
  EXPECT_EQ(sample.number, 1.5);
  EXPECT_EQ(sample.small, 3);
  EXPECT_FALSE(sample.maybe.has_value());
  EXPECT_FALSE(sample.level.has_value());
  EXPECT_TRUE(sample.object.is_null());
}

TEST(RequestReaderTest, PresentFieldsAreRead) {
  const Sample sample = Read(
      R"({"name": "a", "flag": true, "number": -2, "small": 5, "count": 1000,
          "items": [{"x": 1}, {}], "maybe": {"x": 4}, "level": "high", "object": {"k": [1]}})");
  EXPECT_EQ(sample.name, "a");
  EXPECT_TRUE(sample.flag);
  EXPECT_EQ(sample.number, -2.0);
  EXPECT_EQ(sample.small, 5);
  EXPECT_EQ(sample.count, 1000u);
  ASSERT_EQ(sample.items.size(), 2u);
  EXPECT_EQ(sample.items[0].x, 1.0);
  EXPECT_EQ(sample.items[1].x, 0.0);
  ASSERT_TRUE(sample.maybe.has_value());
  EXPECT_EQ(sample.maybe->x, 4.0);
  EXPECT_EQ(sample.level, "high");
  EXPECT_EQ(sample.object, Json::parse(R"({"k": [1]})"));
}

TEST(RequestReaderTest, BadValuesNameThePathAndTheValue) {
  EXPECT_EQ(Refusal(R"({"name": 7})"), "name = 7: must be a string");
  EXPECT_EQ(Refusal(R"({"flag": 1})"), "flag = 1: must be true or false");
  EXPECT_EQ(Refusal(R"({"number": "a"})"), R"(number = "a": must be a number)");
  EXPECT_EQ(Refusal(R"({"small": 6})"), "small = 6: must be an integer in [0, 5]");
  EXPECT_EQ(Refusal(R"({"small": 2.0})"), "small = 2.0: must be an integer in [0, 5]");
  EXPECT_EQ(Refusal(R"({"count": 0})"), "count = 0: must be an integer in [1, 1000]");
  EXPECT_EQ(Refusal(R"({"count": 18446744073709551615})"),
            "count = 18446744073709551615: must be an integer in [1, 1000]");
  EXPECT_EQ(Refusal(R"({"items": {}})"), "items = {}: must be an array");
  EXPECT_EQ(Refusal(R"({"items": [{}, {"x": null}]})"), "items[1].x = null: must be a number");
  EXPECT_EQ(Refusal(R"({"items": [5]})"), "items[0] = 5: must be an object");
  EXPECT_EQ(Refusal(R"({"maybe": {"x": true}})"), "maybe.x = true: must be a number");
  EXPECT_EQ(Refusal(R"({"level": "mid"})"), R"(level = "mid": must be low or high)");
  EXPECT_EQ(Refusal(R"({"object": [1]})"), "object = [1]: must be an object");
}

TEST(RequestReaderTest, ANonFiniteNumberIsRefused) {
  Sample sample;
  EXPECT_THROW(ReadFields(Json{{"number", std::numeric_limits<double>::infinity()}}, "", &sample),
               std::invalid_argument);
}

TEST(RequestReaderTest, ABodyThatIsNoObjectIsTheMessage) {
  Sample sample;
  try {
    ReadFields(Json::array(), "", &sample);
    FAIL() << "an array was read";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "message = []: must be an object");
  }
}

TEST(RequestReaderTest, LongValuesAreCut) {
  const std::string message = Refusal(R"({"name": [")" + std::string(100, 'a') + R"("]})");
  EXPECT_EQ(message, "name = [\"" + std::string(55, 'a') + "...: must be a string");
}

TEST(RequestReaderTest, UnknownFieldsAreRefusedAtAnyDepth) {
  EXPECT_EQ(Refusal(R"({"nmae": "a"})").rfind("nmae: unknown field", 0), 0u);
  EXPECT_EQ(Refusal(R"({"items": [{"y": 1}]})").rfind("items[0].y: unknown field", 0), 0u);
  // A value error before the unknown field is the one reported.
  EXPECT_EQ(Refusal(R"({"bogus": 1, "name": 7})"), "name = 7: must be a string");
}

}  // namespace
}  // namespace asg::worker::serve
