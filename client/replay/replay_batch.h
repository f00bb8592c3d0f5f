// The batch of `asg-client replay`: the top scenarios of a finished batch (one representative
// per distinct failure, or the runs by regret: replay_rank.h), each run again `runs`
// times with its request unchanged but for the scenario number, the run variation and (with
// captures) the scene capture settings.
//
// The batch is an ordinary batch file, written as NEW_DIR/replay_batch.json so that it can be run
// again by hand: {"name": "replay", "seed": 0, "failures": {"reproduce": 0}, "scenarios": [<full
// request>, ...]} (its runs are themselves the check of the failures: none reproduced again). Each
// override is the source's request.json with "scenario_number" renumbered (1, 2, 3... in rank
// order, `runs` consecutive numbers per source scenario) and "variation.run" set to 0..runs-1; the
// request's own "seed" is kept, so run 0 repeats the source run exactly (protocol/extensions.h
// RunVariation). NEW_DIR/replay.json records which source scenario each new number replays.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "client/batch/batch_json.h"
#include "client/replay/replay_rank.h"

namespace asg::client {

/// How `asg-client replay` picks the scenarios it replays.
enum class ReplayRanking : uint8_t {
  kDistinctFailures,  ///< --top: one representative per distinct failure (failures.json)
  kRuns,              ///< --top-runs: the scenarios by regret, copies of one failure included
};

/// "distinct_failures" or "runs", as replay.json names the ranking.
std::string_view ReplayRankingName(ReplayRanking ranking);

/// What `asg-client replay` is asked for.
struct ReplaySettings {
  std::filesystem::path source_dir;                          ///< the finished batch's output folder
  ReplayRanking ranking = ReplayRanking::kDistinctFailures;  ///< what is ranked
  uint32_t top = 10;      ///< how many distinct failures or scenarios of the ranking, >= 1
  uint32_t runs = 3;      ///< runs of each, variation.run 0..runs-1, >= 1
  bool captures = false;  ///< add an annotated ortho aerial capture to every run
};

/// Padding of the ortho aerial a replay with captures asks for. [m]
inline constexpr uint32_t kReplayAerialPadding = 5;
/// Side of the captured images of a replay with captures. [px]
inline constexpr uint32_t kReplayImageSize = 512;

/// The capture file (in captures/) of a replay with captures: "ortho_aerial_pad5_annotated.png".
std::string ReplayCaptureName();

/// One scenario of the replay batch.
struct ReplayRun {
  uint32_t scenario_number = 0;  ///< its number in the replay batch
  uint32_t source_number = 0;    ///< the scenario of the source batch it replays
  uint32_t run = 0;              ///< its variation.run
  double source_regret = 0.0;    ///< the source scenario's regret
  std::string source_variant;    ///< the source scenario's variant, "" when none
  bool operator==(const ReplayRun&) const = default;
};

/// The runs of a replay of `top` (rank order), `runs` of each: numbers 1, 2, 3... in order.
std::vector<ReplayRun> PlanReplayRuns(const std::vector<RankedScenario>& top, uint32_t runs);

/// `request` (a source request.json) as replay run `run`: scenario_number and variation.run
/// replaced, and with `captures` take_scene_capture true and scene_capture_settings asking for
/// an annotated ortho aerial with kReplayAerialPadding at kReplayImageSize (other views off).
Json ReplayRequest(const Json& request, const ReplayRun& run, bool captures);

/// The replay batch file's JSON (see above) for `runs`, reading each source request from
/// settings.source_dir. Throws ReplayError naming a request.json that cannot be read.
Json ReplayBatchJson(const ReplaySettings& settings, const std::vector<ReplayRun>& runs);

/// replay.json: source (the folder), ranking (ReplayRankingName), top, runs, captures and
/// "scenarios", one object per run with scenario_number, source_scenario, run and source_regret.
Json ReplayRecordJson(const ReplaySettings& settings, const std::vector<ReplayRun>& runs);

}  // namespace asg::client
