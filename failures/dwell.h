// Where a run lost its time: the first place around which the vehicle stayed a while, the
// failure point of a timeout (docs/failures.md, "The signature"). Pure functions, safe to call from
// any thread.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <vector>

#include "failures/run_facts.h"

namespace asg::failures {

/// The sim time [s] `trajectory` spent strictly within `radius` [m] of the x, y of its sample
/// `index`: each sample counts the time to the next one (the last counts none).
double DwellAt(const std::vector<PathSample>& trajectory, size_t index, double radius);

/// Where a vehicle dwelt, and when it first came there.
struct Dwell {
  /// The sample with the longest DwellAt (the earliest on ties) among those within the radius
  /// of the first sample that dwelt at least the minimum.
  size_t sample = 0;
  double seconds = 0.0;  ///< [s] its DwellAt
  /// [m] x, y of the samples within the radius of `sample`, each weighted by the time it counts:
  /// where the vehicle spent that time.
  Eigen::Vector2d center = Eigen::Vector2d::Zero();
  size_t arrival = 0;  ///< the first sample strictly within the radius of `center` (<= sample)
};

/// The first place where the vehicle of `trajectory` dwelt at least `min_dwell` [s] (> 0)
/// within `radius` [m], a later dwell, however long, aside; nothing when it dwelt nowhere that
/// long.
std::optional<Dwell> FirstDwell(const std::vector<PathSample>& trajectory, double radius,
                                double min_dwell);

}  // namespace asg::failures
