// What kind of failure a run is, from its termination reason, its regret and whether it touched
// a non-traversable obstacle (docs/failures.md, "What a failure is"). Pure functions, safe to call
// from any thread.
#pragma once

#include <optional>
#include <string_view>

#include "json/field_values.h"
#include "protocol/messages.h"

namespace asg::failures {

/// The regret at or above which a successful run is a failure (the batch setting
/// `failures.regret_threshold` will default to it); dimensionless, like regret.
inline constexpr double kDefaultRegretThreshold = 0.75;

/// How a run failed, or (kContact) how a successful run came close to failing.
enum class FailureKind {
  kCollision,    ///< REASON_VEHICLE_COLLISION
  kFlip,         ///< REASON_VEHICLE_FLIPPED
  kStuck,        ///< REASON_VEHICLE_STUCK_TIMEOUT
  kOutOfBounds,  ///< REASON_VEHICLE_OUT_OF_BOUNDS: left the landscape
  kTimeout,      ///< REASON_VEHICLE_IDLING_TIMEOUT or REASON_SIM_TIMEOUT
  kHighRegret,   ///< REASON_SUCCESS with regret at or above the threshold
  kContact,      ///< REASON_SUCCESS below the threshold that touched a non-traversable obstacle
};

/// Every kind, in declaration order.
inline constexpr FailureKind kAllFailureKinds[] = {
    FailureKind::kCollision,   FailureKind::kFlip,    FailureKind::kStuck,
    FailureKind::kOutOfBounds, FailureKind::kTimeout, FailureKind::kHighRegret,
    FailureKind::kContact};

/// Every kind with the name files and messages write, in declaration order.
inline constexpr json::NamedValue<FailureKind> kFailureKindTable[] = {
    {FailureKind::kCollision, "collision"}, {FailureKind::kFlip, "flip"},
    {FailureKind::kStuck, "stuck"},         {FailureKind::kOutOfBounds, "out_of_bounds"},
    {FailureKind::kTimeout, "timeout"},     {FailureKind::kHighRegret, "high_regret"},
    {FailureKind::kContact, "contact"}};

/// The kinds' names for the field visitor (json/fields.h): a kind is written by its name.
inline constexpr json::Names<FailureKind> kFailureKindNames{"failure kind", kFailureKindTable};

/// The kind's name as files and messages write it: "collision", "flip", "stuck",
/// "out_of_bounds", "timeout", "high_regret", "contact".
std::string_view FailureKindName(FailureKind kind);

/// Parses a name written by FailureKindName; returns false (leaving `kind` as it is) when unknown.
bool FailureKindFromName(std::string_view name, FailureKind* kind);

/// Whether runs of this kind count as failures: every kind but kContact (a near miss, reported
/// but counted only where a caller asks for it).
bool IsFailure(FailureKind kind);

/// The kind of a run that ended for `reason` with `regret` (absent when it was not measured);
/// `touched` says whether it touched a non-traversable obstacle. Any reason but REASON_SUCCESS
/// gives its kind; a success gives kHighRegret when regret >= `threshold`, else kContact when
/// `touched`, else nothing (a clean run).
std::optional<FailureKind> ClassifyRun(protocol::TerminationReason reason,
                                       std::optional<double> regret,
                                       double threshold = kDefaultRegretThreshold,
                                       bool touched = false);

}  // namespace asg::failures
