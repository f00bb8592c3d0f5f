// Tests for protocol/autoscenegen_units.h.
#include "protocol/autoscenegen_units.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "protocol/messages_json.h"
#include "tests/protocol/autoscenegen_builder.h"
#include "tests/protocol/message_samples.h"

namespace asg::protocol {
namespace {

using testing::Sample;

// `request` as AutoSceneGen's scenario builder hands it to Unreal, with "units" saying so.
Json AsTheBuilderSendsIt(const RunScenarioRequest& request) {
  Json j = testing::AsTheBuilderSendsIt(Json(request));
  j["units"] = "autoscenegen";
  return j;
}

TEST(AutoSceneGenUnitsTest, ARequestBuiltAsTheScenarioBuilderBuildsOneDecodesToTheFarmsRequest) {
  RunScenarioRequest request = Sample<RunScenarioRequest>();
  request.scene_description.landscape.border = 7.5;
  const Json sent = AsTheBuilderSendsIt(request);
  EXPECT_EQ(sent["vehicle_start_location"]["y"], -1000.0);
  EXPECT_EQ(sent["vehicle_start_yaw"], -45.0);
  EXPECT_EQ(DecodeMessage<RunScenarioRequest>(sent), request);
  EXPECT_FALSE(Json(DecodeMessage<RunScenarioRequest>(sent)).contains("units"));
}

TEST(AutoSceneGenUnitsTest, EachValueIsConvertedWithOneCorrectlyRoundedOperation) {
  RunScenarioRequest request = Sample<RunScenarioRequest>();
  request.vehicle_start_location = Point{12.37, -4.1, 0};
  request.vehicle_start_yaw = 0;
  request.goal_radius = 3.3;
  const RunScenarioRequest decoded =
      DecodeMessage<RunScenarioRequest>(AsTheBuilderSendsIt(request));
  EXPECT_EQ(decoded.vehicle_start_location.x, (12.37 * 100.) / 100.);
  EXPECT_EQ(decoded.vehicle_start_location.y, 0.0 - (-4.1 * -100.) / 100.);
  EXPECT_DOUBLE_EQ(decoded.vehicle_start_location.y, -4.1);
  EXPECT_DOUBLE_EQ(decoded.goal_radius, 3.3);
  // A zero yaw stays +0 (JSON 0.0, not -0.0).
  EXPECT_FALSE(std::signbit(decoded.vehicle_start_yaw));
}

TEST(AutoSceneGenUnitsTest, OnlyThePresentFieldsOfPartialOverridesAreConverted) {
  Json overrides = Json::parse(R"({"goal_radius": 250, "scene_description": {"ssa_array": [
      {"x": [100, "not a number"], "y": [-300], "yaw": [90]}]}})");
  ConvertAutoSceneGenUnits(&overrides);
  EXPECT_EQ(overrides, Json::parse(R"({"goal_radius": 2.5, "scene_description": {"ssa_array": [
      {"x": [1.0, "not a number"], "y": [3.0], "yaw": [-90.0]}]}})"));
}

TEST(AutoSceneGenUnitsTest, OtherUnitsAreRefusedWithTheirPath) {
  Json j = Json(Sample<RunScenarioRequest>());
  j["units"] = "metres";
  try {
    DecodeMessage<RunScenarioRequest>(j);
    ADD_FAILURE() << "units \"metres\" decoded";
  } catch (const DecodeError& error) {
    EXPECT_EQ(error.path(), "units");
    EXPECT_NE(std::string(error.what()).find("\"metres\""), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace asg::protocol
