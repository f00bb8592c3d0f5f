// DIR/results.junit.xml: a batch as a JUnit test report, for CI servers (GitLab, Jenkins), as
// CARLA ScenarioRunner's --junit and scenario_simulator_v2's random tests write one.
//
//   <testsuites name="asg-farm" tests failures errors skipped time>
//     <testsuite name="<batch>" tests failures errors skipped time>
//       <properties><property name="seed" value="<batch seed>"/></properties>
//       <testcase name="scenario_0007[_<variant>]" classname="<batch>[.<variant>]" time="<wall s>">
//         <properties>seed, and regret, variant, layout when the scenario has them</properties>
//         <failure type="REASON_COLLISION" message="REASON_COLLISION after 12.3 s"/>  done,
//                                                                     not REASON_SUCCESS
//         <error type="failed" message="<error>"/>        failed: no result within max_attempts
//         <skipped message="invalid: <error>"/>           invalid: it could not run
//       </testcase> ...
// Test cases are in scenario number order; times are wall-clock seconds (timing.json), so the
// file is not byte-identical between runs, unlike the result folders.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/summary.h"
#include "results/folder.h"

namespace asg::report {

/// The report's XML text for `outcomes` (any order) of the batch `summary` describes.
std::string JunitReport(const BatchSummary& summary,
                        const std::vector<results::ScenarioOutcome>& outcomes);

/// Writes JunitReport to out_dir/results.junit.xml atomically; throws results::ResultError.
void WriteJunitReport(const std::filesystem::path& out_dir, const BatchSummary& summary,
                      const std::vector<results::ScenarioOutcome>& outcomes);

}  // namespace asg::report
