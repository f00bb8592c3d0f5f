// asg-client: runs a batch of scenarios on a pool of asg-worker processes, finds the distinct
// failures of a finished one again, replays its top failures, or exports recordings of its runs.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "client/batch/autoscenegen_import.h"
#include "client/batch/batch.h"
#include "client/batch/batch_schema.h"
#include "client/batch/scene_checks.h"
#include "client/failures/batch_failures.h"
#include "client/failures/failures_file.h"
#include "client/farm/batch_report.h"
#include "client/farm/farm.h"
#include "client/farm/output_folder.h"
#include "client/options.h"
#include "client/replay/replay_run.h"
#include "client/search/search_run.h"
#include "core/open_files.h"
#include "protocol/node_messages.h"
#include "protocol/worker_protocol_schema.h"
#include "recording/export.h"
#include "report/report.h"

namespace {

/// Whether the finished batch folder `dir` may be written again: it is one (it holds
/// batch_identity.json, or with `interactive_too` is a scenario's interactive/ folder) and holds
/// no symbolic link (output_folder.h); else says why on `err`.
bool WritableBatchFolder(const std::filesystem::path& dir, std::ostream& err,
                         bool interactive_too = false) {
  // A scenario's interactive/ folder (its own runs) may get a report as a batch folder does.
  if (!asg::report::IsBatchFolder(dir) &&
      !(interactive_too && asg::report::IsInteractiveFolder(dir))) {
    err << "asg-client: " << dir.string() << ": not a batch folder (no batch_identity.json)\n";
    return false;
  }
  try {
    asg::client::RequireNoLinks(dir);
  } catch (const asg::client::OutputFolderError& error) {
    err << "asg-client: " << error.what() << "\n";
    return false;
  }
  return true;
}

/// `asg-client failures DIR`: the failures pass again, at the threshold and with the reproduction
/// runs per failure DIR/failures.json records (else the default threshold and none), the
/// failures page, and its table on `out`. Returns the exit code.
int RunFailures(const asg::client::ClientCommand& command, std::ostream& out, std::ostream& err) {
  using asg::client::kExitSomeFailed;
  using asg::client::kExitUsage;
  const std::filesystem::path& dir = command.report_dir;
  if (!WritableBatchFolder(dir, err)) return kExitUsage;
  std::optional<asg::client::FailureReader> reader;
  try {
    reader.emplace(command.catalog);
  } catch (const asg::client::FailuresError& error) {
    err << "asg-client: " << error.what() << "\n";
    return kExitUsage;
  }
  try {
    asg::client::BatchFailures recorded;  // the default threshold, no reproduction runs
    if (std::filesystem::exists(dir / "failures.json")) {
      recorded = asg::client::ReadFailuresJson(dir);
    }
    const asg::client::BatchFailures found = asg::client::UpdateBatchFailures(
        dir, *reader, recorded.regret_threshold, recorded.reproduce);
    asg::client::WriteFailuresPage(dir, found);
    out << asg::client::FormatFailuresTable(found)
        << "failures: " << (dir / "failures.csv").string() << ", "
        << (dir / "failures.json").string() << ", " << (dir / "failures.html").string() << "\n";
  } catch (const std::exception& error) {
    err << "asg-client: " << error.what() << "\n";
    return kExitSomeFailed;
  }
  return 0;
}

/// `asg-client export mcap DIR [--out FILE]`: the recordings of DIR's runs, one line each.
/// Returns the exit code: 0 written, 2 a folder that cannot be recorded or a file not written.
int RunExport(const asg::client::ClientCommand& command, std::ostream& out, std::ostream& err) {
  if (!command.export_out.empty() && !asg::recording::IsScenarioFolder(command.export_dir)) {
    err << "asg-client: --out names one file: give a scenario folder (DIR/scenario_NNNN), or "
           "leave --out out to record every scenario of a batch into its folder\n";
    return asg::client::kExitUsage;
  }
  // Without a readable catalog obstacles keep a default size and colour.
  std::optional<asg::catalog::ActorCatalog> catalog;
  std::error_code ignored;
  if (!command.catalog.empty() && std::filesystem::exists(command.catalog, ignored)) {
    try {
      catalog = asg::catalog::ActorCatalog::FromFile(command.catalog.string());
    } catch (const asg::catalog::CatalogError& error) {
      err << "asg-client: " << error.what() << "\n";
      return asg::client::kExitUsage;
    }
  }
  try {
    const asg::recording::ExportSummary summary = asg::recording::ExportFolder(
        command.export_dir, command.export_out, catalog ? &*catalog : nullptr, out);
    out << summary.written << " recording(s), " << summary.bytes << " bytes";
    if (summary.skipped > 0) out << ", " << summary.skipped << " scenario(s) skipped (not run)";
    out << "\n";
  } catch (const asg::recording::RecordingError& error) {
    err << "asg-client: " << error.what() << "\n";
    return asg::client::kExitUsage;
  }
  return 0;
}

/// `asg-client report DIR`: the batch report written again. Returns the exit code.
int RunReport(const asg::client::ClientCommand& command) {
  if (!WritableBatchFolder(command.report_dir, std::cerr, /*interactive_too=*/true)) {
    return asg::client::kExitUsage;
  }
  try {
    asg::client::WriteBatchReportWithFailures(command.report_dir);
  } catch (const std::exception& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitSomeFailed;
  }
  std::cout << "report: " << (command.report_dir / "index.html").string() << "\n";
  return 0;
}

/// `asg-client replay`: the top failures of a batch run again. Returns the exit code.
int RunReplayCommand(const asg::client::ClientCommand& command) {
  // The process boundary, as for run below.
  try {
    return asg::client::RunReplay(command.replay, command.settings, std::cout, std::cerr);
  } catch (const asg::client::OutputFolderError& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitSomeFailed;
  }
}

/// `asg-client import FILE [--out OUT.json]`: the AutoSceneGen-form requests of FILE as a batch
/// file in the farm's units, written to OUT.json or standard output. Returns the exit code: 2
/// when FILE cannot be read or imported (the message names the file, JSON path and value), 3
/// when OUT.json cannot be written.
int RunImport(const asg::client::ClientCommand& command) {
  std::string text;
  try {
    const asg::client::Json batch = asg::client::ImportAutoSceneGenText(
        asg::client::ReadTextFile(command.batch_file), command.batch_file.string());
    text = batch.dump(2) + "\n";
  } catch (const asg::client::BatchError& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitUsage;
  }
  if (command.import_out.empty()) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(command.import_out, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "asg-client: " << command.import_out.string() << ": cannot be written\n";
    return asg::client::kExitOutputFailed;
  }
  return 0;
}

/// Plans the batch file into `batch`, its scenes' actor classes checked against the catalog the
/// workers will use when it is known and readable (remote workers may have their own). Returns
/// false after saying why on stderr.
bool LoadBatch(const asg::client::ClientCommand& command, asg::client::Batch* batch) {
  std::optional<asg::client::ActorClasses> classes;
  std::error_code ignored_error;
  if (!command.catalog.empty() && std::filesystem::exists(command.catalog, ignored_error)) {
    try {
      classes = asg::client::ReadActorClasses(command.catalog);
    } catch (const asg::client::BatchError& error) {
      std::cerr << "asg-client: " << error.what() << "\n";
      return false;
    }
  }
  try {
    *batch = asg::client::LoadBatchFile(command.batch_file, classes ? &*classes : nullptr);
  } catch (const asg::client::BatchError& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return false;
  }
  return true;
}

/// `asg-client check` and `asg-client run`: the batch checked, then (run) run on the farm, its
/// search (if any) feeding the farm more scenarios. Returns the exit code.
int RunBatch(const asg::client::ClientCommand& command) {
  using asg::client::ClientCommand;
  asg::client::Batch batch;
  if (!LoadBatch(command, &batch)) return asg::client::kExitUsage;
  // Checked before anything runs.
  if (command.mode == ClientCommand::Mode::kCheck) {
    std::cout << asg::client::CheckReport(batch);
    return batch.CountInvalid() == 0 ? 0 : asg::client::kExitUsage;
  }
  if (batch.CountInvalid() > 0 && !command.allow_invalid) {
    std::cerr << asg::client::CheckReport(batch, 5)
              << "asg-client: nothing was run; fix the invalid scenarios, or give --allow-invalid "
                 "to record them as invalid and run the others\n";
    return asg::client::kExitUsage;
  }
  // Runs that may hardly mean anything are named before anything runs.
  std::cerr << asg::client::CheckWarnings(batch, 5) << asg::client::TimeoutNote(batch);
  // The process boundary: a farm that cannot start or go on ends with a message; one whose
  // output folder cannot be made or written is a usage error naming the path.
  try {
    return asg::client::RunFarm(batch, command.settings, std::cout,
                                asg::client::SearchFeedFor(batch, command.settings));
  } catch (const asg::client::OutputFolderError& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitUsage;
  } catch (const std::filesystem::filesystem_error& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitSomeFailed;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using asg::client::ClientCommand;
  std::error_code ignored;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ignored);
  ClientCommand command;
  try {
    command = asg::client::ParseClientCommandLine(argc, argv, self.empty() ? argv[0] : self);
  } catch (const asg::client::UsageError& error) {
    std::cerr << "asg-client: " << error.what() << "\n(see asg-client --help)\n";
    return asg::client::kExitUsage;
  }
  if (command.mode == ClientCommand::Mode::kHelp || command.mode == ClientCommand::Mode::kVersion) {
    std::cout << command.text;
    return 0;
  }
  if (command.mode == ClientCommand::Mode::kSchema) {
    const asg::json::Json schema = command.schema == "nodes" ? asg::protocol::NodeProtocolSchema()
                                   : command.schema == "worker"
                                       ? asg::protocol::WorkerProtocolSchema()
                                       : asg::client::BatchSchema();
    std::cout << schema.dump(2) << "\n";
    return 0;
  }
  if (command.mode == ClientCommand::Mode::kReport) return RunReport(command);
  if (command.mode == ClientCommand::Mode::kImport) return RunImport(command);
  if (command.mode == ClientCommand::Mode::kExport) return RunExport(command, std::cout, std::cerr);
  if (command.mode == ClientCommand::Mode::kFailures) {
    return RunFailures(command, std::cout, std::cerr);
  }
  command.settings.live_progress = ::isatty(STDOUT_FILENO) == 1;
  // Every worker connection holds a descriptor, and the result writer opens files beside them.
  asg::core::RaiseOpenFileLimit();
  if (command.mode == ClientCommand::Mode::kReplay) return RunReplayCommand(command);
  return RunBatch(command);
}
