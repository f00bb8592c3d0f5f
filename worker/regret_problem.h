// The regret measure's view of a built world (regret/, docs/regret.md): the landscape's bounds,
// the start and goal, and every non-traversable actor as an obstacle; and the regret of a run
// of that world.
#pragma once

#include "protocol/extensions.h"
#include "protocol/messages.h"
#include "regret/reference_plan.h"
#include "regret/run_regret.h"
#include "scene/world.h"

namespace asg::worker {

/// The reference problem of `world`: bounds of its landscape grid, start (x, y, yaw), goal, and
/// the (x, y) of every visible non-traversable actor, in world order.
regret::ReferenceProblem ReferenceProblemOf(const scene::World& world);

/// The reference problem of a run of `request` in `world`: ReferenceProblemOf(world) from the
/// request's nominal start (x, y, yaw), so that every repeated run of a scene is measured against
/// the same plan.
regret::ReferenceProblem RunReferenceProblem(const scene::World& world,
                                             const protocol::RunScenarioRequest& request);

/// How a run of `request` measures a failure's regret: its "regret" extension, else the default.
regret::FailureTime FailureTimeOf(const protocol::RunScenarioRequest& request);

/// The regret report of a run of `world` whose reference plan is `plan` (made by
/// regret::PlanReference from ReferenceProblemOf(world)); `settings` gives the nominal speed, and
/// `failure_time` up to which moment a failure counts. A plan that was not found gives a report
/// with computed false.
protocol::RegretReport RegretOf(const protocol::AnalyzeScenarioRequest& run,
                                const regret::ReferenceProblem& problem,
                                const regret::ReferencePlan& plan,
                                const regret::ReferenceSettings& settings,
                                regret::FailureTime failure_time);

}  // namespace asg::worker
