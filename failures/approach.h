// How the vehicle came to a failure point: the points where its path last crossed circles
// around the point, and the direction of travel there (docs/failures.md, "The signature"). Pure
// functions, safe to call from any thread.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "failures/run_facts.h"

namespace asg::failures {

/// The x-y positions of `trajectory` up to sim time `until` (inclusive), or all of them when
/// `until` is absent; never empty when `trajectory` is not (the first sample always counts).
std::vector<Eigen::Vector2d> PathUntil(const std::vector<PathSample>& trajectory,
                                       std::optional<double> until);

/// For k = 1..count, where `path` last crossed the circle of radius k * `spacing` [m] around
/// `center` before its end, relative to `center` [m] (interpolated between the samples either
/// side); the path's first point where the path never was that far from `center`. `path` must
/// not be empty.
std::vector<Eigen::Vector2d> ApproachPoints(const std::vector<Eigen::Vector2d>& path,
                                            const Eigen::Vector2d& center, double spacing,
                                            int count);

/// The direction of travel into `center` [deg, in (-180, 180], counter-clockwise from +x] from
/// the first approach point `nearest` (relative to center): from it to the center, or `last_yaw`
/// [deg] when it lies within `min_distance` [m] of the center (the vehicle hardly moved).
double ApproachHeading(const Eigen::Vector2d& nearest, double last_yaw, double min_distance);

/// `degrees` wrapped into (-180, 180].
double WrapDegrees(double degrees);

}  // namespace asg::failures
