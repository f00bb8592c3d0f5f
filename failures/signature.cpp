#include "failures/signature.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "core/check.h"
#include "failures/approach.h"
#include "failures/dwell.h"

namespace asg::failures {
namespace {

/// Whether a failure of `kind` happens where the vehicle first touched an obstacle: a timeout
/// happens where the run lost its time and a departure from the landscape where the run ended,
/// whatever either touched before.
bool PointIsTheContact(FailureKind kind) {
  return kind != FailureKind::kTimeout && kind != FailureKind::kOutOfBounds;
}

/// Where a run failed and the path that brought it there.
struct PlacedFailure {
  Eigen::Vector2d point;              ///< [m] the failure point
  std::vector<Eigen::Vector2d> path;  ///< x, y of the samples up to the arrival at the point
  bool at_contact = false;            ///< whether the point is the first contact
};

/// The failure point of `run` failed as `kind` and the path up to it: the first contact (path
/// up to its time); for a timeout, the center of its first dwell (path up to its first arrival
/// within the dwell radius of it); else, or when it dwelt nowhere, the last sample.
PlacedFailure PlaceFailure(FailureKind kind, const RunFacts& run,
                           const SignatureSettings& settings) {
  PlacedFailure placed;
  if (run.first_contact && PointIsTheContact(kind)) {
    placed.point = {run.first_contact->x, run.first_contact->y};
    placed.path = PathUntil(run.trajectory, run.first_contact->t);
    placed.at_contact = true;
    return placed;
  }
  const std::optional<Dwell> dwell =
      kind == FailureKind::kTimeout
          ? FirstDwell(run.trajectory, settings.dwell_radius, settings.min_dwell)
          : std::nullopt;
  if (dwell) {
    placed.point = dwell->center;
    placed.path = PathUntil(run.trajectory, run.trajectory[dwell->arrival].t);
    return placed;
  }
  placed.path = PathUntil(run.trajectory, std::nullopt);
  placed.point = placed.path.back();
  return placed;
}

/// Throws unless the run has samples and its contact names a non-traversable actor.
void CheckRun(const RunFacts& run) {
  const std::string scenario = "scenario " + std::to_string(run.scenario_number);
  if (run.trajectory.empty()) {
    throw std::invalid_argument(scenario + " has no trajectory sample, so no failure point");
  }
  if (!run.first_contact) return;
  const size_t index = run.first_contact->actor_index;
  if (index >= run.obstacles.size()) {
    throw std::invalid_argument(scenario + ": the first contact names actor " +
                                std::to_string(index) + " but the scene has " +
                                std::to_string(run.obstacles.size()) + " actors");
  }
  if (run.obstacles[index].traversable) {
    throw std::invalid_argument(scenario + ": the first contact names actor " +
                                std::to_string(index) + " (" + run.obstacles[index].class_name +
                                "), which is traversable");
  }
}

Cause CauseOf(const RunFacts& run, size_t index, const Eigen::Vector2d& point, double radius) {
  const SceneObstacle& obstacle = run.obstacles[index];
  Cause cause;
  cause.class_name = obstacle.class_name;
  cause.position = {obstacle.x, obstacle.y};
  cause.distance = (cause.position - point).norm();
  cause.weight = std::max(0.0, 1.0 - cause.distance / radius);
  cause.actor_index = index;
  return cause;
}

/// The non-traversable obstacles strictly within `radius` of `point`, nearest first.
std::vector<Cause> CausesNear(const RunFacts& run, const Eigen::Vector2d& point, double radius) {
  std::vector<Cause> causes;
  for (size_t i = 0; i < run.obstacles.size(); ++i) {
    if (run.obstacles[i].traversable) continue;
    Cause cause = CauseOf(run, i, point, radius);
    if (cause.distance < radius) causes.push_back(std::move(cause));
  }
  std::sort(causes.begin(), causes.end(), [](const Cause& a, const Cause& b) {
    return std::tie(a.distance, a.class_name, a.position.x(), a.position.y(), a.actor_index) <
           std::tie(b.distance, b.class_name, b.position.x(), b.position.y(), b.actor_index);
  });
  return causes;
}

}  // namespace

Signature ComputeSignature(FailureKind kind, const RunFacts& run, const SlopeAt& slope_at,
                           const SignatureSettings& settings) {
  ASG_CHECK(slope_at);
  ASG_CHECK(settings.cause_radius > 0.0 && settings.approach_spacing > 0.0);
  ASG_CHECK(settings.approach_points >= 1);
  ASG_CHECK(settings.dwell_radius > 0.0 && settings.min_dwell > 0.0);
  CheckRun(run);
  Signature signature;
  signature.kind = kind;
  const PlacedFailure placed = PlaceFailure(kind, run, settings);
  signature.at_contact = placed.at_contact;
  signature.point = placed.point;
  signature.approach = ApproachPoints(placed.path, signature.point, settings.approach_spacing,
                                      settings.approach_points);
  const double last_yaw = run.trajectory[placed.path.size() - 1].yaw;
  signature.heading =
      ApproachHeading(signature.approach.front(), last_yaw, settings.min_heading_distance);
  signature.slope = slope_at(signature.point.x(), signature.point.y());
  signature.causes = CausesNear(run, signature.point, settings.cause_radius);
  if (placed.at_contact) {
    signature.hit =
        CauseOf(run, run.first_contact->actor_index, signature.point, settings.cause_radius);
  }
  return signature;
}

std::optional<Failure> DescribeRun(const RunFacts& run, const SlopeAt& slope_at, double threshold,
                                   const SignatureSettings& settings) {
  const std::optional<FailureKind> kind =
      ClassifyRun(run.reason, run.regret, threshold, run.first_contact.has_value());
  if (!kind) return std::nullopt;
  return Failure{run.scenario_number, run.regret, ComputeSignature(*kind, run, slope_at, settings)};
}

}  // namespace asg::failures
