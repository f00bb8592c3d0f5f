// The report's reading of a scenario folder (scenario_data.h).
#include "report/scenario_data.h"

#include <charconv>
#include <cmath>
#include <string_view>

#include "protocol/messages_json.h"
#include "results/request_view.h"
#include "terrain/landscape.h"

namespace asg::report {

namespace fs = std::filesystem;
using json::Json;

namespace {

/// The padding [m] of an ortho aerial capture name ("ortho_aerial_pad5..." -> 5), -1 otherwise.
int OrthoPadding(std::string_view name) {
  constexpr std::string_view kPrefix = "ortho_aerial_pad";
  if (!name.starts_with(kPrefix)) return -1;
  int padding = -1;
  const char* first = name.data() + kPrefix.size();
  const auto [ptr, error] = std::from_chars(first, name.data() + name.size(), padding);
  return error == std::errc() && ptr != first ? padding : -1;
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
  row["collisions"] = WhenDone(result, result.counters.collisions_touched);
  row["failure_kind"] = Json();  // set from failures.json by the report (report.cpp)
  row["edited"] = stored.interventions.is_array() && !stored.interventions.empty();
  const bool searched = stored.search.is_object();
  row["origin"] = searched ? stored.search.value("origin", Json()) : Json();
  row["generation"] = searched ? stored.search.value("generation", Json()) : Json();
  row["thumb"] = thumbnail.empty() ? Json() : Json(name + "/captures/" + thumbnail);
  const std::vector<results::TrajectoryRow>& trajectory = stored.trajectory;
  row["end"] =
      trajectory.empty() ? Json() : Json::array({trajectory.back().x, trajectory.back().y});
  row["size"] = request.nominal_size;
  row["error"] = done ? Json() : Json(result.error);
  return row;
}

/// The reference path's vertices [[x, y], ...] [m] of a done result with regret, else null.
Json ReferencePath(const results::ScenarioResult& result) {
  if (result.status != results::ScenarioStatus::kDone || !result.regret.computed) return Json();
  Json path = Json::array();
  for (const protocol::Point& point : result.regret.reference_path) {
    path.push_back({point.x, point.y});
  }
  return path;
}

/// The first contact with a non-traversable actor {t, x, y, actor_index} [s, m] and the actor
/// hit [path_name, x, y, scale] (null when the index names no obstacle of the request), or null
/// for both when the run touched nothing (docs/failures.md, "The first contact").
void AddContact(const results::ScenarioResult& result, const results::RequestView& request,
                Json* page) {
  (*page)["contact"] = Json();
  (*page)["hit"] = Json();
  const auto& contact = result.counters.first_contact;
  if (result.status != results::ScenarioStatus::kDone || !contact) return;
  (*page)["contact"] = {{"t", contact->t},
                        {"x", contact->x},
                        {"y", contact->y},
                        {"actor_index", contact->actor_index}};
  if (contact->actor_index < request.obstacles.size()) {
    const results::RequestView::Obstacle& hit = request.obstacles[contact->actor_index];
    (*page)["hit"] = {hit.path_name, hit.x, hit.y, hit.scale};
  }
}

/// The page's outcome beside the trajectory: the row's regret, collisions and "edited", the
/// reference path, the first contact and the actor hit, and a person's interventions.
void AddOutcome(const Json& row, const results::StoredScenario& stored,
                const results::RequestView& request, Json* page) {
  (*page)["regret"] = row["regret"];
  (*page)["collisions"] = row["collisions"];
  (*page)["failure_kind"] = Json();
  (*page)["edited"] = row["edited"];
  (*page)["interventions"] = stored.interventions.is_array() ? stored.interventions : Json();
  (*page)["reference"] = ReferencePath(stored.result);
  AddContact(stored.result, request, page);
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
  AddOutcome(row, stored, request, &page);
  return page;
}

}  // namespace

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

Json ReadScenario(const fs::path& folder, ReportScenario* scenario) {
  const std::string name = folder.filename().string();
  const results::StoredScenario stored = results::ReadScenarioFolder(folder);
  const results::RequestView request = results::ViewOfRequest(stored.request);
  scenario->folder = name;
  scenario->result_text = stored.result_text;
  scenario->request_text = stored.request_text;
  scenario->captures = stored.captures;
  scenario->node_files = stored.node_files;
  scenario->search = stored.search;
  scenario->failure_id = stored.result.failure_id;
  Json row = TableRow(name, stored, request);
  scenario->page = PageData(name, row, stored, request);
  return row;
}

}  // namespace asg::report
