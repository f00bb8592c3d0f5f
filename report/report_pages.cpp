// The HTML pages of the batch report (report_pages.h). Each page records script errors, and a
// resource that fails to load, in its root element's data-errors attribute, and the script
// sets data-ready when it has drawn the page, so a headless browser's DOM dump shows both.
#include "report/report_pages.h"

#include "results/folder.h"

namespace asg::report {

namespace {

/// `json`[`key`] as text (a string, or a number as JSON writes it); empty when absent.
std::string Text(const json::Json& json, const char* key) {
  if (!json.contains(key)) return "";
  const json::Json& value = json[key];
  return value.is_string() ? value.get<std::string>() : value.is_number() ? value.dump() : "";
}

/// Links to the pages of the scenarios numbered in `numbers` (a JSON array), from a scenario
/// page, each with `css_class`; `none` when there are none.
std::string ScenarioLinks(const json::Json& numbers, const char* css_class, const char* none) {
  std::string text;
  if (numbers.is_array()) {
    for (const json::Json& number : numbers) {
      if (!number.is_number_unsigned()) continue;
      const std::string folder = results::ScenarioFolderName(number.get<uint32_t>());
      text += std::string(text.empty() ? "" : " ") + "<a class=\"" + css_class + "\" href=\"../" +
              folder + "/index.html\">" + folder + "</a>";
    }
  }
  return text.empty() ? none : text;
}

/// " (candidates 3, 7)": the parents' candidate ids (search.json's parent_ids); empty for none.
std::string ParentIds(const json::Json& ids) {
  if (!ids.is_array() || ids.empty()) return "";
  std::string text;
  for (const json::Json& id : ids) text += (text.empty() ? "" : ", ") + HtmlEscaped(id.dump());
  return " (candidate" + std::string(ids.size() > 1 ? "s " : " ") + text + ")";
}

/// A searched scenario's section: how the search made its candidate (search.json: origin,
/// parents, generation, its runs); empty for a scenario no search proposed.
std::string SearchSection(const json::Json& search) {
  if (!search.is_object()) return "";
  std::string text = "<h2>Search</h2>\n<dl id=\"search-record\">\n";
  text += "<dt>candidate</dt><dd id=\"search-candidate\">" +
          HtmlEscaped(Text(search, "candidate_id")) + "</dd>\n";
  text +=
      "<dt>origin</dt><dd id=\"search-origin\">" + HtmlEscaped(Text(search, "origin")) + "</dd>\n";
  text += "<dt>parents</dt><dd id=\"search-parents\">" +
          ScenarioLinks(search.value("parents", json::Json()), "parent", "none") +
          ParentIds(search.value("parent_ids", json::Json())) + "</dd>\n";
  text += "<dt>generation</dt><dd id=\"search-generation\">" +
          HtmlEscaped(Text(search, "generation")) + " (the search's, search.csv); lineage " +
          HtmlEscaped(Text(search, "lineage_generation")) + " (one past its deepest parent)</dd>\n";
  const json::Json runs = search.value("runs", json::Json());
  if (runs.is_array() && runs.size() > 1) {
    text += "<dt>runs</dt><dd>" + std::to_string(runs.size()) + " (this is run " +
            HtmlEscaped(Text(search, "run")) +
            ", counted from 0): " + ScenarioLinks(runs, "run", "") + "</dd>\n";
  }
  return text + "</dl>\n";
}

/// A failing scenario's link to its card on the failures page; empty for one that is no failure.
std::string FailureLink(uint32_t failure_id) {
  if (failure_id == 0) return "";
  const std::string id = std::to_string(failure_id);
  return "\n<p id=\"failure-link\">A member of <a href=\"../failures.html#failure-" + id +
         "\">distinct failure " + id + "</a>.</p>\n";
}

}  // namespace

std::string HtmlEscaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // XML 1.0 (and so XHTML and the JUnit report) cannot hold other control characters.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string ScriptJson(const json::Json& json) {
  const std::string text = json.dump(-1, ' ', false, json::Json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') {
      out += "<\\/";
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string PageHead(std::string_view title, std::string_view assets) {
  std::string text = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  text += "<title>" + HtmlEscaped(title) + "</title>\n";
  text +=
      "<script>window.addEventListener(\"error\", function (e) {\n"
      "  var root = document.documentElement, what = e.message || (e.target && e.target.src) || "
      "\"error\";\n"
      "  root.setAttribute(\"data-errors\", (root.getAttribute(\"data-errors\") || \"\") + what + "
      "\"; \");\n"
      "}, true);</script>\n";
  text += "<link rel=\"stylesheet\" href=\"" + std::string(assets) + "report.css\">\n</head>\n";
  return text;
}

std::string IndexPage(std::string_view batch_name) {
  std::string text = PageHead("ASG Farm batch " + std::string(batch_name), "report/");
  text += R"(<body class="index">
<header><h1>Batch <span id="batch-name">)" +
          HtmlEscaped(batch_name) + R"(</span></h1><dl id="facts"></dl></header>
<section class="charts">
  <figure id="status-chart"><figcaption>Scenarios per status</figcaption></figure>
  <figure id="reason-chart"><figcaption>Done scenarios per termination reason</figcaption></figure>
  <figure id="sim-time-chart"><figcaption>Sim time</figcaption></figure>
  <figure id="regret-chart"><figcaption>Regret</figcaption></figure>
  <figure id="map"><figcaption>End points on the landscape (north up)</figcaption></figure>
  <figure id="search-chart"><figcaption>Search: regret per generation</figcaption></figure>
  <figure id="archive-map"><figcaption>Search archive</figcaption></figure>
  <figure id="family-trees"><figcaption>Family trees of the replayed scenarios: each row a
    replayed scenario's lineage in the search, oldest left (family_trees.png)</figcaption></figure>
</section>
<section id="table-section">
  <form id="filters" onsubmit="return false">
    <label>status <select id="filter-status"><option value="">all</option></select></label>
    <label>reason <select id="filter-reason"><option value="">all</option></select></label>
    <label>number <input id="filter-number" type="search" title="a scenario number, e.g. 17"></label>
    <span id="shown"></span>
    <span id="pager"></span>
  </form>
  <table id="scenarios"><thead><tr></tr></thead><tbody></tbody></table>
</section>
<div id="lightbox" hidden><figure><img class="zoomed" alt=""><figcaption></figcaption></figure></div>
<noscript>This report draws its charts and table with JavaScript.</noscript>
<script src="report/data.js"></script>
<script src="report/plots.js"></script>
<script src="report/index.js"></script>
</body>
</html>
)";
  return text;
}

