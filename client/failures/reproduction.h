// Reproduction runs (docs/failures.md, "Reproduction"): at the end of a batch or search the farm
// runs each distinct failure's representative again `reproduce` times (failures.reproduce, K),
// with variation.run 1..K (the documented start-pose jitter and noise seeds of RunVariation; the
// same seed and scene). Each run has a scenario number of its own, after the batch's last one in
// failure-id order, then by run, and a folder of its own under DIR/reproduce/ named after the
// representative's folder and the run: DIR/reproduce/scenario_0042_run_1/. Those folders are not
// scenario folders of the batch (results::ListScenarioFolders does not list them), so they never
// become failures of the batch themselves.
//
// A failure is reproduced by a run that is a failure at the batch's regret threshold
// (failures::ClassifyRun) whose signature is the same failure as the representative's
// (failures::SameFailure); it is reliable when at least ReliableMinimum(K) of its K runs
// reproduce it (3 of 5). Judged from the folders alone, like the rest of failures.csv.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "client/failures/batch_failures.h"
#include "json/json.h"

namespace asg::client {

/// The folder under a batch folder that holds the reproduction runs.
inline constexpr std::string_view kReproductionFolder = "reproduce";

/// Where reproduction run `run` of scenario `representative` (of `variant`, "" when none) goes,
/// relative to the batch folder: "reproduce/scenario_0042_run_1",
/// "reproduce/scenario_0003_planner_run_2".
std::string ReproductionFolderName(uint32_t representative, std::string_view variant, uint32_t run);

/// The fewest reproducing runs out of `reproduce` that make a failure reliable: ceil(0.6 *
/// reproduce), 3 of 5; 0 for 0.
uint32_t ReliableMinimum(uint32_t reproduce);

/// Whether `cluster`'s reproduction runs, `reproduce` per failure, make it reliable: judged,
/// reproduce > 0 and reproduced >= ReliableMinimum(reproduce).
bool IsReliable(const failures::FailureCluster& cluster, uint32_t reproduce);

/// How many of `found`'s distinct failures are reliable (IsReliable at found.reproduce).
size_t ReliableFailures(const BatchFailures& found);

/// How many reproduction runs of `found` ran: the sum of every judged failure's runs.
size_t ReproductionRuns(const BatchFailures& found);

/// One reproduction run, as the farm plans it.
struct ReproductionRun {
  uint32_t scenario_number = 0;  ///< its own number, after the batch's last one
  uint32_t representative = 0;   ///< the scenario it runs again
  std::string variant;           ///< the representative's variant, "" when none
  uint32_t run = 0;              ///< its variation.run, 1..reproduce
  std::string folder;            ///< ReproductionFolderName: relative to the batch folder
  bool operator==(const ReproductionRun&) const = default;
};

/// The reproduction runs of `found`'s distinct failures, `reproduce` of each, in failure-id
/// order and then by run, numbered `first_number`, `first_number` + 1, ... Throws FailuresError
/// when the last number would pass protocol::kMaxScenarioNumber.
std::vector<ReproductionRun> PlanReproductionRuns(const BatchFailures& found, uint32_t reproduce,
                                                  uint32_t first_number);

/// `request` (a request as request.json holds it) as another run of the same scenario: numbered
/// `scenario_number`, with variation.run `run`; everything else, its seed included, unchanged.
json::Json RepeatedRunRequest(const json::Json& request, uint32_t scenario_number, uint32_t run);

/// `request` (the representative's request.json) as reproduction run `run` numbered
/// `scenario_number`: RepeatedRunRequest, without scene captures (take_scene_capture false unless
/// the request is scene_capture_only), which are taken after the run and do not change it.
json::Json ReproductionRequest(const json::Json& request, uint32_t scenario_number, uint32_t run);

/// Judges the reproduction runs 1..`reproduce` of every distinct failure of `found` (whose
/// `failing` and `done` FindBatchFailures filled) from their folders under `batch_dir`: a folder
/// that is missing or holds a run that was not done (invalid, failed) does not count; every other
/// run counts in `runs` and `reproduction_folders`, and in `reproduced` when it failed the same
/// way as the representative. A failure none of whose runs counts stays unjudged (reproduced,
/// runs and reproduction_folders absent). Sets found->reproduce; with `reproduce` 0 judges
/// nothing. Throws
/// FailuresError or results::ResultError naming a file that cannot be read or judged.
void CheckReproductions(const std::filesystem::path& batch_dir, FailureReader& reader,
                        uint32_t reproduce, BatchFailures* found);

}  // namespace asg::client
