// The distance between two failures' signatures: the largest of a few normalised terms, each
// saying how different one aspect is; two failures are the same iff it is at most 1.
// docs/failures.md gives every constant and why. Pure functions, safe to call from any thread.
#pragma once

#include "failures/signature.h"

namespace asg::failures {

/// The scales of the distance's terms; the defaults are the documented ones.
struct DistanceSettings {
  double location_scale = 3.0;      ///< [m] distance between the failure points
  double cause_weight_scale = 0.5;  ///< summed weight of the causes left unmatched
  double match_radius = 1.0;        ///< [m] causes of one class this close are the same obstacle
  double heading_scale = 60.0;      ///< [deg] difference of the approach headings
  double slope_scale = 6.0;         ///< [deg] difference of the terrain slopes at the points
  double shape_scale = 10.0;        ///< [m] mean distance between matching approach points
};

/// Each term of the distance between two signatures, and the distance itself. A term is
/// dimensionless: 1 is the most it may reach for the two to be the same failure.
struct DistanceTerms {
  double kind = 0.0;      ///< 0 for the same kind, infinity for different kinds
  double location = 0.0;  ///< |point a - point b| / location_scale
  double cause = 0.0;     ///< weight of the causes left unmatched, both sides / cause_weight_scale
  double hit = 0.0;       ///< infinity when both hit an actor and the classes differ, else 0
  double heading = 0.0;   ///< |heading a - heading b| (at most 180 deg) / heading_scale
  double slope = 0.0;     ///< |slope a - slope b| / slope_scale
  double shape = 0.0;     ///< mean |approach a[k] - approach b[k]| / shape_scale
  double distance = 0.0;  ///< the largest term

  /// Whether the two are the same failure: distance <= 1.
  bool Same() const { return distance <= 1.0; }
};

/// The terms between `a` and `b`: 0 between a signature and itself, symmetric but for exact
/// ties in the pairing of causes (clustering always passes the leader as `a`). Pure.
DistanceTerms FailureDistance(const Signature& a, const Signature& b,
                              const DistanceSettings& settings = {});

/// Whether `a` and `b` are the same failure: FailureDistance(a, b).Same().
bool SameFailure(const Signature& a, const Signature& b, const DistanceSettings& settings = {});

/// The summed weight of the causes of `a` and of `b` that are not paired with one of the
/// other's. Pairs are of one class and at most `match_radius` [m] apart (world positions),
/// taken closest first (ties: the lower index in `a`, then in `b`), each cause in one pair at
/// most.
double UnmatchedCauseWeight(const std::vector<Cause>& a, const std::vector<Cause>& b,
                            double match_radius);

}  // namespace asg::failures
