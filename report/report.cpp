// The batch HTML report (report.h): gathers every scenario folder into report/data.js and the
// pages of report_pages.cpp, and installs the page code of report_assets.h.
#include "report/report.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "protocol/messages_json.h"
#include "report/archive_map.h"
#include "report/csv_table.h"
#include "report/report_assets.h"
#include "report/report_pages.h"
#include "report/scenario_data.h"
#include "results/files.h"
#include "results/folder.h"

namespace asg::report {

namespace fs = std::filesystem;
using json::Json;

namespace {

/// `json[key]` when `json` is an object holding it, else null.
Json Get(const Json& json, const char* key) {
  return json.is_object() && json.contains(key) ? json[key] : Json();
}

/// The timestamp of the first line of the batch's log ("2026-11-25 02:19:39"), when the batch
/// started; null without a log.
Json LogStart(const fs::path& log) {
  std::ifstream file(log);
  std::string line;
  // "[YYYY-MM-DD hh:mm:ss.ffffff] [LEVEL] ..."
  if (!std::getline(file, line) || line.size() < 20 || line[0] != '[') return Json();
  return line.substr(1, 19);
}

/// The failure counts of summary.json beside each other (docs/failures.md): failing scenarios,
/// distinct, reliable (null without reproduction runs) and near misses; null when the summary
/// has no distinct failures (they were not found, or the summary predates them).
Json FailureCounts(const Json& summary) {
  if (Get(summary, "distinct_failures").is_null()) return Json();
  return {{"failing_scenarios", Get(summary, "failing_scenarios")},
          {"distinct_failures", Get(summary, "distinct_failures")},
          {"reliable_failures", Get(summary, "reliable_failures")},
          {"contacts", Get(summary, "contacts")},
          {"page", "failures.html"}};
}

/// Each scenario's failure kind (docs/failures.md) by scenario number, from failures.json: its
/// distinct failure's kind for every member, "contact" for a near miss; empty without the file.
std::map<int64_t, std::string> FailureKinds(const fs::path& batch_dir) {
  std::map<int64_t, std::string> kinds;
  if (!fs::is_regular_file(batch_dir / "failures.json")) return kinds;
  const Json failures = results::ReadJsonFile(batch_dir / "failures.json");
  for (const Json& failure : Get(failures, "failures").is_array() ? failures["failures"] : Json()) {
    const Json kind = Get(failure, "kind"), members = Get(failure, "member_scenarios");
    if (!kind.is_string() || !members.is_array()) continue;
    for (const Json& member : members) {
      if (member.is_number_integer()) kinds[member.get<int64_t>()] = kind.get<std::string>();
    }
  }
  const Json contacts = Get(failures, "contact_scenarios");
  for (const Json& number : contacts.is_array() ? contacts : Json::array()) {
    if (number.is_number_integer()) kinds[number.get<int64_t>()] = "contact";
  }
  return kinds;
}

/// A replay batch's sources by scenario number, from replay.json: the source scenario's page
/// (an absolute path) and number; empty for another batch.
std::map<int64_t, Json> ReplaySources(const fs::path& batch_dir) {
  std::map<int64_t, Json> sources;
  if (!fs::is_regular_file(batch_dir / "replay.json")) return sources;
  const Json replay = results::ReadJsonFile(batch_dir / "replay.json");
  const Json source_dir = Get(replay, "source"), scenarios = Get(replay, "scenarios");
  if (!source_dir.is_string() || !scenarios.is_array()) return sources;
  for (const Json& entry : scenarios) {
    const Json number = Get(entry, "scenario_number"), source = Get(entry, "source_scenario");
    if (!number.is_number_integer() || !source.is_number_unsigned()) continue;
    const Json variant = Get(entry, "source_variant");
    const std::string folder = results::ScenarioFolderName(
        source.get<uint32_t>(), variant.is_string() ? variant.get<std::string>() : "");
    sources[number.get<int64_t>()] = {
        {"number", source},
        {"folder", folder},
        {"page",
         (fs::path(source_dir.get<std::string>()) / folder / "index.html").generic_string()}};
  }
  return sources;
}

/// The interactive runs of the scenario folder `folder` (docs/interactive.md): for each
/// folder/interactive/scenario_*/ with a result.json, its path from the scenario page and
/// whether it has a page of its own (`asg-client report` of folder/interactive).
Json InteractiveRuns(const fs::path& folder) {
  Json runs = Json::array();
  std::error_code error;
  if (!fs::is_directory(folder / "interactive", error)) return runs;
  for (const auto& [number, variant] : results::ListScenarioFolders(folder / "interactive")) {
    const std::string name = results::ScenarioFolderName(number, variant);
    const fs::path run = folder / "interactive" / name;
    if (!fs::is_regular_file(run / "result.json", error)) continue;
    runs.push_back({{"folder", "interactive/" + name},
                    {"page", fs::is_regular_file(run / "index.html", error)}});
  }
  return runs;
}

/// The batch page's facts from summary.json: wall time and throughput are the batch's own
/// (every run that wrote its folders), a resumed run's beside them.
void AddRunFacts(const Json& summary, Json* batch) {
  (*batch)["wall_time_s"] = Get(summary, "wall_time_s");
  (*batch)["scenarios_per_s"] = Get(summary, "scenarios_per_s");
  (*batch)["resumed_run"] = Get(summary, "resumed_run");
}

/// A file's inode, size and modification time as text; "-" when it cannot be read.
std::string FileStamp(const fs::path& file) {
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) return "-";
  return std::to_string(status.st_ino) + ":" + std::to_string(status.st_size) + ":" +
         std::to_string(status.st_mtim.tv_sec) + "." + std::to_string(status.st_mtim.tv_nsec);
}

/// The identity of what ReadScenario reads in `folder`: the folder's inode (its time changes
/// with its page), then each file's stamp.
std::string FolderStamp(const fs::path& folder) {
  struct stat status {};
  std::string stamp = ::stat(folder.c_str(), &status) == 0 ? std::to_string(status.st_ino) : "-";
  for (const char* name : {"result.json", "timing.json", "request.json", "trajectory.csv"}) {
    stamp += ' ';
    stamp += FileStamp(folder / name);
  }
  return stamp;
}

/// Writes the page of every scenario folder of `batch_dir` and returns their table rows, by
/// number (scenario_10000 after scenario_9999), then by name (a layout's variants); each row and
/// page gets its failure kind and a replay's source, each page its interactive runs.
Json WriteScenarioPages(const fs::path& batch_dir, ReportCache* cache) {
  const fs::path absolute_dir = fs::absolute(batch_dir).lexically_normal();
  const std::map<int64_t, std::string> kinds = FailureKinds(batch_dir);
  const std::map<int64_t, Json> sources = ReplaySources(batch_dir);
  Json rows = Json::array();
  // Pages replace the earlier ones atomically, as one group: one sync for all of them. A page
  // already on disk as it would be written (an earlier refresh wrote it) is left alone: no new
  // file, and no rename over the old one (which makes ext4 flush the new file's data).
  results::AtomicFileGroup pages;
  ReportCache own_cache;  // without a cache of the caller's, one for this write alone
  std::vector<std::pair<ReportCache::Entry*, fs::path>> added;  // pages to stamp once committed
  for (const auto& [number, variant] : results::ListScenarioFolders(batch_dir)) {
    const std::string folder = results::ScenarioFolderName(number, variant);
    const fs::path page = batch_dir / folder / "index.html";
    ReportCache::Entry& entry = (cache != nullptr ? cache : &own_cache)->Of(folder);
    const auto kind = kinds.find(number);
    const auto source = sources.find(number);
    Json extras = Json::object();
    extras["failure_kind"] = kind == kinds.end() ? Json() : Json(kind->second);
    extras["source"] = source == sources.end() ? Json() : source->second;
    extras["interactive"] = InteractiveRuns(batch_dir / folder);
    const std::string stamp = FolderStamp(batch_dir / folder);
    if (entry.page_stamp.empty() || entry.stamp != stamp || entry.extras != extras ||
        FileStamp(page) != entry.page_stamp) {
      ReportScenario scenario;
      entry.row = ReadScenario(batch_dir / folder, &scenario);
      entry.stamp = stamp;
      entry.extras = extras;
      entry.page_stamp.clear();
      scenario.page["failure_kind"] = extras["failure_kind"];
      scenario.page["source"] = extras["source"];
      scenario.page["interactive"] = extras["interactive"];
      const std::string replay_request = (absolute_dir / folder / "request.json").generic_string();
      pages.AddIfChanged(page, ScenarioPage(scenario, replay_request));
      added.emplace_back(&entry, page);
    }
    Json row = entry.row;
    row["failure_kind"] = extras["failure_kind"];
    row["source"] = extras["source"];
    rows.push_back(std::move(row));
  }
  pages.Commit();
  for (const auto& [entry, page] : added) entry->page_stamp = FileStamp(page);
  return rows;
}

}  // namespace

