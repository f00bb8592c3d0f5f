// Running a batch's search online on the farm, as the farm's ScenarioFeed
// (client/farm/scenario_feed.h): the strategy proposes a generation of candidates (Ask), the
// search plans them as scenarios that the farm takes and runs, and once the whole generation is
// recorded their regrets go back to the strategy (Tell, in ascending candidate id) and the next
// generation is asked, until the budget of candidates is spent or the strategy has nothing more
// to propose. `asg-client run` composes it with the farm (SearchFeedFor); the search owns the
// GeneratorLink of an external strategy, which the farm's port hands the generator.
//
// Keeping workers busy: two generations are in flight at once. Generation g + 2 is asked right
// after generation g is told, so while the farm finishes generation g + 1's last runs the
// next generation is queued already; and the tell and the asks run on a helper thread
// (std::async) while the farm loop goes on handing out the queued scenarios. The order of Ask and
// Tell calls depends only on the results (never on timing or the worker count), so the same search
// with the same seed proposes the same candidates and writes the same folders with 1 or N workers.
// A strategy that proposes nothing while its generation waits for tells (ga) simply has one
// generation in flight.
//
// Runs: with runs_per_scenario K, each candidate is K consecutive scenario numbers (its runs
// 0..K-1, search_plan.h), and it is told once all K are recorded, with the whole generation.
//
// Scores: a run's regret is its result's regret when the run is done and the regret was
// computed; a failed, invalid or uncomputed one counts regret 0. A candidate is told the mean
// regret over its runs, and `failure` when any run is done with a termination reason other than
// success (search_candidates.csv keeps the spread, search_log.h), with where and how its done
// run of highest regret ended (run_outcome.h). Reruns asked for by vehicle nodes rewrite the
// folder, but the strategy has been told the first result. A strategy that keeps an archive
// (map-elites) has it written to archive.csv after each tell (archive_log.h); one that measures
// novelty by failures (bacre-novelty) reads the signatures of the told candidates' described runs
// (candidate_failures.h).
//
// Distinct failures: each run that is a failure at the lowest threshold of search.csv (or at the
// batch's failures.regret_threshold when that is lower) is judged when it is recorded, from the
// record going to its folder (or its folder, when kept from an earlier run), and its
// generation's failures are added to the log in scenario-number order when the generation is
// told (search_log.h). Generations are told in order and numbered in order, so the counts depend
// on the results only, never on the order they arrived in. The same failures, those that are
// failures at the batch's threshold, are clustered once more as they are told: a candidate is
// told the failure_id of its first failing run in that clustering of the search's runs so far
// (ids by first appearance in scenario number, so an id once told never changes; it is
// failures.csv's id when the batch lists no scenarios of its own before the search).
//
// Resume: with --resume the same sequence is replayed; a candidate whose folder is complete is
// not run again: the farm keeps its stored result and tells it like a run one. That gives the
// same folders, search.csv and search.json as one run straight through.
//
// Failure: a strategy that throws (an external generator that left, timed out or broke the
// protocol) is asked nothing more; the generations already proposed run and are recorded, and
// error() says why. The farm then ends with an error; --resume goes on from there.
//
// Not thread-safe: the farm's thread drives it; the strategy is used by one consultation at a
// time.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "client/batch/batch.h"
#include "client/failures/failure_reader.h"
#include "client/farm/farm.h"
#include "client/farm/scenario_feed.h"
#include "client/search/archive_log.h"
#include "client/search/candidate_failures.h"
#include "client/search/generator_link.h"
#include "client/search/search_log.h"
#include "core/log.h"
#include "failures/clustering.h"
#include "search/strategy.h"

