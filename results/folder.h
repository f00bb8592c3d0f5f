// Result folders: one folder per scenario under a batch's output directory.
//
//   DIR/scenario_0001/request.json    the request as run (pretty JSON, keys in declaration order)
//                                     (DIR/scenario_0001_<variant>/ in a batch with variants)
//                     result.json     ScenarioResult, deterministic (see results/record.h)
//                     timing.json     ScenarioTiming: worker id, wall time, attempt history
//                     trajectory.csv  the vehicle trajectory (see results/trajectory_csv.h)
//                     search.json     a searched scenario's candidate, when any
//                     captures/<name>.png  scene captures, when any
//                     nodes/<node>/...     files vehicle nodes saved, when any (written by
//                                          client/nodes/node_files.h)
//
// A folder is written in full as DIR/.scenario_0001.tmp-<pid>/ (every file fsynced) and then
// renamed into place, so a scenario folder that exists is complete; --resume can trust it.
// Writing a scenario again replaces its folder the same way. Folders of different scenarios
// may be written from different threads at once; one scenario's folder from one thread.
// LoadScenarioOutcome and ReadScenarioFolder read folders back, LoadCheckedScenarioOutcomeAt
// every file of one strictly (what --resume keeps); request.json's scene facts are read by
// results/request_view.h.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/messages.h"
#include "results/record.h"
#include "results/trajectory_csv.h"

