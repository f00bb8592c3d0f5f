// A run's MCAP recording: the channels of docs/recordings.md filled from what a scenario folder
// holds (request.json, result.json, trajectory.csv), with their JSON Schemas embedded, and a
// metadata record of the scenario.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "catalog/actor_catalog.h"
#include "recording/mcap_writer.h"
#include "results/folder.h"

namespace asg::recording {

/// A channel of a recording: its topic and the name of its schema (a file of recording/schemas/
/// without ".json").
struct RecordingChannel {
  std::string_view topic;
  std::string_view schema;
};

/// Every channel of a run's recording, in channel id order (1, 2, ...).
inline constexpr std::array<RecordingChannel, 6> kRecordingChannels{{
    {"/tf", "foxglove.FrameTransform"},
    {"/vehicle/pose", "foxglove.PoseInFrame"},
    {"/vehicle/odometry", "asg.VehicleOdometry"},
    {"/scene", "foxglove.SceneUpdate"},
    {"/events", "asg.Event"},
    {"/log", "foxglove.Log"},
}};

/// The name of the recording's metadata record of the scenario.
inline constexpr std::string_view kScenarioMetadataName = "scenario";

/// The JSON Schema text of the schema `name` (e.g. "foxglove.SceneUpdate"), as embedded; empty
/// when there is none of that name.
std::string_view RecordingSchema(std::string_view name);

/// The MCAP bytes of the run `scenario` (a done scenario with a trajectory, ASG_CHECK): one /tf,
/// /vehicle/pose and /vehicle/odometry message per trajectory sample at its time, the /scene at
/// the first sample's time, the /events termination and its /log line at the end of the run
/// (the later of vehicle_sim_time and the last sample), and the metadata record "scenario"
/// (scenario_number, seed, variant, status, termination_reason, termination_reason_name,
/// vehicle_sim_time, regret, request). Obstacles are drawn with `catalog`'s classes (may be null).
std::string RecordRun(const results::StoredScenario& scenario, const catalog::ActorCatalog* catalog,
                      const McapWriterSettings& settings = {});

}  // namespace asg::recording