namespace asg::client {

/// Generations in flight at once.
inline constexpr size_t kSearchGenerationsInFlight = 2;

/// What a search works with.
struct SearchRunContext {
  const Batch* batch = nullptr;    ///< with a search; outlives the search
  std::filesystem::path out_dir;   ///< search.csv and search.json are written here
  core::Logger* logger = nullptr;  ///< outlives the search
  std::string token;               ///< required of an external search's generator when not empty
  /// The actor catalog the runs' failures are judged with, for search.csv's distinct counts;
  /// empty: none are judged (the counts stay 0).
  std::filesystem::path catalog;
};

/// One search of a batch: the farm's feed of searched scenarios.
class SearchRun : public ScenarioFeed {
 public:
  /// Makes the strategy of context.batch->search (with its generator link when "external").
  /// Throws std::invalid_argument for a bad strategy or settings (ParseSearchSpec has checked
  /// them) or a budget numbered past the maximum scenario number, FailuresError for a catalog
  /// that cannot be read.
  explicit SearchRun(const SearchRunContext& context);

  /// ScenarioFeed: the first call asks the first generations; later ones take what a finished
  /// consultation asked (with `wait`, after waiting for it). Returns the planned runs of the
  /// generations asked, numbered in candidate then run order.
  std::vector<PlannedScenario> Take(bool wait) override;
  /// ScenarioFeed: records a searched scenario's regret and judges it as a failure; a complete
  /// generation starts a consultation (tell, then ask) beside the caller. Other scenarios are
  /// ignored. A run that cannot be judged stops the search as a failed strategy does.
  void Recorded(const results::ScenarioResult& result,
                const results::ScenarioRecord* written) override;
  /// ScenarioFeed: whether a consultation is running.
  bool Busy() const override { return consulting_.valid(); }
  /// ScenarioFeed: the external strategy's generator link; nullptr for a built-in strategy.
  GeneratorPort* generator() override { return generator_.get(); }
  /// Why the strategy failed (an external generator that left, timed out or broke the
  /// protocol), or empty. A failed strategy proposes nothing more; what it proposed still runs.
  const std::string& error() const override { return error_; }
  /// ScenarioFeed: whether the strategy failed because a signal cancelled the wait for its
  /// generator.
  bool interrupted() const override;
  /// ScenarioFeed: tells an external generator the search is over ("search finished",
  /// "search interrupted" or "search stopped: <error>") and closes it.
  void End(bool interrupted) override;
  /// ScenarioFeed: "search: <strategy>, N candidates proposed, G generations told, best regret R
  /// (scenario S), at or above 0.375: a 0.5: b 0.75: c 1: d, distinct failures 0.375: e 0.5: f
  /// 0.75: g 1: h (search.csv, search.json)"; empty before the first generation is told.
  std::string Summary() const override;

  /// Candidates proposed so far.
  uint32_t proposed() const { return proposed_; }
  /// Whether every candidate has been told and nothing more will be proposed.
  bool finished() const { return exhausted_ && generations_.empty() && !consulting_.valid(); }
  /// The log of told generations.
  const SearchLog& log() const { return log_; }

 private:
  struct Generation {
    uint32_t index = 0;
    std::vector<search::Candidate> candidates;
    std::vector<uint32_t> numbers;                  // scenario numbers, in candidate then run order
    std::map<uint32_t, search::Evaluation> scores;  // by scenario number, as they arrive
    std::map<uint32_t, failures::Failure> failures;  // its failing runs, by scenario number
  };