namespace asg::results {

/// Everything written into one scenario folder.
struct ScenarioRecord {
  Json request;           ///< the merged request as run (PlannedScenario::request_json)
  ScenarioResult result;  ///< result.json; its `captures` is replaced by the files below
  std::vector<protocol::OdometryWithoutCovariance> trajectory;  ///< trajectory.csv rows
  std::vector<protocol::CaptureImage> captures;                 ///< written as captures/<name>.png
  ScenarioTiming timing;                                        ///< timing.json
  Json search;  ///< search.json when not null: the candidate a search proposed (deterministic)
};

/// A scenario's stored outcome, as read back for summaries and --resume.
struct ScenarioOutcome {
  ScenarioResult result;
  ScenarioTiming timing;
};

/// Whether `name` may name a capture (captures/<name>.png): letters, digits, '_', '-' and '.',
/// not empty, not starting with '.'.
bool IsCaptureName(std::string_view name);

/// "scenario_0001" (four digits at least, more for numbers past 9999); a scenario of a batch
/// with variants has its variant's name after the number: "scenario_0001_planner".
std::string ScenarioFolderName(uint32_t scenario_number, std::string_view variant = {});

/// The scenario number and variant ("" when none) a folder name stands for, the inverse of
/// ScenarioFolderName: "scenario_0007" -> {7, ""}, "scenario_0007_planner" -> {7, "planner"};
/// nullopt for any other name ("scenario_07", "scenario_0007_", "logs", number 0).
std::optional<std::pair<uint32_t, std::string>> ParseScenarioFolderName(std::string_view name);

/// The number and variant ("" when none) of every folder directly under `batch_dir` whose name
/// ParseScenarioFolderName reads (numbers up to protocol::kMaxScenarioNumber), by ascending number
/// (a layout's variants by name); other entries are ignored. Throws ResultError "<batch_dir>:
/// cannot list the folder: <reason>".
std::vector<std::pair<uint32_t, std::string>> ListScenarioFolders(
    const std::filesystem::path& batch_dir);

/// `batch_dir` / ScenarioFolderName(scenario_number, variant).
std::filesystem::path ScenarioFolder(const std::filesystem::path& batch_dir,
                                     uint32_t scenario_number, std::string_view variant = {});

/// Writes the folder of record.result.scenario_number (and .variant) atomically (see above),
/// creating `batch_dir` when needed. result.json's "captures" lists the capture file names in the
/// order given. Throws ResultError on an I/O error or a bad capture name.
void WriteScenarioFolder(const std::filesystem::path& batch_dir, const ScenarioRecord& record);

/// The first half of WriteScenarioFolder, for writing many folders with one sync: writes the
/// folder's files into its staging folder without syncing them and returns that folder. The
/// caller makes them durable (SyncFileSystem) before PublishScenarioFolder.
std::filesystem::path StageScenarioFolder(const std::filesystem::path& batch_dir,
                                          const ScenarioRecord& record);

/// The second half: renames a staged folder into place as scenario `scenario_number`'s folder.
/// The batch folder itself is fsynced only when `sync_parent` is true.
void PublishScenarioFolder(const std::filesystem::path& batch_dir,
                           const std::filesystem::path& staged, uint32_t scenario_number,
                           bool sync_parent, std::string_view variant = {});

/// Whether the scenario's folder exists and holds every file with a result.json for that number.
bool ScenarioFolderComplete(const std::filesystem::path& batch_dir, uint32_t scenario_number,
                            std::string_view variant = {});
/// The same check of the folder `folder` itself, whatever its name (a reproduction run's).
bool ScenarioFolderCompleteAt(const std::filesystem::path& folder, uint32_t scenario_number);

/// The stored result and timing of a scenario, or nullopt when its folder does not exist.
/// Throws ResultError when the folder exists but its files cannot be read or parsed.
std::optional<ScenarioOutcome> LoadScenarioOutcome(const std::filesystem::path& batch_dir,
                                                   uint32_t scenario_number,
                                                   std::string_view variant = {});
/// The same of the folder `folder` itself, whatever its name (a reproduction run's).
std::optional<ScenarioOutcome> LoadScenarioOutcomeAt(const std::filesystem::path& folder,
                                                     uint32_t scenario_number);

/// The stored outcome of a scenario folder a resumed run keeps, each of its files read with its
/// strict reader first: request.json (a JSON object for scenario `scenario_number`), result.json,
/// timing.json, trajectory.csv (its header, whole lines), search.json when present, and every
/// capture result.json lists (a file that is not empty). nullopt when the folder does not exist;
/// throws ResultError naming the first file that is missing or cannot be read.
std::optional<ScenarioOutcome> LoadCheckedScenarioOutcomeAt(const std::filesystem::path& folder,
                                                            uint32_t scenario_number);

/// A scenario folder as read back whole, for showing it (the batch report).
struct StoredScenario {
  ScenarioResult result;                  ///< result.json, read strictly
  std::string result_text;                ///< result.json's bytes
  std::optional<ScenarioTiming> timing;   ///< timing.json, read strictly, when present
  Json request;                           ///< request.json parsed, when present (else null): the
                                          ///< request as run, or as written when it was invalid
  std::string request_text;               ///< request.json's bytes; empty when absent
  std::vector<TrajectoryRow> trajectory;  ///< trajectory.csv's rows, when present
  std::vector<std::string> captures;      ///< file names in captures/, sorted
  std::vector<std::string> node_files;    ///< files under nodes/, relative to it, sorted
  Json search;  ///< search.json parsed, when present (a searched scenario's candidate), else null
  /// result.interventions as JSON (an interactive run a person edited, docs/interactive.md),
  /// else null.
  Json interventions;
};

/// Reads the scenario folder `folder` (a path to the folder itself): result.json, which must
/// exist, and every other file above that does. Throws ResultError naming the file that cannot be
/// read or parsed.
StoredScenario ReadScenarioFolder(const std::filesystem::path& folder);

/// The folder `record` is written as, as ReadScenarioFolder reads it back: its result, request
/// and trajectory rows (TrajectoryRowOf; no timing, captures or node files), for a caller that
/// holds the record and must see what a reader of the folder would.
StoredScenario StoredScenarioOf(const ScenarioRecord& record);

/// Removes leftover staging folders (".scenario_*.tmp-*" and ".scenario_*.old.tmp-*") of an
/// interrupted run from `batch_dir`; returns how many were removed.
size_t RemoveStagingFolders(const std::filesystem::path& batch_dir);

}  // namespace asg::results
