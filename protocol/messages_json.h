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
// Json is nlohmann::ordered_json: objects keep their keys in insertion order, so encoded messages
// and the JSON files written from them list fields in declaration order, as the spec does.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "protocol/json_declare.h"
#include "protocol/messages.h"

namespace asg::protocol {

using Json = nlohmann::ordered_json;

/// A JSON value that does not decode into the message asked for.
class DecodeError : public std::runtime_error {
 public:
  DecodeError(std::string path, const std::string& what)
      : std::runtime_error(path.empty() ? what : path + ": " + what),
        path_(std::move(path)),
        problem_(what) {}
  /// The JSON path of the offending value, e.g. "scene_description.ssa_array[1].yaw".
  const std::string& path() const { return path_; }
  /// What is wrong with it, without the path, e.g. "must be > 0, got -1".
  const std::string& problem() const { return problem_; }

 private:
  std::string path_;
  std::string problem_;
};

// to_json, from_json and Decode of every message (see json_declare.h).
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
ASG_DECLARE_JSON(RunCounters);
ASG_DECLARE_JSON(RunVariation);
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

/// Decodes a whole message; errors carry paths relative to the message root.
template <class T>
T DecodeMessage(const Json& j) {
  T value;
  Decode(j, "", &value);
  return value;
}

/// Parses JSON text strictly: a syntax error throws DecodeError with an empty path and a message
/// giving the line and column; a key repeated within one object (which a plain parse would
/// silently resolve to the last value) throws DecodeError with the key's path, and so does
/// nesting deeper than 64 objects and arrays.
Json ParseJson(std::string_view text);

/// ParseJson then DecodeMessage<T>: text in, message out, every failure a DecodeError.
template <class T>
T ParseMessage(std::string_view text) {
  return DecodeMessage<T>(ParseJson(text));
}

}  // namespace asg::protocol
