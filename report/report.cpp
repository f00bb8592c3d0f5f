// The batch HTML report (report.h): gathers every scenario folder into report/data.js and the
// pages of report_pages.cpp, and installs the page code of report_assets.h.
#include "report/report.h"

#include <algorithm>
#include <fstream>
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

}  // namespace

bool IsBatchFolder(const fs::path& dir) {
  std::error_code error;
  return fs::is_directory(dir, error) && fs::is_regular_file(dir / "batch_identity.json", error);
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

void WriteBatchReport(const fs::path& batch_dir) {
  if (!IsBatchFolder(batch_dir)) {
    throw ReportError(batch_dir.string() + ": not a batch folder (no batch_identity.json)");
  }
  const fs::path absolute_dir = fs::absolute(batch_dir).lexically_normal();
  const Json identity = results::ReadJsonFile(batch_dir / "batch_identity.json");
  Json summary;
  if (fs::is_regular_file(batch_dir / "summary.json")) {
    summary = results::ReadJsonFile(batch_dir / "summary.json");
  }

  // Scenario folders by number (scenario_10000 after scenario_9999), then by name (a layout's
  // variants).
  std::vector<std::string> folders;
  for (const auto& [number, variant] : results::ListScenarioFolders(batch_dir)) {
    folders.push_back(results::ScenarioFolderName(number, variant));
  }

  InstallReportAssets(batch_dir);

  Json rows = Json::array();
  // Pages replace the earlier ones atomically, as one group: one sync for all of them.
  results::AtomicFileGroup pages;
  for (const std::string& folder : folders) {
    ReportScenario scenario;
    rows.push_back(ReadScenario(batch_dir / folder, &scenario));
    const std::string replay_request = (absolute_dir / folder / "request.json").generic_string();
    pages.Add(batch_dir / folder / "index.html", ScenarioPage(scenario, replay_request));
  }
  pages.Commit();

  std::set<int64_t> workers;  // the workers that ran a scenario
  for (const Json& row : rows) {
    if (row["worker"].is_number_integer()) workers.insert(row["worker"].get<int64_t>());
  }
  Json batch = Json::object();
  batch["name"] = summary.is_object() ? Get(summary, "batch") : Get(identity, "batch");
  batch["started"] = LogStart(batch_dir / "asg_log.txt");
  batch["workers"] = workers.size();
  batch["seed"] = Get(summary, "seed");
  batch["wall_time_s"] = Get(summary, "wall_time_s");
  batch["scenarios_per_s"] = Get(summary, "scenarios_per_s");
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
  results::WriteFileAtomically(batch_dir / "report" / "data.js",
                               "window.ASG_REPORT = " + ScriptJson(data) + ";\n");
  const Json name = batch["name"];
  results::WriteFileAtomically(batch_dir / "index.html",
                               IndexPage(name.is_string() ? name.get<std::string>() : ""));
}

ReportRefresher::ReportRefresher(fs::path batch_dir, std::chrono::milliseconds period,
                                 std::function<void(const std::string&)> on_error)
    : batch_dir_(std::move(batch_dir)),
      period_(period),
      on_error_(std::move(on_error)),
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
      WriteBatchReport(batch_dir_);
      written_for = changed;
    } catch (const std::exception& failure) {
      if (on_error_) on_error_(failure.what());
    }
    pause = std::max<Clock::duration>(period_, 10 * (Clock::now() - start));
    lock.lock();
  }
}

}  // namespace asg::report
