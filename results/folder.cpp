// Writing scenario folders atomically and reading them back.
#include "results/folder.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "results/files.h"
#include "results/folder_links.h"
#include "results/trajectory_csv.h"

namespace asg::results {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFolderFiles[] = {"request.json", "result.json", "timing.json",
                                        "trajectory.csv"};

void CheckCaptureName(const std::string& name, uint32_t scenario_number) {
  if (!IsCaptureName(name)) {
    throw ResultError("scenario " + std::to_string(scenario_number) + ": capture name \"" + name +
                      "\" is not a plain file name");
  }
}

void WriteStagedFiles(const fs::path& staged, const ScenarioRecord& record);

}  // namespace

bool IsCaptureName(std::string_view name) {
  bool ok = !name.empty() && name.front() != '.';
  for (char c : name) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    ok = ok && allowed;
  }
  return ok;
}

std::string ScenarioFolderName(uint32_t scenario_number, std::string_view variant) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "scenario_%04u", scenario_number);
  std::string name = buffer;
  if (!variant.empty()) name.append(1, '_').append(variant);
  return name;
}

std::optional<std::pair<uint32_t, std::string>> ParseScenarioFolderName(std::string_view name) {
  constexpr std::string_view kPrefix = "scenario_";
  if (!name.starts_with(kPrefix)) return std::nullopt;
  const char* first = name.data() + kPrefix.size();
  const char* last = name.data() + name.size();
  uint32_t number = 0;
  const auto [end, error] = std::from_chars(first, last, number);
  if (error != std::errc() || end == first || number == 0) return std::nullopt;
  std::string variant;
  if (end != last) {
    if (*end != '_' || end + 1 == last) return std::nullopt;
    variant.assign(end + 1, last);
  }
  // The name must be the one ScenarioFolderName writes: four digits at least, no extra zeros.
  if (name != ScenarioFolderName(number, variant)) return std::nullopt;
  return std::pair{number, std::move(variant)};
}

std::vector<std::pair<uint32_t, std::string>> ListScenarioFolders(const fs::path& batch_dir) {
  std::error_code error;
  fs::directory_iterator entries(batch_dir, error);
  if (error) {
    throw ResultError(batch_dir.string() + ": cannot list the folder: " + error.message());
  }
  std::vector<std::pair<uint32_t, std::string>> folders;
  for (const fs::directory_entry& entry : entries) {
    // A link is no scenario folder of this batch: its files lie elsewhere.
    if (entry.is_symlink(error) || !entry.is_directory(error)) continue;
    auto parsed = ParseScenarioFolderName(entry.path().filename().string());
    if (parsed && parsed->first <= protocol::kMaxScenarioNumber) {
      folders.push_back(std::move(*parsed));
    }
  }
  std::sort(folders.begin(), folders.end());
  return folders;
}

fs::path ScenarioFolder(const fs::path& batch_dir, uint32_t scenario_number,
                        std::string_view variant) {
  return batch_dir / ScenarioFolderName(scenario_number, variant);
}

void WriteScenarioFolder(const fs::path& batch_dir, const ScenarioRecord& record) {
  const fs::path staged = StageScenarioFolder(batch_dir, record);
  SyncFileSystem(staged);
  PublishScenarioFolder(batch_dir, staged, record.result.scenario_number, /*sync_parent=*/true,
                        record.result.variant);
}

fs::path StageScenarioFolder(const fs::path& batch_dir, const ScenarioRecord& record) {
  const uint32_t number = record.result.scenario_number;
  for (const protocol::CaptureImage& capture : record.captures)
    CheckCaptureName(capture.name, number);

  std::error_code error;
  fs::create_directories(batch_dir, error);
  if (error) throw ResultError(batch_dir.string() + ": cannot create: " + error.message());
  std::string staged_name = ".";  // built by appending: GCC 12 misreports "." + string&&
  staged_name += ScenarioFolderName(number, record.result.variant);
  staged_name += ".tmp-" + std::to_string(::getpid());
  const fs::path staged = batch_dir / staged_name;
  fs::remove_all(staged, error);
  if (!fs::create_directory(staged, error)) {
    throw ResultError(staged.string() + ": cannot create: " + error.message());
  }
  try {
    WriteStagedFiles(staged, record);
  } catch (const ResultError&) {
    fs::remove_all(staged, error);  // no partial staging folder is left behind
    throw;
  }
  return staged;
}

