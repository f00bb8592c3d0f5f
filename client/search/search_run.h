// Running a batch's search online on the farm: the strategy proposes a generation of candidates
// (Ask), the farm runs them, and once the whole generation is recorded their regrets go back to
// the strategy (Tell, in ascending candidate id) and the next generation is asked, until the
// budget of candidates is spent or the strategy has nothing more to propose.
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
// success (search_candidates.csv keeps the spread, search_log.h). Reruns asked for by vehicle
// nodes rewrite the folder, but the strategy has been told the first result.
//
// Resume: with --resume the same sequence is replayed; a candidate whose folder is complete is
// not run again, its stored result is told instead. That gives the same folders, search.csv and
// search.json as one run straight through.
//
// Failure: a strategy that throws (an external generator that left, timed out or broke the
// protocol) is asked nothing more; the generations already proposed run and are recorded, and
// error() says why. The farm then ends with an error; --resume goes on from there.
//
// Not thread-safe: the farm loop drives it; the strategy is used by one consultation at a time.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <vector>

#include "client/batch/batch.h"
#include "client/farm/farm_loop.h"
#include "client/farm/generator_link.h"
#include "client/farm/progress.h"
#include "client/farm/result_writer.h"
#include "client/search/search_log.h"
#include "core/log.h"
#include "results/folder.h"
#include "search/strategy.h"

namespace asg::client {

/// Generations in flight at once.
inline constexpr size_t kSearchGenerationsInFlight = 2;

/// What a search works with; owned by the caller, outliving the search.
struct SearchRunContext {
  Batch* batch = nullptr;  ///< with a search; searched scenarios are appended to it
  std::filesystem::path out_dir;
  bool resume = false;  ///< complete folders are kept and their results told
  core::Logger* logger = nullptr;
  Progress* progress = nullptr;        ///< counts kept and invalid scenarios
  ResultWriter* writer = nullptr;      ///< writes invalid scenarios' folders
  GeneratorLink* generator = nullptr;  ///< where an "external" search's generator registers
  bool retry_failed = false;           ///< with resume: failed scenarios run again
};

/// One search of a batch.
class SearchRun : public ScenarioFeed {
 public:
  /// Makes the strategy of context.batch->search. Throws std::invalid_argument for a bad
  /// strategy or settings (ParseSearchSpec has checked them).
  explicit SearchRun(const SearchRunContext& context);

  /// Asks the first generations (and, resuming, tells those kept whole and asks on); returns the
  /// scenario numbers to run, empty only when the whole search was kept.
  std::vector<uint32_t> Start();
  /// ScenarioFeed: records a searched scenario's regret; a complete generation starts a
  /// consultation (tell, then ask) beside the caller. Returns the numbers to run now (often none).
  std::vector<uint32_t> Recorded(const results::ScenarioResult& result) override;
  /// ScenarioFeed: when a consultation has ended, plans what it asked and returns those numbers.
  std::vector<uint32_t> Poll() override;
  /// ScenarioFeed: whether a consultation is running.
  bool Busy() const override { return consulting_.valid(); }
  /// Waits for a running consultation, then Poll().
  std::vector<uint32_t> Await();

  /// Outcomes of scenarios recorded without a run: kept folders (resume) and invalid ones.
  const std::map<uint32_t, results::ScenarioOutcome>& kept() const { return kept_; }
  /// Scenarios whose complete folder was kept (resume).
  size_t resumed() const { return resumed_; }
  /// Candidates proposed so far.
  uint32_t proposed() const { return proposed_; }
  /// Why the strategy failed (an external generator that left, timed out or broke the
  /// protocol), or empty. A failed strategy proposes nothing more; what it proposed still runs.
  const std::string& error() const { return error_; }
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
    double seconds = 0.0;  // [s] spent in the strategy
    std::string error;     // what the strategy threw, if it did
  };
  static void Consult(search::Strategy& strategy, const SearchSpec& spec,
                      Consultation* consultation);
  // Consult's calls of the strategy; what they throw, Consult records.
  static void Ask(search::Strategy& strategy, const SearchSpec& spec, Consultation* consultation);
  // Plans what a consultation asked.
  void Apply(Consultation consultation, std::vector<uint32_t>* to_run);
  // Plans a generation's candidates into the batch, runs_per_scenario scenarios each.
  void Plan(std::vector<search::Candidate> candidates, std::vector<uint32_t>* to_run);
  // One planned run: kept (resume) and invalid ones are scored at once, others are to run.
  void PlanRun(Generation& generation, const PlannedScenario& added, std::vector<uint32_t>* to_run);
  // Logs the front generation when complete and starts its consultation.
  void Settle(std::vector<uint32_t>* to_run);
  void Score(Generation& generation, uint32_t number, const results::ScenarioResult& result);

  SearchRunContext context_;
  const SearchSpec& spec_;
  std::unique_ptr<search::Strategy> strategy_;
  SearchLog log_;
  std::deque<Generation> generations_;
  std::map<uint32_t, uint32_t> generation_of_;  // scenario number -> generation index
  std::map<uint64_t, uint32_t> number_of_id_;   // candidate id -> its first run's number
  std::map<uint32_t, results::ScenarioOutcome> kept_;
  uint32_t proposed_ = 0;
  size_t resumed_ = 0;
  uint32_t next_generation_ = 0;
  double strategy_seconds_ = 0.0;  // [s] wall time spent in Ask and Tell, for the log
  bool exhausted_ = false;         // the budget is spent or the strategy proposes nothing more
  std::string error_;              // the strategy's first failure
  std::future<Consultation> consulting_;  // the running consultation, if any
};

}  // namespace asg::client
