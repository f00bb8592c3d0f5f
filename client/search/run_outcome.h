// What a search tells its strategy of a run beyond its regret: the described fields of
// search::Evaluation (where and how the run ended, the obstacles near its reference path), read
// from the record going to the run's folder or, for a run kept from an earlier run, from the
// folder itself, so that a resumed search tells the same values; and the one evaluation a
// candidate of several runs is told.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "failures/signature.h"
#include "results/folder.h"
#include "results/record.h"
#include "search/space.h"
#include "search/strategy.h"

namespace asg::client {

/// What the search knows of one recorded run.
struct RunToDescribe {
  const search::SearchSpace* space = nullptr;        ///< the search's space
  const search::Candidate* candidate = nullptr;      ///< the candidate it is a run of
  const results::ScenarioResult* result = nullptr;   ///< its result
  const results::ScenarioRecord* written = nullptr;  ///< its record; nullptr: read `folder`
  std::filesystem::path folder;                      ///< its scenario folder
  const failures::Failure* failure = nullptr;        ///< its failure when judged one, else null
  double regret_threshold = failures::kDefaultRegretThreshold;  ///< the batch's failures one
};

/// Sets the described fields of `evaluation` for a done run (else leaves them unset): outcome 0
/// when failures::ClassifyRun (at the threshold, touched when the run touched a non-traversable
/// actor) gives no kind, else 1 + the kind's index in failures::kAllFailureKinds; the point of
/// its failure's signature when it was judged one, else the space's goal for a run that reached
/// it, else its trajectory's last sample as trajectory.csv reads back (read from the folder for
/// a kept run); the candidate's obstacles near result.json's reference path. Throws
/// results::ResultError when a kept run's trajectory cannot be read.
void DescribeRun(const RunToDescribe& run, search::Evaluation* evaluation);

/// The index in `runs` (a candidate's runs, in run order) of its described run: the described
/// run of highest regret, the first of equals; nullopt when none is described.
std::optional<size_t> DescribedRun(const std::vector<search::Evaluation>& runs);

/// The evaluation a candidate is told: `id`, `mean_regret`, a failure when any of its `runs`
/// (run order) failed, and the described fields of its described run of highest regret (the
/// first of equals); undescribed when none is.
search::Evaluation CandidateEvaluation(uint64_t id, double mean_regret,
                                       const std::vector<search::Evaluation>& runs);

/// An outcome's name (outcome < search::kOutcomeCount): "none" for 0, else its failure kind's
/// ("collision", "stuck"...).
std::string OutcomeName(uint32_t outcome);

}  // namespace asg::client
