// `asg-worker --run-scenario REQUEST.json --out DIR`: one request run in-process, without a
// client, written as the same scenario folder the farm writes (DIR/scenario_NNNN/), captures
// included. Replays a farm scenario from its request.json.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>

#include "protocol/messages.h"
#include "results/folder.h"
#include "scene/actor_catalog.h"
#include "worker/scenario_executor.h"

namespace asg::worker {

/// The scenario folder of a completed request: request.json, result.json (DoneResult with the
/// request's seed, and capture_error), the trajectory and the captures; timing.json with one
/// attempt of `wall_time_s` on `worker_id` whose detail is `detail`.
results::ScenarioRecord CompletedRecord(const protocol::RunScenarioRequest& request,
                                        ScenarioCompleted completed, uint16_t worker_id,
                                        double wall_time_s, const std::string& detail);

/// Runs the request in `request_file` and writes its folder under `out_dir`; prints a one-line
/// outcome to `out`. Returns kWorkerExitOk when the scenario ran (whatever its termination
/// reason), kWorkerExitFailure when its scene could not be created (the folder then records it
/// as invalid) or the folder cannot be written, kWorkerExitUsage when the file cannot be read or
/// is not a valid RunScenario request (nothing is written).
int RunScenarioFile(const std::filesystem::path& request_file, const std::filesystem::path& out_dir,
                    const scene::ActorCatalog& catalog, uint16_t worker_id, std::ostream& out);

}  // namespace asg::worker
