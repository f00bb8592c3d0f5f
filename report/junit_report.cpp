// The batch as a JUnit XML report (junit_report.h).
#include "report/junit_report.h"

#include <algorithm>
#include <cstdio>

#include "protocol/messages.h"
#include "report/report_pages.h"
#include "results/files.h"

namespace asg::report {

using json::Json;

namespace {

std::string Seconds(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

std::string Attribute(std::string_view name, std::string_view value) {
  std::string text = " ";
  text.append(name).append("=\"").append(HtmlEscaped(value)).append("\"");
  return text;
}

std::string Property(std::string_view name, std::string_view value) {
  return "<property" + Attribute("name", name) + Attribute("value", value) + "/>";
}

}  // namespace

std::string JunitReport(const BatchSummary& summary,
                        const std::vector<results::ScenarioOutcome>& outcomes) {
  std::vector<const results::ScenarioOutcome*> sorted;
  for (const results::ScenarioOutcome& outcome : outcomes) sorted.push_back(&outcome);
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
    return a->result.scenario_number < b->result.scenario_number;
  });
  size_t failures = 0, errors = 0, skipped = 0;
  std::string cases;
  for (const results::ScenarioOutcome* outcome : sorted) {
    const results::ScenarioResult& result = outcome->result;
    const std::string name = results::ScenarioFolderName(result.scenario_number, result.variant);
    const std::string classname =
        summary.batch_name + (result.variant.empty() ? "" : "." + result.variant);
    cases += "    <testcase" + Attribute("name", name) + Attribute("classname", classname) +
             Attribute("time", Seconds(outcome->timing.wall_time_s)) + ">\n";
    cases += "      <properties>" + Property("seed", std::to_string(result.seed));
    if (result.status == results::ScenarioStatus::kDone && result.regret.computed) {
      cases += Property("regret", Json(result.regret.regret).dump());  // exact
    }
    if (!result.variant.empty()) {
      cases +=
          Property("variant", result.variant) + Property("layout", std::to_string(result.layout));
    }
    cases += "</properties>\n";
    switch (result.status) {
      case results::ScenarioStatus::kDone: {
        const std::string_view reason = protocol::TerminationReasonName(result.termination_reason);
        if (reason != "REASON_SUCCESS") {
          ++failures;
          cases += "      <failure" + Attribute("type", reason) +
                   Attribute("message", std::string(reason) + " after " +
                                            Seconds(result.vehicle_sim_time) + " s of sim time") +
                   "/>\n";
        }
        break;
      }
      case results::ScenarioStatus::kFailed:
        ++errors;
        cases += "      <error" + Attribute("type", "failed") + Attribute("message", result.error) +
                 "/>\n";
        break;
      case results::ScenarioStatus::kInvalid:
        ++skipped;
        cases += "      <skipped" + Attribute("message", "invalid: " + result.error) + "/>\n";
        break;
    }
    cases += "    </testcase>\n";
  }
  const std::string counts = Attribute("tests", std::to_string(sorted.size())) +
                             Attribute("failures", std::to_string(failures)) +
                             Attribute("errors", std::to_string(errors)) +
                             Attribute("skipped", std::to_string(skipped)) +
                             Attribute("time", Seconds(summary.wall_time_s));
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + Attribute("name", "asg-farm") +
         counts + ">\n  <testsuite" + Attribute("name", summary.batch_name) + counts +
         ">\n    <properties>" + Property("seed", std::to_string(summary.seed)) +
         "</properties>\n" + cases + "  </testsuite>\n</testsuites>\n";
}

void WriteJunitReport(const std::filesystem::path& out_dir, const BatchSummary& summary,
                      const std::vector<results::ScenarioOutcome>& outcomes) {
  results::WriteFileAtomically(out_dir / "results.junit.xml", JunitReport(summary, outcomes));
}

}  // namespace asg::report
