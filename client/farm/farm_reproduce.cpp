// The reproduction stage: each distinct failure's representative planned again, K times, as the
// farm's own runs after the batch's scenarios (client/failures/reproduction.h).
#include <stdexcept>
#include <utility>

#include "client/failures/reproduction.h"
#include "client/farm/farm_run.h"
#include "results/files.h"
#include "results/folder.h"

namespace asg::client {

namespace {

/// Whether the run stopped before its end: then its failures are not reproduced.
bool StoppedEarly(const FarmRun& run) {
  return (run.loop && (run.loop->interrupted() || !run.loop->breakdown().empty())) ||
         (run.feed && (run.feed->interrupted() || !run.feed->error().empty())) ||
         !run.writer->error().empty();
}

/// The plan of reproduction run `reproduction`: the request of the representative's folder under
/// `out_dir` (what its failure was judged on; the representative's plan can differ from a folder
/// kept by --resume when a resumed search replays other candidates, as map-elites does when
/// failures.regret_threshold changed), numbered anew, with its variation.run and without
/// captures, written to its own folder, without the search's record.
PlannedScenario ReproductionPlan(const std::filesystem::path& out_dir,
                                 const PlannedScenario& representative,
                                 const ReproductionRun& reproduction) {
  PlannedScenario planned;
  planned.scenario_number = reproduction.scenario_number;
  planned.seed = representative.seed;
  planned.source = reproduction.folder;
  planned.variant = representative.variant;
  planned.layout = representative.layout;
  const std::filesystem::path file =
      results::ScenarioFolder(out_dir, representative.scenario_number, representative.variant) /
      "request.json";
  DecodePlannedRequest(ReproductionRequest(results::ReadJsonFile(file),
                                           reproduction.scenario_number, reproduction.run),
                       planned.source, &planned);
  if (planned.status != PlanStatus::kValid) {
    throw std::runtime_error(file.string() + " cannot be run again: " + planned.error);
  }
  return planned;
}

/// Finds the failures, plans their runs after the book's last scenario and admits them.
void AdmitReproductionRuns(FarmRun& run, uint32_t reproduce) {
  const std::filesystem::path& out_dir = run.settings.out_dir;
  FailureReader reader(run.settings.catalog);
  BatchFailures found =
      FindBatchFailures(out_dir, reader, run.batch.settings.failures.regret_threshold);
  const ScenarioBook& book = run.records->book();
  // A batch that planned nothing (a generator that proposed no scenario) has nothing to run again.
  const uint32_t first_number = book.plans().empty() ? 1 : book.plans().rbegin()->first + 1;
  const std::vector<ReproductionRun> runs = PlanReproductionRuns(found, reproduce, first_number);
  run.batch_failures = std::move(found);
  if (runs.empty()) return;
  if (const size_t removed = results::RemoveStagingFolders(out_dir / kReproductionFolder);
      removed > 0) {
    run.logger->Info("removed " + std::to_string(removed) + " partial reproduction folders");
  }
  for (const ReproductionRun& reproduction : runs) {
    run.records->AdmitReproduction(
        ReproductionPlan(out_dir, book.planned(reproduction.representative), reproduction),
        out_dir / reproduction.folder);
  }
  run.logger->Info("reproduction: " + std::to_string(run.batch_failures->clusters.size()) +
                   " distinct failures, " + std::to_string(reproduce) + " runs each (" +
                   std::to_string(run.records->reproduction_recorded()) +
                   " kept from an earlier run), scenarios " + std::to_string(first_number) +
                   " to " + std::to_string(runs.back().scenario_number) + " in " +
                   (out_dir / kReproductionFolder).string());
}

}  // namespace

void PlanReproduction(FarmRun& run) {
  if (run.reproduction_planned) return;
  run.reproduction_planned = true;
  const uint32_t reproduce = run.batch.settings.failures.reproduce;
  if (reproduce == 0) return;
  run.writer->Drain();  // the batch's folders, complete on disk
  if (StoppedEarly(run)) return;
  try {
    AdmitReproductionRuns(run, reproduce);
  } catch (const std::exception& error) {
    run.batch_failures.reset();
    run.logger->Error(std::string("the reproduction runs could not be planned: ") + error.what());
    run.progress->Note(std::string("warning: the reproduction runs could not be planned: ") +
                       error.what());
  }
}

}  // namespace asg::client