namespace {

// The files of `record` into its (new, empty) staging folder `staged`, unsynced.
void WriteStagedFiles(const fs::path& staged, const ScenarioRecord& record) {
  std::error_code error;
  ScenarioResult result = record.result;
  result.captures.clear();
  if (!record.captures.empty()) {
    const fs::path captures_dir = staged / "captures";
    if (!fs::create_directory(captures_dir, error)) {
      throw ResultError(captures_dir.string() + ": cannot create: " + error.message());
    }
    for (const protocol::CaptureImage& capture : record.captures) {
      const std::string file_name = capture.name + ".png";
      WriteFileUnsynced(captures_dir / file_name, capture.png);
      result.captures.push_back(file_name);
    }
  }
  WriteFileUnsynced(staged / "request.json", JsonFileText(record.request));
  WriteFileUnsynced(staged / "result.json", JsonFileText(ResultToJson(result)));
  WriteFileUnsynced(staged / "timing.json", JsonFileText(TimingToJson(record.timing)));
  WriteFileUnsynced(staged / "trajectory.csv", TrajectoryToCsv(record.trajectory));
  if (!record.search.is_null()) {
    WriteFileUnsynced(staged / "search.json", JsonFileText(record.search));
  }
}

}  // namespace

void PublishScenarioFolder(const fs::path& batch_dir, const fs::path& staged,
                           uint32_t scenario_number, bool sync_parent, std::string_view variant) {
  PublishDirectory(staged, ScenarioFolder(batch_dir, scenario_number, variant), sync_parent);
}

bool ScenarioFolderComplete(const fs::path& batch_dir, uint32_t scenario_number,
                            std::string_view variant) {
  return ScenarioFolderCompleteAt(ScenarioFolder(batch_dir, scenario_number, variant),
                                  scenario_number);
}

bool ScenarioFolderCompleteAt(const fs::path& folder, uint32_t scenario_number) {
  // Links are not followed: a linked folder or file is not this batch's own.
  if (!IsRealFolder(folder)) return false;
  for (const char* file : kFolderFiles) {
    if (!IsRealFile(folder / file)) return false;
  }
  try {
    const Json result = ReadJsonFile(folder / "result.json");
    return result.is_object() && result.contains("scenario_number") &&
           result["scenario_number"] == scenario_number;
  } catch (const ResultError&) {
    return false;
  }
}

std::optional<ScenarioOutcome> LoadScenarioOutcome(const fs::path& batch_dir,
                                                   uint32_t scenario_number,
                                                   std::string_view variant) {
  return LoadScenarioOutcomeAt(ScenarioFolder(batch_dir, scenario_number, variant),
                               scenario_number);
}

std::optional<ScenarioOutcome> LoadScenarioOutcomeAt(const fs::path& folder,
                                                     uint32_t scenario_number) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return std::nullopt;
  const fs::path result_file = folder / "result.json";
  const fs::path timing_file = folder / "timing.json";
  ScenarioOutcome outcome{ResultFromJson(ReadJsonFile(result_file), result_file.string()),
                          TimingFromJson(ReadJsonFile(timing_file), timing_file.string())};
  if (outcome.result.scenario_number != scenario_number) {
    throw ResultError(result_file.string() + ": scenario_number is " +
                      std::to_string(outcome.result.scenario_number) + ", expected " +
                      std::to_string(scenario_number));
  }
  return outcome;
}

