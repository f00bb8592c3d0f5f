// `asg-client export mcap`: the recordings of finished runs written from their scenario folders.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "catalog/actor_catalog.h"
#include "results/folder.h"

namespace asg::recording {

/// A folder that cannot be recorded or a recording that cannot be written; the message names
/// the file.
class RecordingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The file name of a scenario folder's recording: "run.mcap".
inline constexpr const char* kRecordingFileName = "run.mcap";

/// Writes the recording of the scenario folder `folder` to `out` atomically (a temporary file
/// renamed into place: a reader never sees a partial recording); returns its size [bytes].
/// Throws RecordingError "<folder>/result.json: ..." when result.json is missing or unreadable,
/// "<folder>/result.json: the scenario did not run (status "invalid": <error>)" for a scenario
/// that ended before running, "<folder>/trajectory.csv: missing: ..." or "...: no samples" for
/// a run without a trajectory, and "<out>.tmp-<pid>: cannot ..." when `out` cannot be written.
size_t ExportScenario(const std::filesystem::path& folder, const std::filesystem::path& out,
                      const catalog::ActorCatalog* catalog);

/// What ExportFolder did.
struct ExportSummary {
  size_t written = 0;  ///< recordings written
  size_t skipped = 0;  ///< scenarios of a batch that did not run (not recorded)
  size_t bytes = 0;    ///< [bytes] in all recordings written
};

/// `dir` a scenario folder (it holds result.json): its recording to `out`, or to
/// dir/run.mcap when `out` is empty. `dir` a batch folder (scenario_NNNN folders): each scenario
/// that ran to dir/scenario_NNNN/run.mcap (`out` must be empty, ASG_CHECK), the others skipped
/// with a line on `log`. One line per recording on `log`. Throws RecordingError as
/// ExportScenario does, and "<dir>: neither a scenario folder (no result.json) nor a batch
/// folder (no scenario_NNNN folder)".
ExportSummary ExportFolder(const std::filesystem::path& dir, const std::filesystem::path& out,
                           const catalog::ActorCatalog* catalog, std::ostream& log);

/// Writes the recording of the run `record` into `folder` (its staged scenario folder) as
/// run.mcap, unsynced (the folder is made durable with its other files); returns false without
/// writing when the scenario did not run or has no trajectory. Throws results::ResultError naming
/// the file when it cannot be written.
bool WriteRunRecording(const results::ScenarioRecord& record, const std::filesystem::path& folder,
                       const catalog::ActorCatalog* catalog);

/// Whether `dir` is a scenario folder (it holds result.json), as opposed to a batch folder.
bool IsScenarioFolder(const std::filesystem::path& dir);

}  // namespace asg::recording
