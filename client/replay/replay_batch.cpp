// The replay batch and its record.
#include "client/replay/replay_batch.h"

#include "client/failures/reproduction.h"
#include "results/files.h"
#include "results/folder.h"

namespace asg::client {

std::string_view ReplayRankingName(ReplayRanking ranking) {
  return ranking == ReplayRanking::kRuns ? "runs" : "distinct_failures";
}

std::string ReplayCaptureName() {
  return "ortho_aerial_pad" + std::to_string(kReplayAerialPadding) + "_annotated.png";
}

std::vector<ReplayRun> PlanReplayRuns(const std::vector<RankedScenario>& top, uint32_t runs) {
  std::vector<ReplayRun> planned;
  uint32_t next_number = 1;
  for (const RankedScenario& source : top) {
    for (uint32_t run = 0; run < runs; ++run) {
      planned.push_back(
          {next_number++, source.scenario_number, run, source.regret, source.variant});
    }
  }
  return planned;
}

Json ReplayRequest(const Json& request, const ReplayRun& run, bool captures) {
  Json replay = RepeatedRunRequest(request, run.scenario_number, run.run);
  if (captures) {
    replay["take_scene_capture"] = true;
    replay["scene_capture_only"] = false;
    // A fresh settings object: every view but the ortho aerial stays at its default (off).
    replay["scene_capture_settings"] = {{"image_size", kReplayImageSize},
                                        {"draw_annotations", true},
                                        {"ortho_aerial", true},
                                        {"aerial_padding", {kReplayAerialPadding}}};
  }
  return replay;
}

Json ReplayBatchJson(const ReplaySettings& settings, const std::vector<ReplayRun>& runs) {
  Json scenarios = Json::array();
  uint32_t loaded_number = 0;
  Json request;
  for (const ReplayRun& run : runs) {
    if (run.source_number != loaded_number) {
      try {
        request = results::ReadJsonFile(
            results::ScenarioFolder(settings.source_dir, run.source_number, run.source_variant) /
            "request.json");
      } catch (const results::ResultError& error) {
        throw ReplayError(error.what());
      }
      loaded_number = run.source_number;
    }
    scenarios.push_back(ReplayRequest(request, run, settings.captures));
  }
  // The replay's runs are its check of the failures: none are reproduced again.
  return {{"name", "replay"},
          {"seed", uint64_t{0}},
          {"failures", {{"reproduce", 0}}},
          {"scenarios", std::move(scenarios)}};
}

Json ReplayRecordJson(const ReplaySettings& settings, const std::vector<ReplayRun>& runs) {
  Json scenarios = Json::array();
  for (const ReplayRun& run : runs) {
    Json entry = {{"scenario_number", run.scenario_number},
                  {"source_scenario", run.source_number},
                  {"run", run.run},
                  {"source_regret", run.source_regret}};
    if (!run.source_variant.empty()) entry["source_variant"] = run.source_variant;
    scenarios.push_back(std::move(entry));
  }
  return {{"source", std::filesystem::absolute(settings.source_dir).lexically_normal().string()},
          {"ranking", ReplayRankingName(settings.ranking)},
          {"top", settings.top},
          {"runs", settings.runs},
          {"captures", settings.captures},
          {"scenarios", std::move(scenarios)}};
}

}  // namespace asg::client
