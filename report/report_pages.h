// The HTML pages of the batch report (report.h): text only, from data report.cpp gathered.
#pragma once

#include <cstdint>
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
  json::Json search;        ///< search.json: the candidate a search proposed; null when none
  uint32_t failure_id = 0;  ///< result.json's failure_id: its distinct failure; 0 for none
};

/// `text` with &, <, >, " and ' escaped for HTML (and XML) text and attribute values, and the
/// control characters XML 1.0 cannot hold (all but tab, line feed, carriage return) as '?'.
std::string HtmlEscaped(std::string_view text);

/// `json` as a JavaScript expression safe inside a <script> element ("</" written "<\/").
std::string ScriptJson(const json::Json& json);

/// The start of every page, to its <body>: the doctype, `title`, the hook that records script
/// and resource errors (before any other script, so that it sees them all) and the style sheet
/// under `assets` (the path of DIR/report/ from the page, e.g. "report/" or "../report/").
std::string PageHead(std::string_view title, std::string_view assets);

/// DIR/index.html; the page reads report/data.js.
std::string IndexPage(std::string_view batch_name);

/// DIR/<folder>/index.html; `replay_request` is the request.json path the replay command names.
std::string ScenarioPage(const ReportScenario& scenario, std::string_view replay_request);

}  // namespace asg::report