bool IsBatchFolder(const fs::path& dir) {
  std::error_code error;
  return fs::is_directory(dir, error) && fs::is_regular_file(dir / "batch_identity.json", error);
}

bool IsInteractiveFolder(const fs::path& dir) {
  std::error_code error;
  const fs::path absolute = fs::absolute(dir).lexically_normal();
  const fs::path folder = absolute.filename().empty() ? absolute.parent_path() : absolute;
  if (folder.filename() != "interactive" || !fs::is_directory(folder, error)) return false;
  if (!results::ParseScenarioFolderName(folder.parent_path().filename().string())) return false;
  for (const auto& [number, variant] : results::ListScenarioFolders(folder)) {
    const fs::path result = results::ScenarioFolder(folder, number, variant) / "result.json";
    if (fs::is_regular_file(result, error)) return true;
  }
  return false;
}

void InstallReportAssets(const fs::path& batch_dir) {
  const fs::path assets = batch_dir / "report";
  std::error_code error;
  fs::create_directories(assets, error);
  if (error) throw ReportError(assets.string() + ": cannot create: " + error.message());
  for (const ReportAsset& asset : ReportAssets()) {
    results::WriteFileAtomically(assets / asset.name, asset.text);
  }
}

void WriteBatchReport(const fs::path& batch_dir, ReportCache* cache) {
  if (!IsBatchFolder(batch_dir) && !IsInteractiveFolder(batch_dir)) {
    throw ReportError(batch_dir.string() + ": not a batch folder (no batch_identity.json)");
  }
  const fs::path absolute_dir = fs::absolute(batch_dir).lexically_normal();
  const Json identity = IsBatchFolder(batch_dir)
                            ? results::ReadJsonFile(batch_dir / "batch_identity.json")
                            : Json{{"batch", "interactive"}};
  Json summary;
  if (fs::is_regular_file(batch_dir / "summary.json")) {
    summary = results::ReadJsonFile(batch_dir / "summary.json");
  }

  InstallReportAssets(batch_dir);
  const Json rows = WriteScenarioPages(batch_dir, cache);

  std::set<int64_t> workers;  // the workers that ran a scenario
  for (const Json& row : rows) {
    if (row["worker"].is_number_integer()) workers.insert(row["worker"].get<int64_t>());
  }
  Json batch = Json::object();
  batch["name"] = summary.is_object() ? Get(summary, "batch") : Get(identity, "batch");
  batch["started"] = LogStart(batch_dir / "asg_log.txt");
  batch["workers"] = workers.size();
  batch["seed"] = Get(summary, "seed");
  AddRunFacts(summary, &batch);
  batch["total"] = Get(summary, "total");
  batch["dir"] = absolute_dir.generic_string();
  batch["failures"] = FailureCounts(summary);
  Json data = Json::object();
  data["batch"] = batch;
  data["rows"] = rows;
  data["search"] = fs::is_regular_file(batch_dir / "search.csv")
                       ? ReadCsvTable(batch_dir / "search.csv")
                       : Json();
  data["archive"] = WriteArchiveMap(batch_dir);
  data["family_trees"] =
      fs::is_regular_file(batch_dir / "family_trees.png") ? Json("family_trees.png") : Json();
  results::WriteFileAtomically(batch_dir / "report" / "data.js",
                               "window.ASG_REPORT = " + ScriptJson(data) + ";\n");
  const Json name = batch["name"];
  results::WriteFileAtomically(batch_dir / "index.html",
                               IndexPage(name.is_string() ? name.get<std::string>() : ""));
}