  // One Tell (when `tell` is not empty) and the Asks after it, until kSearchGenerationsInFlight
  // generations are in flight, the budget is spent or the strategy proposes none.
  struct Consultation {
    std::vector<search::Evaluation> tell;
    size_t in_flight = 0;   // generations in flight before the asks
    uint32_t proposed = 0;  // candidates proposed before the asks
    bool may_ask = true;
    std::vector<std::vector<search::Candidate>> asked;  // the generations asked, in order
    bool exhausted = false;
    double seconds = 0.0;          // [s] spent in the strategy
    std::string error;             // what the strategy threw, if it did
    uint32_t told_generation = 0;  // the generation told, when `tell` is not empty
    std::optional<std::vector<search::ArchiveEntry>> archive;  // the strategy's, after the tell
  };
  static void Consult(search::Strategy& strategy, const SearchSpec& spec,
                      Consultation* consultation);
  // Consult's calls of the strategy; what they throw, Consult records.
  static void Ask(search::Strategy& strategy, const SearchSpec& spec, Consultation* consultation);
  // Plans what a consultation asked.
  void Apply(Consultation consultation, std::vector<PlannedScenario>* planned);
  // Plans a generation's candidates, runs_per_scenario scenarios each.
  void Plan(std::vector<search::Candidate> candidates, std::vector<PlannedScenario>* planned);
  // Keeps the signature of candidate `id`'s described run when it was judged a failure.
  void NoteFailure(const Generation& generation, uint64_t id, const std::vector<uint32_t>& numbers,
                   const std::vector<search::Evaluation>& runs);
  // Logs the front generation when complete and starts its consultation.
  void Settle();
  // Stops asking the strategy for more, as a failed strategy does, saying `why`.
  void Stop(const std::string& why);
  // Scores and describes a run (after Judge, whose failure it reads).
  void Score(Generation& generation, const results::ScenarioResult& result,
             const results::ScenarioRecord* written);
  // The candidates' rows and what they are told (ascending id), their failure ids from `ids`;
  // keeps each failing candidate's signature for the strategy (NoteFailure).
  void Tally(const Generation& generation, const std::map<uint32_t, uint32_t>& ids,
             std::vector<SearchCandidateRow>* candidates, std::vector<search::Evaluation>* tell);
  // Adds `failing` (ascending numbers) to the clustering at the batch's threshold; returns the
  // failure id of each that is a failure there, by scenario number.
  std::map<uint32_t, uint32_t> IdentifyFailures(const std::vector<failures::Failure>& failing);
  // Judges a run as a failure at the lowest threshold, from `written` or else its folder.
  void Judge(Generation& generation, const results::ScenarioResult& result,
             const results::ScenarioRecord* written);

  SearchRunContext context_;
  const SearchSpec& spec_;
  std::unique_ptr<GeneratorLink> generator_;  // an external strategy's; before the strategy
  CandidateFailures candidate_failures_;      // what the strategy reads; before the strategy
  std::unique_ptr<search::Strategy> strategy_;
  std::optional<FailureReader> failure_reader_;  // with a catalog only
  double failure_threshold_;                     // the batch's failures.regret_threshold
  double judge_threshold_;                       // the lowest threshold a run is judged at
  failures::LeaderClustering failure_ids_;       // the runs' failures at failure_threshold_
  SearchLog log_;
  ArchiveLog archive_log_;
  std::deque<Generation> generations_;
  std::map<uint32_t, uint32_t> generation_of_;  // scenario number -> generation index
  std::map<uint64_t, uint32_t> number_of_id_;   // candidate id -> its first run's number
  bool started_ = false;                        // the first generations were asked
  uint32_t last_number_ = 0;                    // the highest scenario number planned so far
  uint32_t proposed_ = 0;
  uint32_t next_generation_ = 0;
  double strategy_seconds_ = 0.0;  // [s] wall time spent in Ask and Tell, for the log
  bool exhausted_ = false;         // the budget is spent or the strategy proposes nothing more
  std::string error_;              // the strategy's first failure
  std::future<Consultation> consulting_;  // the running consultation, if any
};

/// The `run` command's feed for `batch`: a SearchRun of its search (an empty FeedMaker when it
/// has none) writing into settings.out_dir, its external generator held to settings.token, its
/// failures judged with settings.catalog (the feed maker throws FailuresError when that cannot
/// be read). `batch` must outlive the farm run.
FeedMaker SearchFeedFor(const Batch& batch, const FarmSettings& settings);

}  // namespace asg::client
