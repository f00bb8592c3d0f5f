// The search loop: ask a generation, plan it into the batch, score its results, tell it whole.
#include "client/search/search_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "client/batch/batch_seed.h"
#include "client/farm/output_folder.h"
#include "client/search/external_strategy.h"
#include "client/search/search_plan.h"
#include "core/check.h"
#include "protocol/messages.h"
#include "search/strategy_registry.h"

namespace asg::client {

namespace {

std::unique_ptr<search::Strategy> MakeSearchStrategy(const SearchSpec& spec,
                                                     GeneratorLink* generator) {
  if (spec.strategy == kExternalStrategy) {
    if (generator == nullptr) {
      throw std::invalid_argument("search: the external strategy needs the client's port");
    }
    return std::make_unique<ExternalStrategy>(ParseExternalSettings(spec.strategy_settings),
                                              spec.space, generator);
  }
  return search::MakeStrategy(spec.strategy, spec.strategy_settings, spec.space, spec.seed);
}

}  // namespace

SearchRun::SearchRun(const SearchRunContext& context)
    : context_(context),
      spec_(*context.batch->search),
      strategy_(MakeSearchStrategy(spec_, context.generator)),
      log_(spec_, context.out_dir) {
  const uint64_t runs = uint64_t{spec_.budget_scenarios} * spec_.runs_per_scenario;
  const uint64_t last = uint64_t{context_.batch->search_first_number} + runs - 1;
  if (last > protocol::kMaxScenarioNumber) {
    throw std::invalid_argument("search: " + std::to_string(spec_.budget_scenarios) +
                                " candidates of " + std::to_string(spec_.runs_per_scenario) +
                                " runs would be numbered up to " + std::to_string(last) +
                                ", past the maximum 2147483647");
  }
  // Searched scenarios are appended; reserving keeps the vector from moving while it grows.
  context_.batch->scenarios.reserve(context_.batch->scenarios.size() + runs);
}

std::vector<uint32_t> SearchRun::Start() {
  Consultation consultation;
  Consult(*strategy_, spec_, &consultation);
  std::vector<uint32_t> to_run;
  Apply(std::move(consultation), &to_run);
  // Generations kept whole (resume) are told here, until something is to run or all is told.
  for (;;) {
    Settle(&to_run);
    if (!to_run.empty() || !consulting_.valid()) break;
    Apply(consulting_.get(), &to_run);
  }
  return to_run;
}

std::vector<uint32_t> SearchRun::Poll() {
  std::vector<uint32_t> to_run;
  if (!consulting_.valid() ||
      consulting_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    return to_run;
  }
  Apply(consulting_.get(), &to_run);
  Settle(&to_run);
  return to_run;
}

std::vector<uint32_t> SearchRun::Await() {
  if (consulting_.valid()) consulting_.wait();
  return Poll();
}

std::vector<uint32_t> SearchRun::Recorded(const results::ScenarioResult& result) {
  std::vector<uint32_t> to_run;
  const auto found = generation_of_.find(result.scenario_number);
  if (found == generation_of_.end() || generations_.empty()) return to_run;
  ASG_CHECK(found->second >= generations_.front().index);
  Generation& generation = generations_[found->second - generations_.front().index];
  Score(generation, result.scenario_number, result);
  Settle(&to_run);
  return to_run;
}

void SearchRun::Score(Generation& generation, uint32_t number,
                      const results::ScenarioResult& result) {
  const auto position = std::find(generation.numbers.begin(), generation.numbers.end(), number);
  ASG_CHECK(position != generation.numbers.end());
  search::Evaluation evaluation;
  const size_t index = static_cast<size_t>(position - generation.numbers.begin());
  evaluation.id = generation.candidates[index / spec_.runs_per_scenario].id;
  if (result.status == results::ScenarioStatus::kDone) {
    if (result.regret.computed) evaluation.regret = result.regret.regret;
    evaluation.failure = result.termination_reason != protocol::TerminationReason::REASON_SUCCESS;
  }
  generation.scores.emplace(number, evaluation);
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
  if (!consultation->tell.empty()) strategy.Tell(consultation->tell);
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

void SearchRun::Apply(Consultation consultation, std::vector<uint32_t>* to_run) {
  strategy_seconds_ += consultation.seconds;
  if (consultation.exhausted) exhausted_ = true;
  if (!consultation.error.empty() && error_.empty()) {
    error_ = consultation.error;
    context_.logger->Error("search stopped: " + error_ +
                           "; the scenarios proposed so far still run");
  }
  for (std::vector<search::Candidate>& candidates : consultation.asked) {
    Plan(std::move(candidates), to_run);
  }
}

void SearchRun::Plan(std::vector<search::Candidate> candidates, std::vector<uint32_t>* to_run) {
  Batch& batch = *context_.batch;
  Generation generation;
  generation.index = next_generation_++;
  generation.candidates = std::move(candidates);
  generations_.push_back(std::move(generation));
  Generation& planned_generation = generations_.back();
  const uint32_t runs = spec_.runs_per_scenario;
  for (const search::Candidate& candidate : planned_generation.candidates) {
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
      PlannedScenario planned =
          PlanCandidate(spec_.space, batch.base_request, candidate, number, seed,
                        CandidateRecord(spec_.space, candidate, planned_generation.index, parents,
                                        run, run_numbers),
                        run);
      planned_generation.numbers.push_back(number);
      generation_of_[number] = planned_generation.index;
      ASG_CHECK(batch.scenarios.empty() || batch.scenarios.back().scenario_number < number);
      batch.scenarios.push_back(std::move(planned));
      PlanRun(planned_generation, batch.scenarios.back(), to_run);
    }
  }
}

void SearchRun::PlanRun(Generation& generation, const PlannedScenario& added,
                        std::vector<uint32_t>* to_run) {
  const uint32_t number = added.scenario_number;
  std::optional<results::ScenarioOutcome> kept;
  if (context_.resume) kept = KeptOutcome(context_.out_dir, number, context_.retry_failed);
  if (kept) {
    results::ScenarioOutcome outcome = std::move(*kept);
    context_.progress->CountPrevious(outcome.result);
    Score(generation, number, outcome.result);
    kept_[number] = std::move(outcome);
    ++resumed_;
  } else if (added.status == PlanStatus::kInvalid) {
    results::ScenarioRecord record;
    record.request = added.request_json;
    record.result = results::UnrunnableResult(number, results::ScenarioStatus::kInvalid,
                                              added.error, added.seed);
    record.search = added.search_record;
    context_.logger->Warning("scenario " + std::to_string(number) + " invalid: " + added.error);
    context_.progress->Count(record.result);
    Score(generation, number, record.result);
    kept_[number] = results::ScenarioOutcome{record.result, record.timing};
    context_.writer->Submit(std::move(record));
  } else {
    to_run->push_back(number);
  }
}

void SearchRun::Settle(std::vector<uint32_t>* to_run) {
  // One consultation at a time; when it ends, Poll settles again.
  if (consulting_.valid() || generations_.empty()) return;
  Generation& generation = generations_.front();
  if (generation.scores.size() != generation.numbers.size()) return;
  // A candidate's score: the mean regret over its runs; it fails when any run failed.
  Consultation consultation;
  std::vector<SearchCandidateRow> candidates;
  const uint32_t runs = spec_.runs_per_scenario;
  for (size_t c = 0; c < generation.candidates.size(); ++c) {
    std::vector<uint32_t> numbers;
    std::vector<double> regrets;
    size_t failures = 0;
    for (uint32_t run = 0; run < runs; ++run) {
      const uint32_t number = generation.numbers[c * runs + run];
      const search::Evaluation& evaluation = generation.scores.at(number);
      numbers.push_back(number);
      regrets.push_back(evaluation.regret);
      failures += evaluation.failure ? 1 : 0;
    }
    candidates.push_back(MakeCandidateRow(generation.candidates[c].id, generation.index,
                                          std::move(numbers), regrets, failures));
    search::Evaluation told;
    told.id = generation.candidates[c].id;
    told.regret = candidates.back().mean_regret;
    told.failure = failures > 0;
    consultation.tell.push_back(told);
  }
  std::sort(consultation.tell.begin(), consultation.tell.end(),
            [](const search::Evaluation& a, const search::Evaluation& b) { return a.id < b.id; });
  const SearchGenerationRow& row = log_.Add(generation.index, candidates);
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
  (void)to_run;
}

}  // namespace asg::client
