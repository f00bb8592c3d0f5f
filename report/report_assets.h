// The report's page code (report.h): style sheet and scripts, copied into DIR/report/.
//
// They are hand-written CSS and JavaScript held in the executable as raw string literals
// (report_assets.cpp), so that `asg-client report` needs no data folder next to it, installed or
// not, and a report always matches the executable that wrote its data.js.
#pragma once

#include <span>
#include <string_view>

namespace asg::report {

/// One file of DIR/report/.
struct ReportAsset {
  std::string_view name;  ///< file name, e.g. "report.css"
  std::string_view text;  ///< its content
};

/// Every asset: report.css, plots.js (SVG charts and maps shared by the pages), index.js,
/// scenario.js, failures.js.
std::span<const ReportAsset> ReportAssets();

}  // namespace asg::report
