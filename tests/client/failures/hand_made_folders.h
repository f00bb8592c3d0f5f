// Hand-made scenario folders for the tests of client/failures: a scene of named actors on a
// 60 m landscape, a straight drive at 5 m/s through waypoints, written with the results/
// writers as a run of the farm would have written them.
#pragma once

#include <cmath>
#include <filesystem>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "protocol/messages_json.h"
#include "results/files.h"
#include "results/folder.h"

namespace asg::client::hand_made {

/// A point of a drive [m].
struct Waypoint {
  double x = 0.0, y = 0.0;
};

/// One actor instance of the scene: its class (a catalog name) and place [m].
struct Actor {
  std::string path_name;
  double x = 0.0, y = 0.0;
  double scale = 1.0;
};

/// A request on a flat 60 m landscape (or with `relief`) with `actors`, one layout each.
inline protocol::RunScenarioRequest Request(uint32_t number, const std::vector<Actor>& actors,
                                            std::vector<protocol::ReliefFeature> relief = {}) {
  protocol::RunScenarioRequest request;
  request.scenario_number = number;
  request.scene_description.landscape.relief = std::move(relief);
  for (const Actor& actor : actors) {
    protocol::StructuralSceneActorLayout layout;
    layout.path_name = actor.path_name;
    layout.num_instances = 1;
    layout.visible = {true};
    layout.cast_shadow = {true};
    layout.x = {actor.x};
    layout.y = {actor.y};
    layout.yaw = {0.0};
    layout.scale = {actor.scale};
    request.scene_description.ssa_array.push_back(std::move(layout));
  }
  return request;
}

/// Samples of a drive through `waypoints` at 5 m/s, one every 0.05 s, heading along each leg.
inline std::vector<protocol::OdometryWithoutCovariance> Drive(
    const std::vector<Waypoint>& waypoints) {
  std::vector<protocol::OdometryWithoutCovariance> samples;
  int tick = 0;
  const auto add = [&](double x, double y, double yaw) {
    protocol::OdometryWithoutCovariance sample;
    sample.header.stamp = {tick / 20, static_cast<uint32_t>(tick % 20) * 50'000'000u};
    ++tick;
    sample.pose.position = {x, y, 0.0};
    sample.pose.orientation = {0.0, 0.0, std::sin(yaw / 2), std::cos(yaw / 2)};
    samples.push_back(sample);
  };
  for (size_t i = 1; i < waypoints.size(); ++i) {
    const Waypoint& a = waypoints[i - 1];
    const Waypoint& b = waypoints[i];
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    const double yaw = std::atan2(b.y - a.y, b.x - a.x);
    const int steps = std::max(1, static_cast<int>(std::round(length / 0.25)));
    for (int k = i == 1 ? 0 : 1; k <= steps; ++k) {
      const double f = static_cast<double>(k) / steps;
      add(a.x + f * (b.x - a.x), a.y + f * (b.y - a.y), yaw);
    }
  }
  return samples;
}

/// The record of scenario `request.scenario_number` that ended for `reason` with `regret`
/// (none: not measured) after driving `waypoints`.
inline results::ScenarioRecord DoneRecord(const protocol::RunScenarioRequest& request,
                                          protocol::TerminationReason reason,
                                          std::optional<double> regret,
                                          const std::vector<Waypoint>& waypoints) {
  results::ScenarioRecord record;
  record.request = request;
  record.result.scenario_number = request.scenario_number;
  record.result.status = results::ScenarioStatus::kDone;
  record.result.termination_reason = reason;
  record.result.vehicle_sim_time = 0.05 * static_cast<double>(Drive(waypoints).size());
  if (regret) {
    record.result.regret.computed = true;
    record.result.regret.regret = *regret;
  }
  record.trajectory = Drive(waypoints);
  record.timing.attempts = {{1, 1, 0.1, "done", ""}};
  return record;
}

/// Writes a done scenario's folder into `dir` (see DoneRecord).
inline void WriteDone(const std::filesystem::path& dir, const protocol::RunScenarioRequest& request,
                      protocol::TerminationReason reason, std::optional<double> regret,
                      const std::vector<Waypoint>& waypoints) {
  results::WriteScenarioFolder(dir, DoneRecord(request, reason, regret, waypoints));
}

/// The scene of the hand-made batches: a rock at (40, 40), a tree at (20, 52), a bush at (30, 10).
inline std::vector<Actor> RockScene() {
  return {{"rock", 40, 40}, {"tree", 20, 52}, {"bush", 30, 10}};
}

/// Writes three runs in RockScene into `dir`: scenario 2 driven east into the rock (regret 1.2),
/// 3 reaching the goal (0.1) and 4 flipped on open ground at (25, 20) (0.9).
inline void WriteCrashSuccessFlip(const std::filesystem::path& dir) {
  using protocol::TerminationReason;
  WriteDone(dir, Request(2, RockScene()), TerminationReason::REASON_VEHICLE_COLLISION, 1.2,
            {{10, 40}, {38.6, 40}});
  WriteDone(dir, Request(3, RockScene()), TerminationReason::REASON_SUCCESS, 0.1,
            {{10, 10}, {50, 50}});
  WriteDone(dir, Request(4, RockScene()), TerminationReason::REASON_VEHICLE_FLIPPED, 0.9,
            {{10, 20}, {25, 20}});
}

/// Writes a done scenario's record (see DoneRecord) as the folder `folder`, whatever its name
/// (a reproduction run's), as the farm's writer does.
inline void WriteDoneAt(const std::filesystem::path& folder,
                        const protocol::RunScenarioRequest& request,
                        protocol::TerminationReason reason, std::optional<double> regret,
                        const std::vector<Waypoint>& waypoints) {
  results::PublishDirectory(
      results::StageScenarioFolder(folder.parent_path(),
                                   DoneRecord(request, reason, regret, waypoints)),
      folder);
}

/// Writes the folder of scenario `number`, found invalid before it ran.
inline void WriteInvalid(const std::filesystem::path& dir, uint32_t number) {
  results::ScenarioRecord record;
  record.request = results::Json::object();
  record.result = results::UnrunnableResult(number, results::ScenarioStatus::kInvalid,
                                            "scenarios[4].goal_radius: must be > 0", 0);
  results::WriteScenarioFolder(dir, record);
}

}  // namespace asg::client::hand_made
