#include "failures/signature.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "core/check.h"
#include "failures/approach.h"

namespace asg::failures {
namespace {

/// Whether a failure of `kind` happens where the vehicle first touched an obstacle: a timeout
/// or a departure from the landscape happens where the run ended, whatever it touched before.
bool PointIsTheContact(FailureKind kind) {
  return kind != FailureKind::kTimeout && kind != FailureKind::kOutOfBounds;
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
  CheckRun(run);
  Signature signature;
  signature.kind = kind;
  const bool at_contact = run.first_contact.has_value() && PointIsTheContact(kind);
  const std::optional<double> until =
      at_contact ? std::optional<double>(run.first_contact->t) : std::nullopt;
  const std::vector<Eigen::Vector2d> path = PathUntil(run.trajectory, until);
  signature.at_contact = at_contact;
  signature.point =
      at_contact ? Eigen::Vector2d(run.first_contact->x, run.first_contact->y) : path.back();
  signature.approach =
      ApproachPoints(path, signature.point, settings.approach_spacing, settings.approach_points);
  const double last_yaw = run.trajectory[path.size() - 1].yaw;
  signature.heading =
      ApproachHeading(signature.approach.front(), last_yaw, settings.min_heading_distance);
  signature.slope = slope_at(signature.point.x(), signature.point.y());
  signature.causes = CausesNear(run, signature.point, settings.cause_radius);
  if (at_contact) {
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
