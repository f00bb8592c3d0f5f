// Tests for client/batch/batch.h: the warnings of generated scenarios, grouped.
#include <gtest/gtest.h>

#include <string>

#include "client/batch/batch.h"

namespace asg::client {
namespace {

Batch Parse(const std::string& text) { return ParseBatchText(text, "gen.json", "gen"); }

// Timeouts set, so that no note is printed.
constexpr const char* kTimeouts =
    R"("vehicle_stuck_timeout_period": 5, "vehicle_idling_timeout_period": 5)";

// A start never set and a goal sampled on the edge: the same two warnings of every generated
// scenario, each printed once with the scenarios it concerns.
TEST(CheckWarningsTest, TheSameWarningOfGeneratedScenariosIsPrintedOnce) {
  const Batch batch = Parse(std::string(R"({"defaults": {)") + kTimeouts +
                            R"(, "vehicle_goal_location": {"x": 30, "y": 30, "z": 0}},
      "generate": {"count": 6, "goal": {"x": [0, 0]}}})");
  EXPECT_EQ(CheckWarnings(batch, 10),
            "gen.json: warning: vehicle_start_location.x (not set): 0 lies on the edge of the "
            "landscape [0, 60]: the run is likely to end out of bounds at once (in all 6 "
            "scenarios)\n"
            "gen.json: warning: vehicle_goal_location.x (generated): 0 lies on the edge of the "
            "landscape [0, 60]: the vehicle may leave the landscape on its way to the goal (in "
            "all 6 scenarios)\n");
}

// The same sampled values in some scenarios of the batch: one line with their count and numbers.
TEST(CheckWarningsTest, GeneratedWarningsAreGroupedByTheirText) {
  const Batch batch = Parse(std::string(R"({"defaults": {)") + kTimeouts +
                            R"(, "vehicle_start_location": {"x": 10, "y": 10, "z": 0},
      "vehicle_goal_location": {"x": 30, "y": 30, "z": 0}},
      "scenarios": [{}], "generate": {"count": 3, "goal": {"x": [30, 30], "y": [30, 30]},
                                       "goal_radius": [40, 40]}})");
  EXPECT_EQ(CheckWarnings(batch, 10),
            "gen.json: warning: vehicle_goal_location (generated): 28.28 m from the start, within "
            "goal_radius 40 m: the run succeeds before the vehicle moves (in 3 scenarios: 2, 3, "
            "4)\n");
}

// With variants, a warning of a generated layout is named as generated, once for every variant.
TEST(CheckWarningsTest, VariantsOfAGeneratedLayoutShareItsWarning) {
  const Batch batch = Parse(std::string(R"({"defaults": {)") + kTimeouts +
                            R"(, "vehicle_start_location": {"x": 10, "y": 10, "z": 0}},
      "generate": {"count": 2, "goal": {"x": [60, 60], "y": [30, 30]}},
      "variants": [{"name": "a"}, {"name": "b"}]})");
  EXPECT_EQ(CheckWarnings(batch, 10),
            "gen.json: warning: vehicle_goal_location.x (generated): 60 lies on the edge of the "
            "landscape [0, 60]: the vehicle may leave the landscape on its way to the goal (in "
            "all 4 scenarios)\n");
}

}  // namespace
}  // namespace asg::client
