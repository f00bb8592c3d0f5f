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
#include "terrain/landscape.h"

namespace asg::report {

namespace fs = std::filesystem;
using json::Json;

namespace {

/// The trajectory.csv columns the report draws, one value per row.
struct Trajectory {
  std::vector<double> t, x, y, roll, pitch, yaw, speed;  ///< [s], [m], [m], [deg]x3, [m/s]
};

/// Splits `line` at commas.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

/// Reads the columns of Trajectory from trajectory.csv; throws ReportError naming the file and
/// the line of a row that is not a number.
Trajectory ReadTrajectory(const fs::path& file) {
  const std::string text = results::ReadTextFile(file);
  Trajectory trajectory;
  std::string_view rest = text;
  std::vector<std::string_view> header;
  const char* names[] = {"t", "x", "y", "roll", "pitch", "yaw", "vx_world", "vy_world"};
  size_t index[std::size(names)] = {};
  size_t line_number = 0;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::vector<std::string_view> fields = Fields(line);
    if (header.empty()) {
      header = fields;
      for (size_t i = 0; i < std::size(names); ++i) {
        const auto found = std::find(header.begin(), header.end(), names[i]);
        if (found == header.end()) {
          throw ReportError(file.string() + ": no column \"" + names[i] + "\" in the header");
        }
        index[i] = static_cast<size_t>(found - header.begin());
      }
      continue;
    }
    double values[std::size(names)];
    for (size_t i = 0; i < std::size(names); ++i) {
      const std::string_view field = index[i] < fields.size() ? fields[index[i]] : "";
      const auto [ptr, error] =
          std::from_chars(field.data(), field.data() + field.size(), values[i]);
      if (error != std::errc() || ptr != field.data() + field.size()) {
        throw ReportError(file.string() + ":" + std::to_string(line_number) + ": column \"" +
                          names[i] + "\" is not a number");
      }
    }
    trajectory.t.push_back(values[0]);
    trajectory.x.push_back(values[1]);
    trajectory.y.push_back(values[2]);
    trajectory.roll.push_back(values[3]);
    trajectory.pitch.push_back(values[4]);
    trajectory.yaw.push_back(values[5]);
    trajectory.speed.push_back(std::hypot(values[6], values[7]));
  }
  return trajectory;
}

/// `json[key]` when `json` is an object holding it, else null.
Json Get(const Json& json, const char* key) {
  return json.is_object() && json.contains(key) ? json[key] : Json();
}

/// The sorted names of the regular files directly in `folder` (none when it is absent).
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

/// The sorted paths of the regular files under `folder`, relative to it.
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

Json ArrayOf(const std::vector<double>& values) {
  Json array = Json::array();
  for (const double value : values) array.push_back(value);
  return array;
}

/// Reads one scenario folder: its table row and its page.
Json ReadScenario(const fs::path& folder, ReportScenario* scenario) {
  const std::string name = folder.filename().string();
  scenario->folder = name;
  scenario->result_text = results::ReadTextFile(folder / "result.json");
  const Json result = results::ReadJsonFile(folder / "result.json");
  if (!result.is_object()) throw ReportError((folder / "result.json").string() + ": not an object");
  Json timing, request;
  if (fs::is_regular_file(folder / "timing.json")) {
    timing = results::ReadJsonFile(folder / "timing.json");
  }
  if (fs::is_regular_file(folder / "request.json")) {
    scenario->request_text = results::ReadTextFile(folder / "request.json");
    request = results::ReadJsonFile(folder / "request.json");
  }
  Trajectory trajectory;
  if (fs::is_regular_file(folder / "trajectory.csv")) {
    trajectory = ReadTrajectory(folder / "trajectory.csv");
  }
  scenario->captures = FileNames(folder / "captures");
  scenario->node_files = FilesUnder(folder / "nodes");

  const Json counters = Get(result, "counters");
  const Json regret = Get(result, "regret");
  const Json scene = Get(request, "scene_description");
  const Json size = Get(Get(scene, "landscape"), "nominal_size");
  const Json reruns = Get(result, "reruns");
  const Json attempts = Get(timing, "attempts");
  const std::string thumbnail = Thumbnail(scenario->captures);

  Json row = Json::object();
  row["folder"] = name;
  row["number"] = Get(result, "scenario_number");
  row["variant"] = result.contains("variant") ? result["variant"] : Json("");
  row["status"] = Get(result, "status");
  row["reason"] = Get(result, "termination_reason_name");
  row["sim_time"] = Get(result, "vehicle_sim_time");
  row["distance"] = Get(counters, "distance_travelled");
  row["max_roll"] = Get(counters, "max_abs_roll");
  row["max_pitch"] = Get(counters, "max_abs_pitch");
  row["attempts"] = attempts.is_array() ? Json(attempts.size()) : Json();
  row["reruns"] = reruns.is_array() ? Json(reruns.size()) : Json();
  row["wall_time"] = Get(timing, "wall_time_s");
  row["worker"] = Get(timing, "worker_id");
  row["regret"] = Get(regret, "computed") == Json(true) ? Get(regret, "regret") : Json();
  row["thumb"] = thumbnail.empty() ? Json() : Json(name + "/captures/" + thumbnail);
  row["end"] =
      trajectory.x.empty() ? Json() : Json::array({trajectory.x.back(), trajectory.y.back()});
  row["size"] = size;
  row["error"] = Get(result, "error");

  Json& page = scenario->page;
  page = Json::object();
  page["folder"] = name;
  page["status"] = row["status"];
  page["reason"] = row["reason"];
  page["size"] = size;
  page["start"] = Get(request, "vehicle_start_location");
  page["goal"] = Get(request, "vehicle_goal_location");
  page["goal_radius"] = Get(request, "goal_radius");
  const std::string ortho = OrthoBackground(scenario->captures);
  page["ortho"] =
      ortho.empty()
          ? Json()
          : Json::object({{"src", "captures/" + ortho}, {"padding", OrthoPadding(ortho)}});
  Json obstacles = Json::array();
  const Json actors = Get(scene, "ssa_array");
  if (actors.is_array()) {
    for (const Json& actor : actors) {
      const Json xs = Get(actor, "x");
      const Json ys = Get(actor, "y");
      const Json scales = Get(actor, "scale");
      if (!xs.is_array() || !ys.is_array()) continue;
      for (size_t i = 0; i < std::min(xs.size(), ys.size()); ++i) {
        obstacles.push_back({Get(actor, "path_name"), xs[i], ys[i],
                             scales.is_array() && i < scales.size() ? scales[i] : Json(1.0)});
      }
    }
  }
  page["obstacles"] = obstacles;
  page["relief"] =
      ReliefHeights(Get(scene, "landscape"), size.is_number() ? size.get<double>() : 0.0);
  page["t"] = ArrayOf(trajectory.t);
  page["x"] = ArrayOf(trajectory.x);
  page["y"] = ArrayOf(trajectory.y);
  page["speed"] = ArrayOf(trajectory.speed);
  page["roll"] = ArrayOf(trajectory.roll);
  page["pitch"] = ArrayOf(trajectory.pitch);
  page["yaw"] = ArrayOf(trajectory.yaw);
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
    for (const std::string_view field : Fields(line)) {
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
  std::vector<std::pair<uint32_t, std::string>> numbered;  // (number, variant)
  for (const auto& entry : fs::directory_iterator(batch_dir)) {
    if (!entry.is_directory()) continue;
    auto parsed = results::ParseScenarioFolderName(entry.path().filename().string());
    if (parsed) numbered.push_back(std::move(*parsed));
  }
  std::sort(numbered.begin(), numbered.end());
  std::vector<std::string> folders;
  for (const auto& [number, variant] : numbered) {
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
