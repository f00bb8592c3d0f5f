// Output folder checks: empty or forced, or resumed with the same batch identity.
#include "client/farm/output_folder.h"

#include <cstdio>
#include <system_error>

#include "client/failures/reproduction.h"
#include "results/files.h"
#include "results/folder.h"
#include "results/folder_links.h"

namespace asg::client {

namespace fs = std::filesystem;

namespace {

constexpr const char* kIdentityFile = "batch_identity.json";

void Hash(uint64_t* hash, const std::string& text) {
  for (const unsigned char c : text) {
    *hash ^= c;
    *hash *= 1099511628211ull;
  }
  // A separator, so that ("ab", "c") and ("a", "bc") differ.
  *hash ^= 0xff;
  *hash *= 1099511628211ull;
}

size_t CountEntries(const fs::path& dir) {
  std::error_code error;
  size_t count = 0;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    ++count;
  }
  if (error) throw OutputFolderError(dir.string() + ": cannot list the folder: " + error.message());
  return count;
}

// The first planned scenario whose stored request.json differs from the batch's, as a
// message; empty when none does.
std::string FirstDifference(const Batch& batch, const fs::path& dir) {
  for (const PlannedScenario& planned : batch.scenarios) {
    const fs::path stored =
        results::ScenarioFolder(dir, planned.scenario_number, planned.variant) / "request.json";
    std::error_code error;
    if (!fs::exists(stored, error)) continue;
    Json json;
    try {
      json = Json::parse(results::ReadTextFile(stored));
    } catch (const std::exception& e) {
      return "scenario " + std::to_string(planned.scenario_number) + ": " + stored.string() +
             " cannot be read (" + e.what() + ")";
    }
    if (json != planned.request_json) {
      return "scenario " + std::to_string(planned.scenario_number) + " (" + planned.source +
             ") differs from " + stored.string();
    }
  }
  return {};
}

void MoveLogsAside(const fs::path& dir) {
  std::error_code error;
  if (!fs::exists(dir / "logs", error)) return;
  for (int k = 1; k < 100000; ++k) {
    const fs::path aside = dir / ("logs." + std::to_string(k));
    if (fs::exists(aside, error)) continue;
    fs::rename(dir / "logs", aside, error);
    if (error) {
      throw OutputFolderError((dir / "logs").string() + ": cannot keep the earlier logs as " +
                              aside.string() + ": " + error.message());
    }
    return;
  }
}

}  // namespace

std::string BatchIdentity(const Batch& batch) {
  uint64_t hash = 14695981039346656037ull;
  for (const PlannedScenario& planned : batch.scenarios) {
    Hash(&hash, std::to_string(planned.scenario_number));
    Hash(&hash, planned.request_json.dump());
  }
  if (batch.search) {
    const SearchSpec& search = *batch.search;
    Hash(&hash, Json{{"strategy", search.strategy},
                     {"strategy_settings", search.strategy_settings},
                     {"seed", search.seed},
                     {"budget", search.budget_scenarios},
                     {"generation_size", search.generation_size},
                     {"runs_per_scenario", search.runs_per_scenario},
                     {"space", search.space_json},
                     {"first_number", batch.search_first_number}}
                    .dump());
    Hash(&hash, batch.base_request.dump());
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

void RequireNoLinks(const fs::path& dir) {
  std::optional<fs::path> link;
  try {
    link = results::FindLinkInside(dir);
  } catch (const results::ResultError& e) {
    throw OutputFolderError(e.what());
  }
  if (link) {
    throw OutputFolderError(results::DescribeLink(*link) +
                            ": the farm follows no link inside its output folder " + dir.string() +
                            "; remove the link (or use another folder)");
  }
}

size_t RemoveStaleTemporaries(const fs::path& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) return 0;
  size_t removed =
      results::RemoveTemporaryFiles(dir) + results::RemoveTemporaryFiles(dir / "report");
  for (const auto& [number, variant] : results::ListScenarioFolders(dir)) {
    removed += results::RemoveTemporaryFiles(results::ScenarioFolder(dir, number, variant));
  }
  const fs::path reproduce = dir / kReproductionFolder;
  for (fs::directory_iterator it(reproduce, error), end; !error && it != end; it.increment(error)) {
    std::error_code ignored;
    if (it->is_directory(ignored) && !it->is_symlink(ignored)) {
      removed += results::RemoveTemporaryFiles(it->path());
    }
  }
  return removed;
}

void RequireEmptyFolder(const fs::path& dir, bool force) {
  std::error_code error;
  if (!fs::exists(dir, error)) return;
  if (!fs::is_directory(dir, error)) {
    throw OutputFolderError(dir.string() + ": exists and is not a folder");
  }
  const size_t entries = CountEntries(dir);
  if (entries == 0) return;
  if (!force) {
    throw OutputFolderError(dir.string() + " is not empty (" + std::to_string(entries) +
                            " entries): --resume continues the batch it holds, --force empties "
                            "it first");
  }
  RequireNoLinks(dir);
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    std::error_code removed;
    fs::remove_all(it->path(), removed);
    if (removed) {
      throw OutputFolderError(it->path().string() +
                              ": cannot remove (--force): " + removed.message());
    }
  }
}

