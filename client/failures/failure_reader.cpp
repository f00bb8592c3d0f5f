// Facts of finished runs from their folders' files, and their judgement as failures.
#include "client/failures/failure_reader.h"

#include <stdexcept>

#include "json/field_values.h"
#include "protocol/messages_json.h"
#include "results/request_view.h"

namespace asg::client {

namespace fs = std::filesystem;
using json::Json;

namespace {

catalog::ActorCatalog ReadCatalog(const fs::path& catalog_file) {
  try {
    return catalog::ActorCatalog::FromFile(catalog_file.string());
  } catch (const catalog::CatalogError& error) {
    throw FailuresError(error.what());
  }
}

/// `value`, a number the request holds at `path`; throws FailuresError naming `file`.
double NumberAt(const Json& value, const std::string& path, const fs::path& file) {
  if (!value.is_number()) {
    throw FailuresError(file.string() + ": " + path + ": expected a number, got " +
                        (value.is_null() ? std::string("nothing") : value.dump()));
  }
  return value.get<double>();
}

std::vector<failures::PathSample> PathOf(const std::vector<results::TrajectoryRow>& rows) {
  std::vector<failures::PathSample> path;
  path.reserve(rows.size());
  for (const results::TrajectoryRow& row : rows) path.push_back({row.t, row.x, row.y, row.yaw});
  return path;
}

/// result.json's first contact, checked against the request's `obstacles`: it must name a
/// non-traversable one. Throws FailuresError naming result.json, the JSON path and the value.
std::optional<failures::Contact> ContactOf(const results::ScenarioResult& result,
                                           const std::vector<failures::SceneObstacle>& obstacles,
                                           const fs::path& folder) {
  const std::optional<protocol::FirstContact>& contact = result.counters.first_contact;
  if (!contact) return std::nullopt;
  const size_t index = contact->actor_index;
  const std::string where = (folder / "result.json").string() +
                            ": counters.first_contact.actor_index: " + std::to_string(index);
  if (index >= obstacles.size()) {
    throw FailuresError(where + " is not an actor of request.json (it has " +
                        std::to_string(obstacles.size()) + ")");
  }
  if (obstacles[index].traversable) {
    throw FailuresError(where + " names a traversable actor (" + obstacles[index].class_name + ")");
  }
  return failures::Contact{contact->t, contact->x, contact->y, index};
}

}  // namespace

FailureReader::FailureReader(const fs::path& catalog_file)
    : catalog_file_(catalog_file.string()), catalog_(ReadCatalog(catalog_file)) {}

std::optional<failures::FailureKind> FailureReader::KindOf(const results::ScenarioResult& result,
                                                           double threshold) {
  if (result.status != results::ScenarioStatus::kDone) return std::nullopt;
  const std::optional<double> regret =
      result.regret.computed ? std::optional<double>(result.regret.regret) : std::nullopt;
  return failures::ClassifyRun(result.termination_reason, regret, threshold,
                               result.counters.collisions_touched > 0);
}

bool FailureReader::MayFail(const results::ScenarioResult& result, double threshold) {
  const std::optional<failures::FailureKind> kind = KindOf(result, threshold);
  return kind && failures::IsFailure(*kind);
}

failures::RunFacts FailureReader::Facts(const results::StoredScenario& scenario,
                                        const fs::path& folder) const {
  const results::ScenarioResult& result = scenario.result;
  failures::RunFacts facts;
  facts.scenario_number = result.scenario_number;
  facts.reason = result.termination_reason;
  if (result.regret.computed) facts.regret = result.regret.regret;
  facts.trajectory = PathOf(scenario.trajectory);
  const fs::path file = folder / "request.json";
  for (const results::RequestView::Obstacle& obstacle :
       results::ViewOfRequest(scenario.request).obstacles) {
    const std::string path = json::IndexPath("scene_description.ssa_array", obstacle.layout);
    const auto at = [&](const char* key) {
      return json::IndexPath(json::ChildPath(path, key), obstacle.instance);
    };
    const catalog::ActorClass* actor_class =
        obstacle.path_name.is_string() ? catalog_.Find(obstacle.path_name.get<std::string>())
                                       : nullptr;
    if (actor_class == nullptr) {
      throw FailuresError(file.string() + ": " + path + ".path_name: " + obstacle.path_name.dump() +
                          " is not a class of " + catalog_file_);
    }
    failures::SceneObstacle scene_obstacle;
    scene_obstacle.class_name = actor_class->path_name;
    scene_obstacle.x = NumberAt(obstacle.x, at("x"), file);
    scene_obstacle.y = NumberAt(obstacle.y, at("y"), file);
    const double scale = NumberAt(obstacle.scale, at("scale"), file);
    scene_obstacle.traversable = catalog::IsTraversable(*actor_class, scale);
    facts.obstacles.push_back(std::move(scene_obstacle));
  }
  facts.first_contact = ContactOf(result, facts.obstacles, folder);
  return facts;
}

std::optional<failures::Failure> FailureReader::Describe(const results::StoredScenario& scenario,
                                                         const fs::path& folder, double threshold) {
  if (!MayFail(scenario.result, threshold)) return std::nullopt;
  const failures::RunFacts facts = Facts(scenario, folder);
  const terrain::Landscape& landscape = LandscapeOf(scenario.request, folder);
  const failures::SlopeAt slope = [&landscape](double x, double y) {
    return landscape.SlopeAt(x, y);
  };
  try {
    std::optional<failures::Failure> failure = failures::DescribeRun(facts, slope, threshold);
    if (failure && !failures::IsFailure(failure->signature.kind)) return std::nullopt;
    return failure;
  } catch (const std::invalid_argument& error) {
    // A done run without a trajectory sample has no failure point.
    throw FailuresError((folder / "trajectory.csv").string() + ": " + error.what());
  }
}

const terrain::Landscape& FailureReader::LandscapeOf(const Json& request, const fs::path& folder) {
  const Json landscape = results::ViewOfRequest(request).landscape;
  std::string key = landscape.dump();
  if (landscape_ && key == landscape_key_) return *landscape_;
  const std::string path = "scene_description.landscape";
  const fs::path file = folder / "request.json";
  protocol::LandscapeDescription description;
  try {
    protocol::Decode(landscape, path, &description);
    landscape_.emplace(description);
  } catch (const json::DecodeError& error) {
    throw FailuresError(file.string() + ": " + error.what());
  } catch (const std::invalid_argument& error) {
    throw FailuresError(file.string() + ": " + path + ": " + error.what());
  }
  landscape_key_ = std::move(key);
  return *landscape_;
}

}  // namespace asg::client
