// The output folder of a run: what it may already hold, and which batch it holds.
//
// A run writes DIR/batch_identity.json: the batch's name, file and identity, a hash of what
// the batch would run (every listed and generated scenario's expanded request, in scenario
// order, and the search section as resolved with the base request its candidates start from).
// Before a run:
// - without --resume, DIR must be missing or empty; --force empties it first;
// - with --resume, DIR must hold the same batch: a different identity is refused, naming the
//   first scenario whose stored request.json differs from the batch's (or, when none does, what
//   else changed). A folder without an identity file (made before identities existed) is
//   accepted when no stored request.json differs.
// Logs of an earlier run (DIR/logs) are kept: moved to DIR/logs.1, DIR/logs.2, ... in turn.
// A folder that is resumed, emptied (--force) or written again holds no symbolic link at any
// depth: the farm writes only inside DIR and follows no link there, so one is refused, named,
// before anything is written or removed. DIR itself may be a link: the folder it names is used.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "client/batch/batch.h"
#include "results/folder.h"

namespace asg::client {

/// The output folder cannot be used for this run (asg-client exits with code 2).
class OutputFolderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The identity of a batch: 16 hex digits of a 64-bit FNV-1a hash (see above).
std::string BatchIdentity(const Batch& batch);

/// How a run may use its output folder.
struct OutputFolderUse {
  bool resume = false;   ///< continue the batch the folder holds
  bool force = false;    ///< empty a non-empty folder first (without resume)
  bool checked = false;  ///< the caller made sure it was empty and wrote into it (replay)
};

/// Checks `dir` for running `batch` (see above), empties it with force, creates it, moves
/// earlier logs aside and writes batch_identity.json. Throws OutputFolderError naming the
/// folder and the problem.
void PrepareOutputFolder(const Batch& batch, const std::filesystem::path& dir,
                         const OutputFolderUse& use);

/// The stored outcome of a scenario to keep on --resume: its folder exists, every file of it
/// reads back strictly (results::LoadCheckedScenarioOutcomeAt), and with `retry_failed` its
/// status is not "failed". nullopt: the scenario is to run; then `*problem` (when given) is why
/// a folder that exists is not kept, naming the file ("DIR/scenario_0007/timing.json: ..."), or
/// empty. `variant`: the scenario's variant in a batch with variants (its folder is
/// scenario_NNNN_<variant>).
std::optional<results::ScenarioOutcome> KeptOutcome(const std::filesystem::path& dir,
                                                    uint32_t scenario_number, bool retry_failed,
                                                    std::string_view variant = {},
                                                    std::string* problem = nullptr);
/// The same for a scenario whose folder is `folder`, whatever its name (a reproduction run's).
std::optional<results::ScenarioOutcome> KeptOutcomeAt(const std::filesystem::path& folder,
                                                      uint32_t scenario_number, bool retry_failed,
                                                      std::string* problem = nullptr);

/// Removes the temporary files of atomic writes ("<name>.tmp-<pid>") a killed run left in
/// `dir`, `dir`/report, every scenario folder and every reproduction run's folder; returns how
/// many. Throws results::ResultError naming a file that cannot be removed.
size_t RemoveStaleTemporaries(const std::filesystem::path& dir);

/// Throws OutputFolderError naming the first symbolic link at any depth inside `dir` (see
/// above; `dir` itself may be one), or when `dir` cannot be listed.
void RequireNoLinks(const std::filesystem::path& dir);

/// Throws OutputFolderError when `dir` exists and is not an empty folder, unless `force`
/// (then empties it, refusing first a folder that holds a link as RequireNoLinks does). For callers
/// that write into the folder before the run (replay).
void RequireEmptyFolder(const std::filesystem::path& dir, bool force);

}  // namespace asg::client