void PrepareOutputFolder(const Batch& batch, const fs::path& dir, const OutputFolderUse& use) {
  const std::string identity = BatchIdentity(batch);
  std::error_code error;
  // A folder written into again holds no link (an emptied one is checked before emptying).
  if (use.resume || use.checked) RequireNoLinks(dir);
  if (!use.resume) {
    if (!use.checked) RequireEmptyFolder(dir, use.force);
  } else if (fs::exists(dir / kIdentityFile, error)) {
    Json stored;
    try {
      stored = Json::parse(results::ReadTextFile(dir / kIdentityFile));
    } catch (const std::exception& e) {
      throw OutputFolderError((dir / kIdentityFile).string() + ": cannot be read: " + e.what());
    }
    const std::string stored_identity =
        stored.contains("identity") && stored["identity"].is_string() ? stored["identity"] : "";
    if (stored_identity != identity) {
      std::string why = FirstDifference(batch, dir);
      if (why.empty()) {
        why =
            "the scenarios stored so far match, but the batch differs elsewhere (its "
            "scenario count, search section or base request)";
      }
      throw OutputFolderError("--resume: " + dir.string() + " holds another batch (" +
                              (stored.contains("batch") ? stored["batch"].dump() : "?") + " from " +
                              (stored.contains("file") ? stored["file"].dump() : "?") +
                              ", identity " + stored_identity + "; this batch is " + identity +
                              "): " + why);
    }
  } else if (std::string why = FirstDifference(batch, dir); !why.empty()) {
    throw OutputFolderError("--resume: " + dir.string() + " holds another batch: " + why);
  }
  fs::create_directories(dir, error);
  if (error) {
    throw OutputFolderError(dir.string() + ": cannot create the folder: " + error.message());
  }
  MoveLogsAside(dir);
  try {
    results::WriteFileAtomically(
        dir / kIdentityFile,
        results::JsonFileText(Json{{"batch", batch.settings.name},
                                   {"file", batch.origin},
                                   {"identity", identity},
                                   {"scenarios", batch.scenarios.size()},
                                   {"search", batch.search ? batch.search->strategy : ""}}));
  } catch (const std::exception& e) {
    throw OutputFolderError((dir / kIdentityFile).string() + ": cannot be written: " + e.what());
  }
}

std::optional<results::ScenarioOutcome> KeptOutcome(const fs::path& dir, uint32_t scenario_number,
                                                    bool retry_failed, std::string_view variant,
                                                    std::string* problem) {
  return KeptOutcomeAt(results::ScenarioFolder(dir, scenario_number, variant), scenario_number,
                       retry_failed, problem);
}

std::optional<results::ScenarioOutcome> KeptOutcomeAt(const fs::path& folder,
                                                      uint32_t scenario_number, bool retry_failed,
                                                      std::string* problem) {
  std::optional<results::ScenarioOutcome> outcome;
  try {
    outcome = results::LoadCheckedScenarioOutcomeAt(folder, scenario_number);
  } catch (const results::ResultError& error) {
    if (problem != nullptr) *problem = error.what();
    return std::nullopt;
  }
  if (outcome && retry_failed && outcome->result.status == results::ScenarioStatus::kFailed) {
    return std::nullopt;
  }
  return outcome;
}

}  // namespace asg::client
