// Hand-built runs for the failures tests: straight drives at 5 m/s, crawls, scenes of named
// obstacles and flat ground.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "failures/run_facts.h"
#include "failures/signature.h"

namespace asg::failures::hand_built {

/// Appends to `samples` a straight drive from its last sample (or from `from` when empty) to
/// `to` at 5 m/s, one sample every 0.05 s (0.25 m), yaw along the drive.
inline void DriveTo(std::vector<PathSample>& samples, const Eigen::Vector2d& to,
                    const Eigen::Vector2d& from = Eigen::Vector2d::Zero()) {
  if (samples.empty()) samples.push_back({0.0, from.x(), from.y(), 0.0});
  const PathSample start = samples.back();
  const Eigen::Vector2d a(start.x, start.y);
  const double yaw = std::atan2(to.y() - a.y(), to.x() - a.x()) * 180.0 / std::numbers::pi;
  if (samples.size() == 1) samples.back().yaw = yaw;
  const int steps = std::max(1, static_cast<int>(std::round((to - a).norm() / 0.25)));
  for (int k = 1; k <= steps; ++k) {
    const Eigen::Vector2d p = a + (static_cast<double>(k) / steps) * (to - a);
    samples.push_back({start.t + 0.05 * k, p.x(), p.y(), yaw});
  }
}

/// Appends to `samples` (not empty) a crawl from its last sample to `to` taking `seconds`, one
/// sample every 0.05 s, yaw unchanged: a vehicle that hardly moves (`to` the same point: idle).
inline void CrawlTo(std::vector<PathSample>& samples, const Eigen::Vector2d& to, double seconds) {
  const PathSample start = samples.back();
  const Eigen::Vector2d a(start.x, start.y);
  const int steps = static_cast<int>(std::round(seconds / 0.05));
  for (int k = 1; k <= steps; ++k) {
    const Eigen::Vector2d p = a + (static_cast<double>(k) / steps) * (to - a);
    samples.push_back({start.t + 0.05 * k, p.x(), p.y(), start.yaw});
  }
}

/// A drive through `waypoints` in order (the first is the start).
inline std::vector<PathSample> Drive(const std::vector<Eigen::Vector2d>& waypoints) {
  std::vector<PathSample> samples;
  for (size_t i = 1; i < waypoints.size(); ++i) DriveTo(samples, waypoints[i], waypoints[0]);
  return samples;
}

/// A non-traversable obstacle of `class_name` at (x, y).
inline SceneObstacle Obstacle(const std::string& class_name, double x, double y) {
  return {class_name, x, y, false};
}

/// A run of scenario `number` that ended for `reason` after driving `waypoints` among
/// `obstacles`.
inline RunFacts MakeRun(uint32_t number, protocol::TerminationReason reason,
                        const std::vector<Eigen::Vector2d>& waypoints,
                        std::vector<SceneObstacle> obstacles = {}) {
  RunFacts run;
  run.scenario_number = number;
  run.reason = reason;
  run.trajectory = Drive(waypoints);
  run.obstacles = std::move(obstacles);
  return run;
}

/// Level ground everywhere.
inline double Flat(double, double) { return 0.0; }

/// The signature of `run` failed as `kind` on flat ground, default settings.
inline Signature SignatureOf(FailureKind kind, const RunFacts& run) {
  return ComputeSignature(kind, run, Flat);
}

/// Scenario `number` failed as `kind` with `regret`, after driving east along y = 40 from
/// x - 20 to `x` on flat ground, no obstacle near: failures that differ by where they ended.
inline Failure EastboundFailure(uint32_t number, FailureKind kind, std::optional<double> regret,
                                double x) {
  const RunFacts run = MakeRun(number, protocol::TerminationReason::REASON_VEHICLE_COLLISION,
                               {{x - 20, 40}, {x, 40}});
  return {number, regret, SignatureOf(kind, run)};
}

}  // namespace asg::failures::hand_built
