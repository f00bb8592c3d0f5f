// The JSON messages of a run's recording, one function per channel: Foxglove's well-known
// schemas (foxglove.FrameTransform, PoseInFrame, SceneUpdate, Log) and the project's own
// (asg.VehicleOdometry, asg.Event), built from what a scenario folder holds. Frames: "world"
// (north-west-up, metres, the farm's world frame) and "base_link" (the vehicle: x forward, y left,
// z up). Times are simulated time.
#pragma once

#include <cstdint>

#include "catalog/actor_catalog.h"
#include "json/json.h"
#include "results/folder.h"
#include "results/trajectory_csv.h"

namespace asg::recording {

using json::Json;

/// The world frame's id in every message.
inline constexpr const char* kWorldFrame = "world";
/// The vehicle's frame id.
inline constexpr const char* kVehicleFrame = "base_link";

/// `seconds` of simulated time as nanoseconds, rounded to the nearest (negative: 0).
uint64_t SimTimeNanoseconds(double seconds);

/// A foxglove Time object {"sec", "nsec"} of `nanoseconds`.
Json FoxgloveTime(uint64_t nanoseconds);

/// The foxglove.Quaternion {"x","y","z","w"} of Z-Y-X Euler angles `roll`, `pitch`, `yaw` [deg].
Json QuaternionOfEuler(double roll, double pitch, double yaw);

/// foxglove.FrameTransform world -> base_link at trajectory sample `row`.
Json VehicleTransform(const results::TrajectoryRow& row);

/// foxglove.PoseInFrame: the vehicle's pose in the world frame at `row`.
Json VehiclePose(const results::TrajectoryRow& row);

/// asg.VehicleOdometry at `row`: position [m], speed [m/s], roll, pitch, yaw [deg], body twist.
Json VehicleOdometry(const results::TrajectoryRow& row);

/// foxglove.SceneUpdate of the whole scene at `time` [ns], one entity each: "terrain" (the
/// request's landscape as a triangle list, at most 32 cells a side; left out when the landscape
/// does not decode), "goal" (a sphere of
/// the goal radius), "start" (an arrow at the start pose), "reference_path" and "driven_path"
/// (line strips), and "actor_<entry>_<instance>" per obstacle (a cylinder on the ground of its
/// class's collision radius and nominal height times its scale, in its class's colour, from
/// `catalog`; a 0.5 m by 1 m grey one for a class it does not know or without a catalog).
Json SceneUpdate(const results::StoredScenario& scenario, const catalog::ActorCatalog* catalog,
                 uint64_t time);

/// asg.Event of the run's termination at `time` [ns].
Json TerminationEvent(const results::ScenarioResult& result, uint64_t time);

/// foxglove.Log line (INFO) saying how the run ended, at `time` [ns].
Json TerminationLog(const results::ScenarioResult& result, uint64_t time);

}  // namespace asg::recording
