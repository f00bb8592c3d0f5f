// JSON encoding and strict decoding of every message in messages.h, geometry.h and extensions.h.
//
// Encoding lists fields in declaration order. Decoding is strict: a missing required field, a
// wrong type, an out-of-range or unknown enum value, or inconsistent arrays throw DecodeError
// whose message names the JSON path and the value, e.g.
//   scene_description.ssa_array[1].yaw: 3 values, num_instances is 4
// Extension fields and fields the specification marks optional have defaults when missing.
// Unknown keys are rejected (they are almost always a typo), with the nearest known field
// suggested. ReliefFeature and DriverSpec write and accept only the fields of their "type".
// Numbers must be finite (NaN and infinities encode as null, which no field accepts); an integer
// field takes any integral number within its C++ type's range.
//
// Decoding also enforces the ranges messages.h and extensions.h document for a field (e.g.
// subdivisions 0..10, scale > 0, octaves 1..12, control_rate dividing physics_rate), so a bad
// request fails at the boundary with its path rather than deep inside a run.
//
// Json and DecodeError are json/json.h's; the field lists are json/fields.h's visitor.
#pragma once

#include <string>
#include <string_view>

#include "json/declare.h"
#include "json/json.h"
#include "json/parse.h"
#include "protocol/messages.h"

namespace asg::protocol {

using json::DecodeError;
using json::Json;

// to_json, from_json and Decode of every message (see json/declare.h).
ASG_DECLARE_JSON(Time);
ASG_DECLARE_JSON(Header);
ASG_DECLARE_JSON(ColorRGBA);
ASG_DECLARE_JSON(Point);
ASG_DECLARE_JSON(Vector3);
ASG_DECLARE_JSON(Quaternion);
ASG_DECLARE_JSON(Pose);
ASG_DECLARE_JSON(Twist);
ASG_DECLARE_JSON(ReliefFeature);
ASG_DECLARE_JSON(ScriptedCommand);
ASG_DECLARE_JSON(DriverSpec);
ASG_DECLARE_JSON(VehicleParams);
ASG_DECLARE_JSON(SimulationSettings);
ASG_DECLARE_JSON(FirstContact);
ASG_DECLARE_JSON(RunCounters);
ASG_DECLARE_JSON(RunVariation);
ASG_DECLARE_JSON(RegretSpec);
ASG_DECLARE_JSON(RegretReport);
ASG_DECLARE_JSON(CaptureFile);
ASG_DECLARE_JSON(TrajectoryAttachment);
ASG_DECLARE_JSON(LandscapeDescription);
ASG_DECLARE_JSON(OdometryWithoutCovariance);
ASG_DECLARE_JSON(PhysXControl);
ASG_DECLARE_JSON(SceneCaptureSettings);
ASG_DECLARE_JSON(StructuralSceneActorLayout);
ASG_DECLARE_JSON(SceneDescription);
ASG_DECLARE_JSON(StatusCode);
ASG_DECLARE_JSON(VehicleNodeOperatingInfo);
ASG_DECLARE_JSON(VehicleStatus);
ASG_DECLARE_JSON(AnalyzeScenarioRequest);
ASG_DECLARE_JSON(AnalyzeScenarioResponse);
ASG_DECLARE_JSON(NotifyReadyRequest);
ASG_DECLARE_JSON(NotifyReadyResponse);
ASG_DECLARE_JSON(RegisterVehicleNodeRequest);
ASG_DECLARE_JSON(RegisterVehicleNodeResponse);
ASG_DECLARE_JSON(RunScenarioRequest);
ASG_DECLARE_JSON(RunScenarioResponse);
ASG_DECLARE_JSON(WorkerIssueNotificationRequest);
ASG_DECLARE_JSON(WorkerIssueNotificationResponse);

/// Renames `goal_shere_color` (the spelling of AutoSceneGen's documentation page) to
/// `goal_sphere_color` in every `scene_capture_settings` object within `j`, so that partial
/// requests written with either spelling merge into one field. An object that holds both keeps
/// both, for the decoder to refuse.
void SpellGoalSphereColor(Json* j);

/// Decodes a whole message; errors carry paths relative to the message root.
template <class T>
T DecodeMessage(const Json& j) {
  T value;
  Decode(j, "", &value);
  return value;
}

/// ParseJson then DecodeMessage<T>: text in, message out, every failure a DecodeError.
template <class T>
T ParseMessage(std::string_view text) {
  return DecodeMessage<T>(json::ParseJson(text));
}

}  // namespace asg::protocol
