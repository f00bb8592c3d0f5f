// The result of the interactive worker's ended run: its AnalyzeScenario JSON (regret included,
// GetResult) and, for a scenario opened from a result folder, a scenario folder of the farm's
// format written under FOLDER/interactive/ (docs/interactive.md, "The result folder").
#pragma once

#include <cstdint>
#include <filesystem>

#include "json/json.h"
#include "scene/live_run.h"
#include "worker/serve/interventions.h"
#include "worker/serve/logs.h"
#include "worker/serve/scene_captures.h"

namespace asg::worker::serve {

/// What the ended run left. Not thread-safe: use on the session's thread.
class RunResults {
 public:
  /// `worker_id` is written into results.
  explicit RunResults(uint16_t worker_id) : worker_id_(worker_id) {}

  /// A scenario was loaded from `folder` (empty: not from a folder); no result yet.
  void Loaded(const std::filesystem::path& folder);
  /// A fresh run began: no result yet.
  void Clear();
  /// Records the end of `live`'s run (ended()) with its `interventions`: the result JSON and,
  /// when the scenario came from a folder, its scenario folder with the captures the request
  /// asks for, rendered by `captures` (the vehicle's jumps drawn as gaps). What happened is
  /// logged in `logs`: the end, or why the folder was not written.
  void RunEnded(const scene::LiveRun& live, const InterventionLog& interventions,
                SceneCaptures& captures, SessionLogs& logs);

  /// The AnalyzeScenario JSON of the ended run (regret, termination_reason_name and, when there
  /// were any, interventions included; an aborted run: {aborted, reason, time}), or null before
  /// an end.
  const json::Json& result_json() const { return result_json_; }
  /// Where the ended run's folder was written, or empty.
  const std::filesystem::path& result_folder() const { return result_folder_; }
  /// The folder the scenario was opened from, or empty.
  const std::filesystem::path& folder() const { return folder_; }

 private:
  /// Writes the scenario folder of the run ended with `analysis` under folder_/interactive.
  void WriteFolder(const scene::LiveRun& live, const protocol::AnalyzeScenarioRequest& analysis,
                   const InterventionLog& interventions, SceneCaptures& captures,
                   SessionLogs& logs);

  uint16_t worker_id_;
  std::filesystem::path folder_;
  json::Json result_json_;
  std::filesystem::path result_folder_;
};

}  // namespace asg::worker::serve
