// The signature of a failure: its kind, where it happened, what caused it and how the vehicle
// came there; two failures are compared by their signatures (distance.h). docs/failures.md
// gives every rule and constant. Pure functions (but for the caller's slope callback), safe to
// call from any thread.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "failures/failure_kind.h"
#include "failures/run_facts.h"

namespace asg::failures {

/// How a signature is taken; the defaults are the documented ones.
struct SignatureSettings {
  double cause_radius = 5.0;          ///< [m] R: obstacles nearer the point are causes
  double approach_spacing = 3.0;      ///< [m] radius of the first approach circle, and the step
  int approach_points = 5;            ///< circles of 3, 6, 9, 12 and 15 m
  double min_heading_distance = 0.5;  ///< [m] a vehicle that moved less keeps its yaw as heading
  double dwell_radius = 1.5;          ///< [m] a timeout's dwell: time spent this near a sample
  double min_dwell = 3.0;             ///< [s] (> 0) a timeout fails where it first dwelt this long
};

/// A non-traversable obstacle near a failure point.
struct Cause {
  std::string class_name;    ///< catalog class, e.g. "rock"
  Eigen::Vector2d position;  ///< [m] world x, y
  double distance = 0.0;     ///< [m] from the failure point, < cause_radius
  double weight = 0.0;       ///< 1 - distance / cause_radius: 1 at the point, 0 at the radius
  size_t actor_index = 0;    ///< index in RunFacts::obstacles
};

/// What identifies a failure. A plain value: copy and share freely.
struct Signature {
  FailureKind kind = FailureKind::kCollision;       ///< how the run failed
  Eigen::Vector2d point = Eigen::Vector2d::Zero();  ///< [m] the failure point, world x, y
  /// True when `point` is the first contact; false: the end point, or a timeout's dwell point.
  bool at_contact = false;
  double heading = 0.0;  ///< [deg] direction of travel into the point, in (-180, 180]
  double slope = 0.0;    ///< [deg] terrain slope at the point
  /// Non-traversable obstacles within cause_radius of the point, nearest first (ties: class
  /// name, x, y, index).
  std::vector<Cause> causes;
  std::optional<Cause> hit;  ///< the actor first touched, where `point` is that contact
  /// Where the path last crossed the approach circles, relative to `point` [m], nearest first.
  std::vector<Eigen::Vector2d> approach;
};

/// The signature of `run` failed as `kind`; `slope_at` reads the terrain (it must be set).
/// The point is the first contact for every kind but kTimeout and kOutOfBounds when the run
/// has one; for kTimeout, the center of the first place where the vehicle dwelt at least
/// min_dwell (FirstDwell, dwell.h); else the last trajectory sample. Heading and approach read the
/// path up to the contact, up to the first arrival within dwell_radius of the dwell's center, or
/// whole.
Signature ComputeSignature(FailureKind kind, const RunFacts& run, const SlopeAt& slope_at,
                           const SignatureSettings& settings = {});

/// One classified run: what clustering (clustering.h) reads.
struct Failure {
  uint32_t scenario_number = 0;  ///< the scenario's number in its batch
  std::optional<double> regret;  ///< the run's regret; absent when not measured
  Signature signature;           ///< its kind and signature
};

/// The run as a Failure when ClassifyRun gives it a kind (a contact included: filter with
/// IsFailure), else nothing; `threshold` is the regret threshold. Throws as ComputeSignature.
std::optional<Failure> DescribeRun(const RunFacts& run, const SlopeAt& slope_at,
                                   double threshold = kDefaultRegretThreshold,
                                   const SignatureSettings& settings = {});

}  // namespace asg::failures