ReportRefresher::ReportRefresher(fs::path batch_dir, std::chrono::milliseconds period,
                                 std::function<void(const std::string&)> on_error,
                                 ReportCache* cache)
    : batch_dir_(std::move(batch_dir)),
      period_(period),
      on_error_(std::move(on_error)),
      cache_(cache),
      thread_([this] { Loop(); }) {}

ReportRefresher::~ReportRefresher() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_requested_.notify_all();
  thread_.join();
}

void ReportRefresher::Loop() {
  using Clock = std::chrono::steady_clock;
  std::optional<fs::file_time_type> written_for;  // the folder's time of the last write
  Clock::duration pause = period_;
  std::unique_lock lock(mutex_);
  while (!stop_requested_.wait_for(lock, pause, [this] { return stopping_; })) {
    std::error_code error;
    const fs::file_time_type changed = fs::last_write_time(batch_dir_, error);
    if (error || (written_for && *written_for == changed)) continue;
    lock.unlock();
    const auto start = Clock::now();
    try {
      WriteBatchReport(batch_dir_, cache_);
      written_for = changed;
    } catch (const std::exception& failure) {
      if (on_error_) on_error_(failure.what());
    }
    pause = std::max<Clock::duration>(period_, 10 * (Clock::now() - start));
    lock.lock();
  }
}

}  // namespace asg::report
