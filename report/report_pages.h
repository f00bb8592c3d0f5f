// The HTML pages of the batch report (report.h): text only, from data report.cpp gathered.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages_json.h"

namespace asg::report {

/// What one scenario page shows, read from its folder.
struct ReportScenario {
  std::string folder;                   ///< e.g. "scenario_0007" or "scenario_0007_planner"
  json::Json page;                      ///< window.ASG_SCENARIO: trajectory, map, obstacles
  std::string request_text;             ///< request.json as stored, empty when absent
  std::string result_text;              ///< result.json as stored
  std::vector<std::string> captures;    ///< file names under captures/, sorted
  std::vector<std::string> node_files;  ///< paths under nodes/, relative to it, sorted
};

/// `text` with &, <, >, " and ' escaped for HTML (and XML) text and attribute values, and the
/// control characters XML 1.0 cannot hold (all but tab, line feed, carriage return) as '?'.
std::string HtmlEscaped(std::string_view text);

/// `json` as a JavaScript expression safe inside a <script> element ("</" written "<\/").
std::string ScriptJson(const json::Json& json);

/// DIR/index.html; the page reads report/data.js.
std::string IndexPage(std::string_view batch_name);

/// DIR/<folder>/index.html; `replay_request` is the request.json path the replay command names.
std::string ScenarioPage(const ReportScenario& scenario, std::string_view replay_request);

}  // namespace asg::report
