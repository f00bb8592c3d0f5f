// The described fields of a run's evaluation, from its record or folder.
#include "client/search/run_outcome.h"

#include <iterator>

#include "core/check.h"
#include "failures/failure_kind.h"
#include "results/trajectory_csv.h"
#include "search/descriptors.h"

namespace asg::client {

namespace {

static_assert(std::size(failures::kAllFailureKinds) + 1 == search::kOutcomeCount,
              "an outcome is none or a failure kind");

// The outcome category of a done run.
uint32_t OutcomeOf(const results::ScenarioResult& result, double threshold) {
  const std::optional<double> regret =
      result.regret.computed ? std::optional<double>(result.regret.regret) : std::nullopt;
  const std::optional<failures::FailureKind> kind = failures::ClassifyRun(
      result.termination_reason, regret, threshold, result.counters.collisions_touched > 0);
  if (!kind) return 0;
  for (size_t i = 0; i < std::size(failures::kAllFailureKinds); ++i) {
    if (failures::kAllFailureKinds[i] == *kind) return static_cast<uint32_t>(i + 1);
  }
  ASG_CHECK(false);
  return 0;
}

// [m] The run's last trajectory sample as trajectory.csv reads back; the origin when it has none.
Eigen::Vector2d EndPoint(const RunToDescribe& run) {
  if (run.written != nullptr) {
    if (run.written->trajectory.empty()) return Eigen::Vector2d::Zero();
    const results::TrajectoryRow row = results::TrajectoryRowOf(run.written->trajectory.back());
    return {row.x, row.y};
  }
  const std::vector<results::TrajectoryRow> rows =
      results::ReadScenarioFolder(run.folder).trajectory;
  if (rows.empty()) return Eigen::Vector2d::Zero();
  return {rows.back().x, rows.back().y};
}

}  // namespace

void DescribeRun(const RunToDescribe& run, search::Evaluation* evaluation) {
  const results::ScenarioResult& result = *run.result;
  if (result.status != results::ScenarioStatus::kDone) return;
  evaluation->described = true;
  evaluation->outcome = OutcomeOf(result, run.regret_threshold);
  // A failure's point; else the goal, where a success ends; else (no catalog judged the run)
  // where it ended.
  Eigen::Vector2d point = run.space->goal;
  if (run.failure != nullptr) {
    point = run.failure->signature.point;
  } else if (result.termination_reason != protocol::TerminationReason::REASON_SUCCESS) {
    point = EndPoint(run);
  }
  evaluation->x = point.x();
  evaluation->y = point.y();
  std::vector<Eigen::Vector2d> path;
  if (result.regret.computed) {
    for (const protocol::Point& vertex : result.regret.reference_path) {
      path.emplace_back(vertex.x, vertex.y);
    }
  }
  evaluation->obstacles_near_path =
      search::ObstaclesNearPath(*run.space, run.candidate->obstacles, path);
}

std::optional<size_t> DescribedRun(const std::vector<search::Evaluation>& runs) {
  std::optional<size_t> described;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].described && (!described || runs[i].regret > runs[*described].regret)) {
      described = i;
    }
  }
  return described;
}

search::Evaluation CandidateEvaluation(uint64_t id, double mean_regret,
                                       const std::vector<search::Evaluation>& runs) {
  const std::optional<size_t> described = DescribedRun(runs);
  search::Evaluation told = described ? runs[*described] : search::Evaluation{};
  told.id = id;
  told.regret = mean_regret;
  told.failure = false;
  for (const search::Evaluation& run : runs) told.failure = told.failure || run.failure;
  return told;
}

std::string OutcomeName(uint32_t outcome) {
  ASG_CHECK(outcome < search::kOutcomeCount);
  if (outcome == 0) return "none";
  return std::string(failures::FailureKindName(failures::kAllFailureKinds[outcome - 1]));
}

}  // namespace asg::client
