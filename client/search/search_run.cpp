// The search loop: ask a generation, plan it for the farm, score its results, tell it whole.
#include "client/search/search_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "client/batch/batch_seed.h"
#include "client/farm/progress.h"
#include "client/search/external_strategy.h"
#include "client/search/run_outcome.h"
#include "client/search/search_plan.h"
#include "core/check.h"
#include "protocol/messages.h"
#include "results/trajectory_csv.h"
#include "search/strategy_registry.h"

namespace asg::client {

namespace {

/// What an external search's generator is told when it registers.
json::Json GeneratorSearchInfo(const SearchSpec& spec) {
  const ExternalSettings settings = ParseExternalSettings(spec.strategy_settings);
  return {{"seed", spec.seed},
          {"budget_scenarios", spec.budget_scenarios},
          {"generation_size", spec.generation_size},
          {"runs_per_scenario", spec.runs_per_scenario},
          {"space", spec.space_json},
          {"settings", settings.generator}};
}

/// The generator link of an external search; nullptr for a built-in strategy.
std::unique_ptr<GeneratorLink> MakeGeneratorLink(const SearchSpec& spec, const std::string& token) {
  if (spec.strategy != kExternalStrategy) return nullptr;
  return std::make_unique<GeneratorLink>(GeneratorSearchInfo(spec), token);
}

/// The failure reader of a search with a catalog; none without one.
std::optional<FailureReader> MakeFailureReader(const std::filesystem::path& catalog) {
  if (catalog.empty()) return std::nullopt;
  return FailureReader(catalog);
}

std::unique_ptr<search::Strategy> MakeSearchStrategy(const SearchSpec& spec,
                                                     GeneratorLink* generator) {
  if (spec.strategy == kExternalStrategy) {
    return std::make_unique<ExternalStrategy>(ParseExternalSettings(spec.strategy_settings),
                                              spec.space, generator);
  }
  return search::MakeStrategy(spec.strategy, spec.strategy_settings, spec.space, spec.seed);
}

}  // namespace

SearchRun::SearchRun(const SearchRunContext& context)
    : context_(context),
      spec_(*context.batch->search),
      generator_(MakeGeneratorLink(spec_, context.token)),
      strategy_(MakeSearchStrategy(spec_, generator_.get())),
      failure_reader_(MakeFailureReader(context.catalog)),
      failure_threshold_(context.batch->settings.failures.regret_threshold),
      judge_threshold_(std::min(kRegretThresholds[0], failure_threshold_)),
      log_(spec_, context.out_dir),
      archive_log_(context.out_dir) {
  strategy_->UseFailureDistances(&candidate_failures_);
  const uint64_t runs = uint64_t{spec_.budget_scenarios} * spec_.runs_per_scenario;
  const uint64_t last = uint64_t{context_.batch->search_first_number} + runs - 1;
  if (last > protocol::kMaxScenarioNumber) {
    throw std::invalid_argument("search: " + std::to_string(spec_.budget_scenarios) +
                                " candidates of " + std::to_string(spec_.runs_per_scenario) +
                                " runs would be numbered up to " + std::to_string(last) +
                                ", past the maximum 2147483647");
  }
  const std::vector<PlannedScenario>& listed = context_.batch->scenarios;
  last_number_ = listed.empty() ? 0 : listed.back().scenario_number;
}

std::vector<PlannedScenario> SearchRun::Take(bool wait) {
  std::vector<PlannedScenario> planned;
  if (!started_) {
    started_ = true;
    Consultation consultation;
    Consult(*strategy_, spec_, &consultation);
    Apply(std::move(consultation), &planned);
  } else {
    if (!consulting_.valid()) return planned;
    if (!wait && consulting_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      return planned;
    }
    Apply(consulting_.get(), &planned);
  }
  Settle();
  return planned;
}

bool SearchRun::interrupted() const {
  return generator_ != nullptr && generator_->cancelled() && !error_.empty();
}

void SearchRun::End(bool interrupted) {
  if (generator_ == nullptr) return;
  generator_->End(interrupted      ? "search interrupted"
                  : error_.empty() ? "search finished"
                                   : "search stopped: " + error_);
}

std::string SearchRun::Summary() const {
  if (log_.rows().empty()) return {};
  const SearchGenerationRow& last = log_.rows().back();
  std::ostringstream text;
  text << "search: " << spec_.strategy << ", " << proposed_ << " candidates proposed, "
       << log_.rows().size() << " generations told, best regret " << last.best_regret
       << " (scenario " << last.best_scenario << "), at or above";
  for (size_t i = 0; i < std::size(kRegretThresholds); ++i) {
    text << " " << kRegretThresholds[i] << ": " << last.at_or_above[i];
  }
  text << ", distinct failures";
  for (size_t i = 0; i < std::size(kRegretThresholds); ++i) {
    text << " " << kRegretThresholds[i] << ": " << last.distinct_failures[i];
  }
  text << " (search.csv, search.json)\n";
  return text.str();
}

void SearchRun::Recorded(const results::ScenarioResult& result,
                         const results::ScenarioRecord* written) {
  const auto found = generation_of_.find(result.scenario_number);
  if (found == generation_of_.end() || generations_.empty()) return;
  ASG_CHECK(found->second >= generations_.front().index);
  Generation& generation = generations_[found->second - generations_.front().index];
  Judge(generation, result, written);
  Score(generation, result, written);
  Settle();
}

void SearchRun::Judge(Generation& generation, const results::ScenarioResult& result,
                      const results::ScenarioRecord* written) {
  const double threshold = judge_threshold_;
  if (!failure_reader_ || !FailureReader::MayFail(result, threshold)) return;
  const std::filesystem::path folder =
      results::ScenarioFolder(context_.out_dir, result.scenario_number);
  try {
    const results::StoredScenario stored = written != nullptr ? results::StoredScenarioOf(*written)
                                                              : results::ReadScenarioFolder(folder);
    std::optional<failures::Failure> failure = failure_reader_->Describe(stored, folder, threshold);
    if (failure) generation.failures.emplace(result.scenario_number, std::move(*failure));
  } catch (const std::exception& error) {
    Stop(std::string("judging the failures: ") + error.what());
  }
}

void SearchRun::Stop(const std::string& why) {
  // Like a failed strategy: nothing more is asked, what was proposed still runs.
  if (!error_.empty()) return;
  error_ = why;
  exhausted_ = true;
  context_.logger->Error("search stopped: " + error_ + "; the scenarios proposed so far still run");
}

void SearchRun::Score(Generation& generation, const results::ScenarioResult& result,
                      const results::ScenarioRecord* written) {
  const uint32_t number = result.scenario_number;
  const auto position = std::find(generation.numbers.begin(), generation.numbers.end(), number);
  ASG_CHECK(position != generation.numbers.end());
  search::Evaluation evaluation;
  const size_t index = static_cast<size_t>(position - generation.numbers.begin());
  const search::Candidate& candidate = generation.candidates[index / spec_.runs_per_scenario];
  evaluation.id = candidate.id;
  if (result.status == results::ScenarioStatus::kDone) {
    if (result.regret.computed) evaluation.regret = result.regret.regret;
    evaluation.failure = result.termination_reason != protocol::TerminationReason::REASON_SUCCESS;
  }
  const auto failure = generation.failures.find(number);
  const RunToDescribe run{&spec_.space,
                          &candidate,
                          &result,
                          written,
                          results::ScenarioFolder(context_.out_dir, number),
                          failure != generation.failures.end() ? &failure->second : nullptr,
                          context_.batch->settings.failures.regret_threshold};
  try {
    DescribeRun(run, &evaluation);
  } catch (const std::exception& error) {
    Stop(std::string("describing the runs: ") + error.what());
  }
  generation.scores.emplace(number, evaluation);
}

std::map<uint32_t, uint32_t> SearchRun::IdentifyFailures(
    const std::vector<failures::Failure>& failing) {
  std::map<uint32_t, uint32_t> ids;
  for (const failures::Failure& failure : failing) {
    if (!FailsAt(failure, failure_threshold_)) continue;
    ids[failure.scenario_number] = static_cast<uint32_t>(failure_ids_.Add(failure));
  }
  return ids;
}

void SearchRun::Tally(const Generation& generation, const std::map<uint32_t, uint32_t>& ids,
                      std::vector<SearchCandidateRow>* candidates,
                      std::vector<search::Evaluation>* tell) {
  // A candidate's score: the mean regret over its runs; it fails when any run failed, and its
  // distinct failure is that of its first failing run.
  const uint32_t runs = spec_.runs_per_scenario;
  for (size_t c = 0; c < generation.candidates.size(); ++c) {
    const uint64_t id = generation.candidates[c].id;
    std::vector<uint32_t> numbers;
    std::vector<double> regrets;
    std::vector<search::Evaluation> evaluations;
    size_t failures = 0;
    std::optional<uint32_t> failure_id;
    for (uint32_t run = 0; run < runs; ++run) {
      const uint32_t number = generation.numbers[c * runs + run];
      const search::Evaluation& evaluation = generation.scores.at(number);
      numbers.push_back(number);
      regrets.push_back(evaluation.regret);
      evaluations.push_back(evaluation);
      failures += evaluation.failure ? 1 : 0;
      const auto found = ids.find(number);
      if (found != ids.end() && !failure_id) failure_id = found->second;
    }
    NoteFailure(generation, id, numbers, evaluations);
    candidates->push_back(
        MakeCandidateRow(id, generation.index, std::move(numbers), regrets, failures));
    search::Evaluation told = CandidateEvaluation(id, candidates->back().mean_regret, evaluations);
    told.failure_id = failure_id;
    tell->push_back(told);
  }
  std::sort(tell->begin(), tell->end(),
            [](const search::Evaluation& a, const search::Evaluation& b) { return a.id < b.id; });
}

void SearchRun::Consult(search::Strategy& strategy, const SearchSpec& spec,
                        Consultation* consultation) {
  const auto started = std::chrono::steady_clock::now();
  try {
    Ask(strategy, spec, consultation);
  } catch (const std::exception& error) {
    consultation->error = error.what();
    consultation->exhausted = true;
  }
  consultation->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

void SearchRun::Ask(search::Strategy& strategy, const SearchSpec& spec,
                    Consultation* consultation) {
  if (!consultation->tell.empty()) {
    strategy.Tell(consultation->tell);
    consultation->archive = strategy.archive();
  }
  while (consultation->may_ask && consultation->in_flight < kSearchGenerationsInFlight) {
    if (consultation->proposed >= spec.budget_scenarios) {
      consultation->exhausted = true;
      break;
    }
    const uint32_t count =
        std::min(spec.generation_size, spec.budget_scenarios - consultation->proposed);
    std::vector<search::Candidate> candidates = strategy.Ask(count);
    if (candidates.empty()) {
      // A strategy waiting for tells proposes none; one with nothing left ends the search.
      if (consultation->in_flight == 0) consultation->exhausted = true;
      break;
    }
    if (candidates.size() > count) candidates.resize(count);
    consultation->proposed += static_cast<uint32_t>(candidates.size());
    ++consultation->in_flight;
    consultation->asked.push_back(std::move(candidates));
  }
}

void SearchRun::Apply(Consultation consultation, std::vector<PlannedScenario>* planned) {
  strategy_seconds_ += consultation.seconds;
  if (consultation.exhausted) exhausted_ = true;
  if (!consultation.error.empty() && error_.empty()) {
    error_ = consultation.error;
    context_.logger->Error("search stopped: " + error_ +
                           "; the scenarios proposed so far still run");
  }
  if (consultation.archive) {
    archive_log_.Add(consultation.told_generation, *consultation.archive, number_of_id_);
    archive_log_.Write();
  }
  for (std::vector<search::Candidate>& candidates : consultation.asked) {
    Plan(std::move(candidates), planned);
  }
}

void SearchRun::Plan(std::vector<search::Candidate> candidates,
                     std::vector<PlannedScenario>* planned) {
  const Batch& batch = *context_.batch;
  Generation generation;
  generation.index = next_generation_++;
  generation.candidates = std::move(candidates);
  const uint32_t runs = spec_.runs_per_scenario;
  for (const search::Candidate& candidate : generation.candidates) {
    // A candidate is `runs` consecutive scenarios, all with the seed of the first.
    const uint32_t first = batch.search_first_number + proposed_++ * runs;
    const uint64_t seed = ScenarioSeed(batch.settings.seed, first);
    number_of_id_[candidate.id] = first;
    std::vector<uint32_t> parents;
    for (const uint64_t parent : candidate.parents) {
      const auto it = number_of_id_.find(parent);
      if (it != number_of_id_.end()) parents.push_back(it->second);
    }
    std::vector<uint32_t> run_numbers;
    for (uint32_t run = 0; run < runs; ++run) run_numbers.push_back(first + run);
    for (uint32_t run = 0; run < runs; ++run) {
      const uint32_t number = first + run;
      ASG_CHECK(number > last_number_);
      last_number_ = number;
      planned->push_back(PlanCandidate(
          spec_.space, batch.base_request, candidate, number, seed,
          CandidateRecord(spec_.space, candidate, generation.index, parents, run, run_numbers),
          run));
      generation.numbers.push_back(number);
      generation_of_[number] = generation.index;
    }
  }
  generations_.push_back(std::move(generation));
}

void SearchRun::NoteFailure(const Generation& generation, uint64_t id,
                            const std::vector<uint32_t>& numbers,
                            const std::vector<search::Evaluation>& runs) {
  const std::optional<size_t> described = DescribedRun(runs);
  if (!described) return;
  const auto failure = generation.failures.find(numbers[*described]);
  if (failure != generation.failures.end()) candidate_failures_.Add(id, failure->second.signature);
}

void SearchRun::Settle() {
  // One consultation at a time; when it ends, Poll settles again.
  if (consulting_.valid() || generations_.empty()) return;
  Generation& generation = generations_.front();
  if (generation.scores.size() != generation.numbers.size()) return;
  std::vector<failures::Failure> failing;  // by ascending scenario number
  for (const auto& [number, failure] : generation.failures) failing.push_back(failure);
  Consultation consultation;
  std::vector<SearchCandidateRow> candidates;
  Tally(generation, IdentifyFailures(failing), &candidates, &consultation.tell);
  consultation.told_generation = generation.index;
  const SearchGenerationRow& row = log_.Add(generation.index, candidates, failing);
  log_.Write();
  char line[256];
  std::snprintf(line, sizeof line,
                "search generation %u told: %zu candidates (scenarios %u..%u), mean regret "
                "%.3f, max %.3f, best so far %.3f (scenario %u); strategy time so far %.3f s",
                row.generation, row.proposals, row.first_scenario, row.last_scenario,
                row.mean_regret, row.max_regret, row.best_regret, row.best_scenario,
                strategy_seconds_);
  context_.logger->Info(line);
  for (const uint32_t number : generation.numbers) generation_of_.erase(number);
  generations_.pop_front();
  if (!error_.empty()) return;  // a failed strategy is told nothing more
  // The tell and the next asks run beside the farm loop, which keeps the workers fed from the
  // generation still queued; the sequence of calls is the same as if they ran here.
  consultation.in_flight = generations_.size();
  consultation.proposed = proposed_;
  consultation.may_ask = !exhausted_;
  consulting_ = std::async(std::launch::async, [this, consultation]() mutable {
    Consult(*strategy_, spec_, &consultation);
    return consultation;
  });
}

FeedMaker SearchFeedFor(const Batch& batch, const FarmSettings& settings) {
  if (!batch.search) return {};
  return [&batch, out_dir = settings.out_dir, token = settings.token,
          catalog = settings.catalog](core::Logger* logger) -> std::unique_ptr<ScenarioFeed> {
    return std::make_unique<SearchRun>(SearchRunContext{&batch, out_dir, logger, token, catalog});
  };
}

}  // namespace asg::client
