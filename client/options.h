// The command line of asg-client (Boost.Program_options).
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "client/farm/farm.h"
#include "client/replay/replay_batch.h"

namespace asg::client {

/// A command line that cannot be used; the message says why.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// What the command line asks for.
struct ClientCommand {
  enum class Mode : uint8_t {
    kHelp,      ///< print `text` and exit 0
    kVersion,   ///< print `text` and exit 0
    kRun,       ///< run batch_file with settings
    kReplay,    ///< replay the top scenarios of replay.source_dir with settings
    kCheck,     ///< validate batch_file without running it
    kSchema,    ///< print the batch file's JSON Schema
    kReport,    ///< rebuild the HTML report of the batch folder report_dir
    kFailures,  ///< find the distinct failures of the batch folder report_dir again
    kImport,    ///< convert the AutoSceneGen-form requests of batch_file to import_out
    kExport,    ///< write the MCAP recordings of export_dir (a scenario or batch folder)
  };
  Mode mode = Mode::kHelp;
  std::string text;                  ///< help or version text
  std::filesystem::path batch_file;  ///< kRun, kCheck: the batch file; kImport: the requests
  std::filesystem::path import_out;  ///< kImport: the batch file to write; empty: standard output
  std::string schema;                ///< kSchema: "batch", "nodes" or "worker"
  std::filesystem::path report_dir;  ///< kReport, kFailures: the batch folder
  bool allow_invalid = false;        ///< kRun: run the valid scenarios of a batch with invalid ones
  /// The actor catalog scenes are checked against: --catalog, else the one next to the local
  /// workers' executable (run with workers) or next to asg-client (check); empty: no check.
  /// kFailures: the catalog failures are judged with, --catalog or the one next to asg-client.
  std::filesystem::path catalog;
  std::filesystem::path export_dir;  ///< kExport: the scenario folder or batch folder
  std::filesystem::path export_out;  ///< kExport: --out FILE (a scenario folder only); empty:
                                     ///< run.mcap in each scenario folder
  ReplaySettings replay;  ///< kReplay: the source folder, --top or --top-runs, --runs, --captures
  FarmSettings settings;
};

/// Parses argv: `run BATCH --out DIR ...`, `check BATCH`, `import FILE [--out OUT.json]`,
/// `schema`, `report DIR`, `failures DIR [--catalog FILE]`, `export mcap DIR [--out FILE]
/// [--catalog FILE]` or `replay DIR --out NEW_DIR [--top N | --top-runs N] [--runs K]
/// [--captures] ...` (the farm options are the same for run and replay). `failures --help` is
/// the failures command's own help, `export --help` the export command's. No arguments at all is a
/// UsageError whose message holds the usage lines. `self_path` is this executable's path (the
/// worker is looked for next to it). The token comes from --token, else from the environment
/// variable ASG_TOKEN; listening on an address other than loopback requires one. Throws UsageError
/// naming the problem.
ClientCommand ParseClientCommandLine(int argc, const char* const argv[],
                                     const std::filesystem::path& self_path);

}  // namespace asg::client
