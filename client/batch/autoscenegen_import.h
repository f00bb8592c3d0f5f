// `asg-client import`: RunScenario requests written in AutoSceneGen's own wire form (centimetres
// in Unreal's left-handed frame, protocol/autoscenegen_units.h) turned into a batch file in the
// farm's units, which `asg-client check` and `run` take as they take any batch.
#pragma once

#include <string>
#include <string_view>

#include "client/batch/batch_json.h"

namespace asg::client {

/// The batch file in the farm's units for `root`, read from `origin` (a file name for messages):
/// - one RunScenario request object, or a JSON array of them: each in AutoSceneGen's units
///   (its "units", optional, must be "autoscenegen"), converted exactly and checked strictly as a
///   whole RunScenarioRequest, becomes one entry of "scenarios" holding the keys it gave, without
///   "units"; its scenario_number is kept when 1..2147483647 (not repeated), left out when 0 or
///   absent (the batch numbers it);
/// - a batch file (an object with "defaults", "scenarios" or "variants") with "units":
///   "autoscenegen": the same batch with its defaults, scenarios and variants converted and
///   without "units", every other key as written.
/// goal_shere_color is written goal_sphere_color. Throws BatchError "<origin>: <path>:
/// <problem>" naming the JSON path of the input and the value (a converted value in metres).
Json ImportAutoSceneGen(const Json& root, const std::string& origin);

/// ParseJsonText then ImportAutoSceneGen; a syntax error names the line and column.
Json ImportAutoSceneGenText(std::string_view text, const std::string& origin);

}  // namespace asg::client
