// A run's recording: schemas and channels first, then the messages in time order, then the
// scenario's metadata.
#include "recording/run_recording.h"

#include <algorithm>
#include <span>

#include "core/check.h"
#include "protocol/messages.h"
#include "recording/recording_schemas.h"
#include "recording/run_messages.h"

namespace asg::recording {

namespace {

/// The "scenario" metadata record's entries.
McapKeyValues ScenarioMetadata(const results::StoredScenario& scenario) {
  const results::ScenarioResult& result = scenario.result;
  return {
      {"scenario_number", std::to_string(result.scenario_number)},
      {"seed", std::to_string(result.seed)},
      {"variant", result.variant},
      {"status", std::string(results::ScenarioStatusName(result.status))},
      {"termination_reason", std::to_string(static_cast<int>(result.termination_reason))},
      {"termination_reason_name",
       std::string(protocol::TerminationReasonName(result.termination_reason))},
      {"vehicle_sim_time", Json(result.vehicle_sim_time).dump()},
      {"regret", result.regret.computed ? Json(result.regret.regret).dump() : std::string()},
      {"request", scenario.request.dump()},
  };
}

}  // namespace

std::string_view RecordingSchema(std::string_view name) {
  for (const RecordingSchemaFile& file : RecordingSchemaFiles()) {
    if (file.name.size() == name.size() + 5 && file.name.starts_with(name) &&
        file.name.ends_with(".json")) {
      return file.text;
    }
  }
  return {};
}

std::string RecordRun(const results::StoredScenario& scenario, const catalog::ActorCatalog* catalog,
                      const McapWriterSettings& settings) {
  ASG_CHECK(scenario.result.status == results::ScenarioStatus::kDone &&
            !scenario.trajectory.empty());
  McapWriter writer(settings);
  std::array<uint16_t, kRecordingChannels.size()> ids{};
  for (size_t i = 0; i < kRecordingChannels.size(); ++i) {
    const RecordingChannel& channel = kRecordingChannels[i];
    const std::string_view schema = RecordingSchema(channel.schema);
    ASG_CHECK(!schema.empty());
    const uint16_t schema_id =
        writer.AddSchema(std::string(channel.schema), "jsonschema", std::string(schema));
    ids[i] = writer.AddChannel(schema_id, std::string(channel.topic), "json");
  }
  const auto& trajectory = scenario.trajectory;
  const uint64_t start = SimTimeNanoseconds(trajectory.front().t);
  writer.AddMessage(ids[3], start, SceneUpdate(scenario, catalog, start).dump());
  for (const results::TrajectoryRow& row : trajectory) {
    const uint64_t time = SimTimeNanoseconds(row.t);
    writer.AddMessage(ids[0], time, VehicleTransform(row).dump());
    writer.AddMessage(ids[1], time, VehiclePose(row).dump());
    writer.AddMessage(ids[2], time, VehicleOdometry(row).dump());
  }
  const uint64_t end = std::max(SimTimeNanoseconds(scenario.result.vehicle_sim_time),
                                SimTimeNanoseconds(trajectory.back().t));
  writer.AddMessage(ids[4], end, TerminationEvent(scenario.result, end).dump());
  writer.AddMessage(ids[5], end, TerminationLog(scenario.result, end).dump());
  writer.AddMetadata(std::string(kScenarioMetadataName), ScenarioMetadata(scenario));
  return writer.Finish();
}

}  // namespace asg::recording
