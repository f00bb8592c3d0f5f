// The failures page (failures_page.h): the cards in page order, as static HTML, with the data of
// the trajectory maps of representatives that have no aerial.
#include "report/failures_page.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/number_format.h"
#include "report/report.h"
#include "report/report_pages.h"
#include "report/scenario_data.h"
#include "results/files.h"
#include "results/folder.h"

namespace asg::report {

namespace fs = std::filesystem;
using failures::FailureCluster;
using json::Json;

namespace {

/// `value` with `decimals` digits after the point ("0.00" for a value that rounds to -0).
std::string Fixed(double value, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  const std::string fixed = text;
  return fixed.starts_with('-') && fixed.find_first_not_of("-0.") == std::string::npos
             ? fixed.substr(1)
             : fixed;
}

/// Whether `a` was reproduced more often than `b`, as a share of its runs (judged ones first).
bool MoreReproducible(const FailureCluster& a, const FailureCluster& b) {
  const bool a_judged = a.runs && *a.runs > 0, b_judged = b.runs && *b.runs > 0;
  if (a_judged != b_judged) return a_judged;
  if (!a_judged) return false;
  // a.reproduced / a.runs > b.reproduced / b.runs, exactly.
  return uint64_t{*a.reproduced} * *b.runs > uint64_t{*b.reproduced} * *a.runs;
}

/// Whether `a` has the higher max_regret (a measured one above none).
bool HigherRegret(const FailureCluster& a, const FailureCluster& b) {
  if (a.max_regret.has_value() != b.max_regret.has_value()) return a.max_regret.has_value();
  return a.max_regret && *a.max_regret > *b.max_regret;
}

/// The batch's scenario folder names by scenario number (a search's or a variant batch's
/// numbers are each one folder's).
std::map<uint32_t, std::string> FoldersByNumber(const fs::path& batch_dir) {
  std::map<uint32_t, std::string> folders;
  for (const auto& [number, variant] : results::ListScenarioFolders(batch_dir)) {
    folders.emplace(number, results::ScenarioFolderName(number, variant));
  }
  return folders;
}

/// A link to scenario `number`'s page, or its folder name as text when it has no folder.
std::string ScenarioLink(const std::map<uint32_t, std::string>& folders, uint32_t number) {
  const auto folder = folders.find(number);
  if (folder == folders.end()) return HtmlEscaped(results::ScenarioFolderName(number));
  const std::string name = HtmlEscaped(folder->second);
  return "<a href=\"" + name + "/index.html\">" + name + "</a>";
}

/// The keys of a scenario page's data that a trajectory map reads (scenario_data.h).
constexpr const char* kMapKeys[] = {"status", "reason",    "size",   "start", "goal", "goal_radius",
                                    "ortho",  "obstacles", "relief", "x",     "y"};

/// The card's picture: the representative's aerial, else a figure that failures.js draws its
/// trajectory map in from `maps`[id] (scenario_data.h's page data with the failure point).
std::string Picture(const fs::path& batch_dir, const std::string& folder,
                    const FailureCluster& cluster, Json* maps) {
  if (folder.empty()) return "";
  ReportScenario scenario;
  ReadScenario(batch_dir / folder, &scenario);
  const std::string aerial = Thumbnail(scenario.captures);
  const std::string name = HtmlEscaped(folder);
  if (!aerial.empty()) {
    return "<a href=\"" + name + "/index.html\"><img class=\"aerial\" src=\"" +
           HtmlEscaped(folder + "/captures/" + aerial) + "\" alt=\"" + name + "\"></a>";
  }
  Json map = Json::object();
  for (const char* key : kMapKeys) map[key] = scenario.page[key];
  // The aerial under the map is the scenario folder's: its path from this page.
  if (map["ortho"].is_object()) {
    map["ortho"]["src"] = folder + "/" + map["ortho"]["src"].get<std::string>();
  }
  map["point"] = Json::array({cluster.x, cluster.y});
  (*maps)[std::to_string(cluster.id)] = std::move(map);
  return "<figure class=\"failure-map\" data-map=\"" + std::to_string(cluster.id) + "\"></figure>";
}

/// The reproducibility line: "4/5 runs, reliable" and a link to each run's result.json.
std::string Reproducibility(const FailureCard& card, const FailuresPage& page) {
  const FailureCluster& cluster = card.cluster;
  if (page.reproduce == 0) return "not checked (failures.reproduce is 0)";
  if (!cluster.runs || *cluster.runs == 0) return "not checked: none of its runs ran";
  std::string text =
      std::to_string(*cluster.reproduced) + "/" + std::to_string(*cluster.runs) + " runs, " +
      (card.reliable ? std::string("reliable")
                     : "not reliable (needs " + std::to_string(page.reliable_minimum) + ")");
  if (cluster.reproduction_folders) {
    text += ":";
    for (const std::string& folder : *cluster.reproduction_folders) {
      const std::string name = HtmlEscaped(fs::path(folder).filename().string());
      text += " <a class=\"run\" href=\"" + HtmlEscaped(folder) + "/result.json\">" + name + "</a>";
    }
  }
  return text;
}

/// The copies of a failure: their count and a link to each (folded away).
std::string Copies(const FailureCluster& cluster, const std::map<uint32_t, std::string>& folders) {
  std::string text = "<details><summary>" + std::to_string(cluster.members.size()) +
                     (cluster.members.size() == 1 ? " scenario" : " scenarios") +
                     "</summary><p class=\"members\">";
  for (const uint32_t member : cluster.members) text += ScenarioLink(folders, member) + " ";
  return text + "</p></details>";
}

/// One card.
std::string Card(const fs::path& batch_dir, const FailureCard& card, const FailuresPage& page,
                 const std::map<uint32_t, std::string>& folders, Json* maps) {
  const FailureCluster& cluster = card.cluster;
  const auto folder = folders.find(cluster.representative);
  const std::string kind(failures::FailureKindName(cluster.kind));
  std::string text = "<article class=\"failure-card\" id=\"failure-" + std::to_string(cluster.id) +
                     "\" data-failure-id=\"" + std::to_string(cluster.id) + "\" data-kind=\"" +
                     kind + "\" data-reliable=\"" + (card.reliable ? "1" : "0") + "\">\n";
  text += Picture(batch_dir, folder == folders.end() ? "" : folder->second, cluster, maps);
  text += "<h2>Failure " + std::to_string(cluster.id) + ": " + kind + "</h2>\n<dl>\n";
  text +=
      "<dt>where</dt><dd>x " + Fixed(cluster.x, 2) + " m, y " + Fixed(cluster.y, 2) + " m</dd>\n";
  text += "<dt>representative</dt><dd>" + ScenarioLink(folders, cluster.representative) + "</dd>\n";
  text += "<dt>max regret</dt><dd>" + (cluster.max_regret ? Fixed(*cluster.max_regret, 3) : "-") +
          "</dd>\n";
  text += "<dt>reproduced</dt><dd class=\"reproduced\">" + Reproducibility(card, page) + "</dd>\n";
  text += "<dt>copies</dt><dd>" + Copies(cluster, folders) + "</dd>\n";
  text += "<dt>first found</dt><dd>" + ScenarioLink(folders, cluster.first_found) + "</dd>\n";
  return text + "</dl>\n</article>\n";
}

/// The counts under the title.
std::string Counts(const FailuresPage& page) {
  const size_t reliable = static_cast<size_t>(std::count_if(
      page.cards.begin(), page.cards.end(), [](const FailureCard& card) { return card.reliable; }));
  std::string text = "<p id=\"failure-counts\" data-failing=\"" +
                     std::to_string(page.failing_scenarios) + "\" data-distinct=\"" +
                     std::to_string(page.cards.size()) + "\" data-contacts=\"" +
                     std::to_string(page.contact_scenarios.size()) + "\">";
  if (page.cards.empty()) {
    text += "No failures: no scenario failed to reach the goal or reached regret " +
            core::FormatNumber(page.regret_threshold) + ".";
  } else {
    text += std::to_string(page.failing_scenarios) + " failing scenarios (regret threshold " +
            core::FormatNumber(page.regret_threshold) + "): " + std::to_string(page.cards.size()) +
            " distinct failures";
    if (page.reproduce > 0) {
      text += ", " + std::to_string(reliable) + " reliable (reproduced in at least " +
              std::to_string(page.reliable_minimum) + " of " + std::to_string(page.reproduce) +
              " runs)";
    }
    text += ". Most reproducible first, then by regret.";
  }
  return text + "</p>\n";
}

/// The near misses: their count and a link to each.
std::string NearMisses(const FailuresPage& page, const std::map<uint32_t, std::string>& folders) {
  std::string text = "<section id=\"near-misses\" data-count=\"" +
                     std::to_string(page.contact_scenarios.size()) + "\">\n<h2>Near misses</h2>\n";
  if (page.contact_scenarios.empty()) {
    return text + "<p>None: no success below the threshold touched an obstacle.</p>\n</section>\n";
  }
  text += "<p>" + std::to_string(page.contact_scenarios.size()) +
          " successes below the threshold touched a non-traversable obstacle (kind contact, no "
          "failures):</p>\n<p class=\"members\">";
  for (const uint32_t number : page.contact_scenarios) text += ScenarioLink(folders, number) + " ";
  return text + "</p>\n</section>\n";
}

}  // namespace

std::vector<FailureCard> PageOrder(std::vector<FailureCard> cards) {
  std::sort(cards.begin(), cards.end(), [](const FailureCard& a, const FailureCard& b) {
    if (MoreReproducible(a.cluster, b.cluster)) return true;
    if (MoreReproducible(b.cluster, a.cluster)) return false;
    if (HigherRegret(a.cluster, b.cluster)) return true;
    if (HigherRegret(b.cluster, a.cluster)) return false;
    return a.cluster.id < b.cluster.id;
  });
  return cards;
}

void WriteFailuresPage(const fs::path& batch_dir, const FailuresPage& page) {
  if (!IsBatchFolder(batch_dir)) {
    throw ReportError(batch_dir.string() + ": not a batch folder (no batch_identity.json)");
  }
  const Json identity = results::ReadJsonFile(batch_dir / "batch_identity.json");
  const std::string name = identity.contains("batch") && identity["batch"].is_string()
                               ? identity["batch"].get<std::string>()
                               : std::string();
  InstallReportAssets(batch_dir);
  const std::map<uint32_t, std::string> folders = FoldersByNumber(batch_dir);
  std::string text = PageHead("ASG Farm failures of batch " + name, "report/");
  text += "<body class=\"failures\">\n<header><p><a href=\"index.html\">&larr; batch</a></p>";
  text += "<h1>Failures of batch " + HtmlEscaped(name) + "</h1>\n" + Counts(page) + "</header>\n";
  text += "<section id=\"failure-cards\">\n";
  Json maps = Json::object();
  for (const FailureCard& card : PageOrder(page.cards)) {
    text += Card(batch_dir, card, page, folders, &maps);
  }
  text += "</section>\n" + NearMisses(page, folders);
  text += "<script>window.ASG_FAILURES = " + ScriptJson({{"maps", maps}}) + ";</script>\n";
  text += "<script src=\"report/plots.js\"></script>\n";
  text += "<script src=\"report/failures.js\"></script>\n</body>\n</html>\n";
  results::WriteFileAtomically(batch_dir / "failures.html", text);
}

}  // namespace asg::report
