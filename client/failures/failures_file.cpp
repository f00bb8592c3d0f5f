// failures.csv, failures.json and the terminal's table of a batch's distinct failures.
#include "client/failures/failures_file.h"

#include <cstdio>
#include <optional>

#include "client/failures/reproduction.h"
#include "core/number_format.h"
#include "json/fields.h"
#include "results/files.h"
#include "results/trajectory_csv.h"

namespace asg::json {

template <>
struct Schema<client::BatchFailures> {
  static constexpr const char* kName = "Failures";
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("regret_threshold", m.regret_threshold, kPositive);
    // Absent in files written before reproduction runs: none were judged.
    v.Optional("reproduce", m.reproduce);
    v.Required("failing_scenarios", m.failing_scenarios);
    // Written for people (derived from the rows), so read and not kept.
    size_t distinct = m.clusters.size();
    v.Required("distinct_failures", distinct);
    std::optional<size_t> reliable, runs;
    if (m.reproduce > 0) {
      reliable = client::ReliableFailures(m);
      runs = client::ReproductionRuns(m);
    }
    v.Optional("reliable_failures", reliable);
    v.Optional("reproduction_runs", runs);
    size_t contacts = m.contact_scenarios.size();  // the same: for people
    v.Optional("contacts", contacts);
    v.Required("failures", m.clusters);
    v.Optional("contact_scenarios", m.contact_scenarios);
  }
};

}  // namespace asg::json

namespace asg::client {

namespace fs = std::filesystem;
using json::Json;

namespace {

constexpr const char* kCsvFile = "failures.csv";
constexpr const char* kJsonFile = "failures.json";

std::string MaxRegretText(const failures::FailureCluster& cluster) {
  return cluster.max_regret ? results::FormatCsvNumber(*cluster.max_regret) : std::string();
}

/// A count that is absent before reproduction runs are judged: empty then.
std::string CountText(const std::optional<uint32_t>& count) {
  return count ? std::to_string(*count) : std::string();
}

/// The table's reproduction column: "4/5", or "-" when not judged.
std::string ReproducedText(const failures::FailureCluster& cluster) {
  return cluster.runs ? std::to_string(*cluster.reproduced) + "/" + std::to_string(*cluster.runs)
                      : std::string("-");
}

}  // namespace

std::string FailuresCsv(const BatchFailures& batch_failures) {
  const bool reproduced = batch_failures.reproduce > 0;
  std::string csv(kFailuresCsvHeader);
  if (reproduced) csv += kReproductionCsvColumns;
  csv += '\n';
  for (const failures::FailureCluster& cluster : batch_failures.clusters) {
    csv += std::to_string(cluster.id) + ',' + std::string(failures::FailureKindName(cluster.kind)) +
           ',' + std::to_string(cluster.representative) + ',' +
           std::to_string(cluster.members.size()) + ',' + std::to_string(cluster.first_found) +
           ',' + results::FormatCsvNumber(cluster.x) + ',' + results::FormatCsvNumber(cluster.y) +
           ',' + MaxRegretText(cluster);
    if (reproduced) csv += ',' + CountText(cluster.reproduced) + ',' + CountText(cluster.runs);
    csv += '\n';
  }
  return csv;
}

Json FailuresJson(const BatchFailures& batch_failures) {
  Json json;
  json::EncodeFields(json, batch_failures);
  return json;
}

void WriteFailuresFiles(const fs::path& batch_dir, const BatchFailures& batch_failures) {
  results::WriteFileAtomically(batch_dir / kCsvFile, FailuresCsv(batch_failures));
  results::WriteFileAtomically(batch_dir / kJsonFile,
                               results::JsonFileText(FailuresJson(batch_failures)));
}

BatchFailures ReadFailuresJson(const fs::path& batch_dir) {
  const fs::path file = batch_dir / kJsonFile;
  const Json json = results::ReadJsonFile(file);
  BatchFailures read;
  try {
    json::DecodeFields(json, "", &read);
  } catch (const json::DecodeError& error) {
    throw results::ResultError(file.string() + ": " + error.what());
  }
  return read;
}

std::string FormatFailuresTable(const BatchFailures& batch_failures) {
  const uint32_t reproduce = batch_failures.reproduce;
  char line[240];
  std::snprintf(line, sizeof line,
                "%u failing scenarios (regret threshold %g), %zu distinct failures",
                batch_failures.failing_scenarios, batch_failures.regret_threshold,
                batch_failures.clusters.size());
  std::string table = line;
  if (reproduce > 0) {
    std::snprintf(line, sizeof line, ", %zu reliable (reproduced in at least %u of %u runs)",
                  ReliableFailures(batch_failures), ReliableMinimum(reproduce), reproduce);
    table += line;
  }
  std::snprintf(line, sizeof line, ", %zu near misses (successes that touched an obstacle)\n",
                batch_failures.contact_scenarios.size());
  table += line;
  if (batch_failures.clusters.empty()) return table;
  std::snprintf(line, sizeof line, "  %10s  %-13s %14s %8s %11s %8s %8s %10s%s\n", "failure_id",
                "kind", "representative", "members", "first_found", "x", "y", "max_regret",
                reproduce > 0 ? "  reproduced" : "");
  table += line;
  for (const failures::FailureCluster& cluster : batch_failures.clusters) {
    std::snprintf(line, sizeof line, "  %10d  %-13s %14u %8zu %11u %8.2f %8.2f %10s", cluster.id,
                  std::string(failures::FailureKindName(cluster.kind)).c_str(),
                  cluster.representative, cluster.members.size(), cluster.first_found,
                  cluster.x + 0.0, cluster.y + 0.0,  // + 0.0: -0 prints as 0.00
                  cluster.max_regret ? core::FormatNumber(*cluster.max_regret, 3).c_str() : "-");
    table += line;
    if (reproduce > 0) {
      std::snprintf(line, sizeof line, "  %10s", ReproducedText(cluster).c_str());
      table += line;
    }
    table += '\n';
  }
  return table;
}

}  // namespace asg::client