std::string ScenarioPage(const ReportScenario& scenario, std::string_view replay_request) {
  std::string text = PageHead(scenario.folder, "../report/");
  text += "<body class=\"scenario\">\n<header><p><a href=\"../index.html\">&larr; batch</a></p>";
  text += "<h1>" + HtmlEscaped(scenario.folder) + "</h1><div id=\"outcome\"></div>" +
          FailureLink(scenario.failure_id) + "<div id=\"links\"></div></header>\n" +
          SearchSection(scenario.search);
  text += "<section class=\"charts\">\n";
  text +=
      "  <figure id=\"trajectory-map\"><figcaption>Trajectory (north up)</figcaption></figure>\n";
  for (const char* plot : {"speed", "roll", "pitch", "yaw"}) {
    text += "  <figure id=\"" + std::string(plot) + "-plot\"></figure>\n";
  }
  text += "</section>\n";
  text += "<section id=\"interventions\"><h2>Interventions (edited by a person)</h2></section>\n";
  if (!scenario.captures.empty()) {
    text += "<h2>Captures</h2>\n<section id=\"captures\">\n";
    for (const std::string& capture : scenario.captures) {
      const std::string source = HtmlEscaped("captures/" + capture);
      text += "  <figure><a href=\"" + source + "\" class=\"capture\"><img src=\"" + source +
              "\" alt=\"" + HtmlEscaped(capture) + "\"></a><figcaption>" + HtmlEscaped(capture) +
              "</figcaption></figure>\n";
    }
    text += "</section>\n";
  }
  if (!scenario.node_files.empty()) {
    text += "<h2>Vehicle node files</h2>\n<ul id=\"node-files\">\n";
    for (const std::string& file : scenario.node_files) {
      text += "  <li><a href=\"" + HtmlEscaped("nodes/" + file) + "\">" + HtmlEscaped(file) +
              "</a></li>\n";
    }
    text += "</ul>\n";
  }
  text += "<h2>Replay</h2>\n<pre id=\"replay\">asg-worker --run-scenario " +
          HtmlEscaped(replay_request) + " --out DEBUG_DIR</pre>\n";
  text += "<h2>result.json</h2>\n<pre id=\"result-json\">" + HtmlEscaped(scenario.result_text) +
          "</pre>\n";
  if (!scenario.request_text.empty()) {
    text += "<h2>request.json</h2>\n<pre id=\"request-json\">" +
            HtmlEscaped(scenario.request_text) + "</pre>\n";
  }
  text += "<div id=\"lightbox\" hidden><img alt=\"\"></div>\n";
  text += "<script>window.ASG_SCENARIO = " + ScriptJson(scenario.page) + ";</script>\n";
  text += "<script src=\"../report/plots.js\"></script>\n";
  text += "<script src=\"../report/scenario.js\"></script>\n</body>\n</html>\n";
  return text;
}

}  // namespace asg::report