namespace {

// Throws ResultError unless `file` is a JSON object whose scenario_number is `scenario_number`.
void CheckStoredRequest(const fs::path& file, uint32_t scenario_number) {
  const Json request = ReadJsonFile(file);
  if (!request.is_object()) throw ResultError(file.string() + ": not a JSON object");
  const auto number = request.find("scenario_number");
  if (number == request.end() || *number != scenario_number) {
    throw ResultError(file.string() + ": scenario_number is " +
                      (number == request.end() ? std::string("missing") : number->dump()) +
                      ", expected " + std::to_string(scenario_number));
  }
}

// Throws ResultError unless every capture `result` lists is a file in `folder`/captures that is
// not empty.
void CheckCaptures(const fs::path& folder, const ScenarioResult& result) {
  for (const std::string& name : result.captures) {
    const fs::path file = folder / "captures" / name;
    std::error_code error;
    if (!fs::is_regular_file(file, error) || fs::file_size(file, error) == 0 || error) {
      throw ResultError(file.string() + ": missing or empty (result.json lists it)");
    }
  }
}

}  // namespace

std::optional<ScenarioOutcome> LoadCheckedScenarioOutcomeAt(const fs::path& folder,
                                                            uint32_t scenario_number) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return std::nullopt;
  for (const char* file : kFolderFiles) {
    if (!fs::is_regular_file(folder / file, error)) {
      throw ResultError((folder / file).string() + ": missing");
    }
  }
  std::optional<ScenarioOutcome> outcome = LoadScenarioOutcomeAt(folder, scenario_number);
  CheckStoredRequest(folder / "request.json", scenario_number);
  const fs::path trajectory_file = folder / "trajectory.csv";
  TrajectoryFromCsv(ReadTextFile(trajectory_file), trajectory_file.string());
  if (fs::is_regular_file(folder / "search.json", error)) ReadJsonFile(folder / "search.json");
  CheckCaptures(folder, outcome->result);
  return outcome;
}

namespace {

// The sorted names of the regular files directly in `folder` (none when it is absent).
std::vector<std::string> FileNames(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code error;
  if (!fs::is_directory(folder, error)) return names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.is_regular_file()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The sorted paths of the regular files under `folder`, relative to it.
std::vector<std::string> FilesUnder(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code error;
  if (!fs::is_directory(folder, error)) return names;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file()) {
      names.push_back(entry.path().lexically_relative(folder).generic_string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

StoredScenario StoredScenarioOf(const ScenarioRecord& record) {
  StoredScenario stored;
  stored.result = record.result;
  stored.request = record.request;
  stored.trajectory.reserve(record.trajectory.size());
  for (const protocol::OdometryWithoutCovariance& sample : record.trajectory) {
    stored.trajectory.push_back(TrajectoryRowOf(sample));
  }
  return stored;
}

StoredScenario ReadScenarioFolder(const fs::path& folder) {
  StoredScenario stored;
  const fs::path result_file = folder / "result.json";
  stored.result_text = ReadTextFile(result_file);
  stored.result =
      ResultFromJson(ParseJsonText(stored.result_text, result_file), result_file.string());
  if (!stored.result.interventions.empty()) stored.interventions = stored.result.interventions;
  if (fs::is_regular_file(folder / "timing.json")) {
    const fs::path timing_file = folder / "timing.json";
    stored.timing = TimingFromJson(ReadJsonFile(timing_file), timing_file.string());
  }
  if (fs::is_regular_file(folder / "request.json")) {
    stored.request_text = ReadTextFile(folder / "request.json");
    stored.request = ParseJsonText(stored.request_text, folder / "request.json");
  }
  if (fs::is_regular_file(folder / "trajectory.csv")) {
    const fs::path trajectory_file = folder / "trajectory.csv";
    stored.trajectory = TrajectoryFromCsv(ReadTextFile(trajectory_file), trajectory_file.string());
  }
  if (fs::is_regular_file(folder / "search.json")) {
    stored.search = ReadJsonFile(folder / "search.json");
  }
  stored.captures = FileNames(folder / "captures");
  stored.node_files = FilesUnder(folder / "nodes");
  return stored;
}

size_t RemoveStagingFolders(const fs::path& batch_dir) {
  std::error_code error;
  if (!fs::is_directory(batch_dir, error)) return 0;
  size_t removed = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(batch_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(".scenario_") && name.find(".tmp-") != std::string::npos) {
      fs::remove_all(entry.path(), error);
      if (error) throw ResultError(entry.path().string() + ": cannot remove: " + error.message());
      ++removed;
    }
  }
  return removed;
}

}  // namespace asg::results
