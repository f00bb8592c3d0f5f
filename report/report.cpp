// The batch HTML report (report.h): gathers every scenario folder into report/data.js and the
// pages of report_pages.cpp, and installs the page code of report_assets.h.
#include "report/report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "protocol/messages_json.h"
#include "report/report_assets.h"
#include "report/report_pages.h"
#include "results/files.h"
#include "results/folder.h"
#include "results/request_view.h"
#include "terrain/landscape.h"

namespace asg::report {

namespace fs = std::filesystem;
using json::Json;

namespace {

/// `json[key]` when `json` is an object holding it, else null.
Json Get(const Json& json, const char* key) {
  return json.is_object() && json.contains(key) ? json[key] : Json();
}

/// The padding [m] of an ortho aerial capture name ("ortho_aerial_pad5..." -> 5), -1 otherwise.
int OrthoPadding(std::string_view name) {
  constexpr std::string_view kPrefix = "ortho_aerial_pad";
  if (!name.starts_with(kPrefix)) return -1;
  int padding = -1;
  const char* first = name.data() + kPrefix.size();
  const auto [ptr, error] = std::from_chars(first, name.data() + name.size(), padding);
  return error == std::errc() && ptr != first ? padding : -1;
}

/// The table's thumbnail: the first annotated ortho aerial, else the first ortho aerial, else
/// the first annotated view; empty without one.
std::string Thumbnail(const std::vector<std::string>& captures) {
  for (const auto& name : captures) {
    if (OrthoPadding(name) >= 0 && name.ends_with("_annotated.png")) return name;
  }
  for (const auto& name : captures) {
    if (OrthoPadding(name) >= 0 && name.ends_with(".png")) return name;
  }
  for (const auto& name : captures) {
    if (name.ends_with("_annotated.png")) return name;
  }
  return "";
}

/// The plain ortho aerial the trajectory is drawn over (the annotated one when it is the only
/// one); empty without one.
std::string OrthoBackground(const std::vector<std::string>& captures) {
  for (const auto& name : captures) {
    if (OrthoPadding(name) >= 0 && name.ends_with(".png") && !name.ends_with("_annotated.png")) {
      return name;
    }
  }
  for (const auto& name : captures) {
    if (OrthoPadding(name) >= 0 && name.ends_with(".png")) return name;
  }
  return "";
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

/// Cells per side of the relief height grid a scenario page draws contours of.
constexpr int kReliefGrid = 48;

/// The relief's heights on a kReliefGrid + 1 square grid over [0, size] [m] (x-major, rounded to
/// the centimetre), or null when the request has no relief features (a flat landscape) or its
/// landscape does not decode.
Json ReliefHeights(const Json& landscape, double size) {
  protocol::LandscapeDescription description;
  try {
    protocol::Decode(landscape, "", &description);
  } catch (const json::DecodeError&) {
    return Json();
  }
  if (description.relief.empty() || !(size > 0.0)) return Json();
  Json heights = Json::array();
  for (int i = 0; i <= kReliefGrid; ++i) {
    for (int j = 0; j <= kReliefGrid; ++j) {
      const double x = size * i / kReliefGrid, y = size * j / kReliefGrid;
      heights.push_back(std::round(terrain::EvaluateRelief(description.relief, x, y) * 100) / 100);
    }
  }
  return {{"n", kReliefGrid + 1}, {"size", size}, {"z", std::move(heights)}};
}

/// One column of the trajectory, e.g. &results::TrajectoryRow::x.
Json Column(const std::vector<results::TrajectoryRow>& rows,
            double results::TrajectoryRow::*column) {
  Json array = Json::array();
  for (const results::TrajectoryRow& row : rows) array.push_back(row.*column);
  return array;
}

/// A value that a result holds only when it is done, null otherwise.
template <class T>
Json WhenDone(const results::ScenarioResult& result, const T& value) {
  return result.status == results::ScenarioStatus::kDone ? Json(value) : Json();
}

/// The table row of a scenario folder: the fields of result.json and timing.json that the
/// table shows, null where the folder has none.
Json TableRow(const std::string& name, const results::StoredScenario& stored,
              const results::RequestView& request) {
  const results::ScenarioResult& result = stored.result;
  const bool done = result.status == results::ScenarioStatus::kDone;
  const std::string thumbnail = Thumbnail(stored.captures);
  Json row = Json::object();
  row["folder"] = name;
  row["number"] = result.scenario_number;
  row["variant"] = result.variant;
  row["status"] = results::ScenarioStatusName(result.status);
  row["reason"] = WhenDone(result, protocol::TerminationReasonName(result.termination_reason));
  row["sim_time"] = WhenDone(result, result.vehicle_sim_time);
  row["distance"] = WhenDone(result, result.counters.distance_travelled);
  row["max_roll"] = WhenDone(result, result.counters.max_abs_roll);
  row["max_pitch"] = WhenDone(result, result.counters.max_abs_pitch);
  row["attempts"] = stored.timing ? Json(stored.timing->attempts.size()) : Json();
  row["reruns"] = result.reruns.size();
  row["wall_time"] = stored.timing ? Json(stored.timing->wall_time_s) : Json();
  row["worker"] = stored.timing ? Json(stored.timing->worker_id) : Json();
  row["regret"] = done && result.regret.computed ? Json(result.regret.regret) : Json();
  row["thumb"] = thumbnail.empty() ? Json() : Json(name + "/captures/" + thumbnail);
  const std::vector<results::TrajectoryRow>& trajectory = stored.trajectory;
  row["end"] =
      trajectory.empty() ? Json() : Json::array({trajectory.back().x, trajectory.back().y});
  row["size"] = request.nominal_size;
  row["error"] = done ? Json() : Json(result.error);
  return row;
}

/// The scenario page's data: outcome, start and goal, obstacles, relief and the trajectory's
/// columns (the speed is the world-frame horizontal speed).
Json PageData(const std::string& name, const Json& row, const results::StoredScenario& stored,
              const results::RequestView& request) {
  Json page = Json::object();
  page["folder"] = name;
  page["status"] = row["status"];
  page["reason"] = row["reason"];
  page["size"] = request.nominal_size;
  page["start"] = request.start;
  page["goal"] = request.goal;
  page["goal_radius"] = request.goal_radius;
  const std::string ortho = OrthoBackground(stored.captures);
  page["ortho"] =
      ortho.empty()
          ? Json()
          : Json::object({{"src", "captures/" + ortho}, {"padding", OrthoPadding(ortho)}});
  Json obstacles = Json::array();
  for (const results::RequestView::Obstacle& obstacle : request.obstacles) {
    obstacles.push_back({obstacle.path_name, obstacle.x, obstacle.y, obstacle.scale});
  }
  page["obstacles"] = obstacles;
  page["relief"] =
      ReliefHeights(request.landscape,
                    request.nominal_size.is_number() ? request.nominal_size.get<double>() : 0.0);
  using Row = results::TrajectoryRow;
  page["t"] = Column(stored.trajectory, &Row::t);
  page["x"] = Column(stored.trajectory, &Row::x);
  page["y"] = Column(stored.trajectory, &Row::y);
  Json speed = Json::array();
  for (const Row& sample : stored.trajectory) {
    speed.push_back(std::hypot(sample.vx_world, sample.vy_world));
  }
  page["speed"] = speed;
  page["roll"] = Column(stored.trajectory, &Row::roll);
  page["pitch"] = Column(stored.trajectory, &Row::pitch);
  page["yaw"] = Column(stored.trajectory, &Row::yaw);
  return page;
}

/// Reads one scenario folder (results::ReadScenarioFolder): its table row and its page.
Json ReadScenario(const fs::path& folder, ReportScenario* scenario) {
  const std::string name = folder.filename().string();
  const results::StoredScenario stored = results::ReadScenarioFolder(folder);
  const results::RequestView request = results::ViewOfRequest(stored.request);
  scenario->folder = name;
  scenario->result_text = stored.result_text;
  scenario->request_text = stored.request_text;
  scenario->captures = stored.captures;
  scenario->node_files = stored.node_files;
  Json row = TableRow(name, stored, request);
  scenario->page = PageData(name, row, stored, request);
  return row;
}

/// search.csv as {"columns": [...], "rows": [[...], ...]}, numbers where a field is one.
Json ReadSearchCsv(const fs::path& file) {
  const std::string text = results::ReadTextFile(file);
  Json table = {{"columns", Json::array()}, {"rows", Json::array()}};
  std::string_view rest = text;
  bool header = true;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (line.empty()) continue;
    Json row = Json::array();
    for (const std::string_view field : results::CsvFields(line)) {
      double value = 0.0;
      const auto [ptr, error] = std::from_chars(field.data(), field.data() + field.size(), value);
      if (!header && error == std::errc() && ptr == field.data() + field.size() && !field.empty()) {
        row.push_back(value);
      } else {
        row.push_back(std::string(field));
      }
    }
    (header ? table["columns"] : table["rows"].emplace_back()) = row;
    header = false;
  }
  return table;
}

}  // namespace

bool IsBatchFolder(const fs::path& dir) {
  std::error_code error;
  return fs::is_directory(dir, error) && fs::is_regular_file(dir / "batch_identity.json", error);
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

  const fs::path assets = batch_dir / "report";
  std::error_code error;
  fs::create_directories(assets, error);
  if (error) throw ReportError(assets.string() + ": cannot create: " + error.message());
  for (const ReportAsset& asset : ReportAssets()) {
    results::WriteFileAtomically(assets / asset.name, asset.text);
  }

  Json rows = Json::array();
  for (const std::string& folder : folders) {
    ReportScenario scenario;
    rows.push_back(ReadScenario(batch_dir / folder, &scenario));
    const std::string replay_request = (absolute_dir / folder / "request.json").generic_string();
    // Pages are derived files: written without a sync each, then synced once below.
    results::WriteFileUnsynced(batch_dir / folder / "index.html",
                               ScenarioPage(scenario, replay_request));
  }
  results::SyncFileSystem(batch_dir);

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
  Json data = Json::object();
  data["batch"] = batch;
  data["rows"] = rows;
  data["search"] = fs::is_regular_file(batch_dir / "search.csv")
                       ? ReadSearchCsv(batch_dir / "search.csv")
                       : Json();
  results::WriteFileAtomically(assets / "data.js",
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
