// Benchmarks of the regret measure on the reference workload: the reference plan (once per
// scene) and the regret of one run against it (once per run).
//
//   build/experiments/regret/bench_regret
#include <benchmark/benchmark.h>

#include "experiments/scene/reference_workload.h"
#include "scene/actor_catalog.h"
#include "scene/scenario_runner.h"
#include "tests/source_catalog.h"
#include "worker/regret_problem.h"

namespace asg {
namespace {

// The worlds and one planner run of the reference workload, seeds 1..8.
struct Workload {
  std::vector<regret::ReferenceProblem> problems;
  std::vector<protocol::AnalyzeScenarioRequest> runs;
};

const Workload& ReferenceWorkloads() {
  static const Workload workload = [] {
    static const scene::ActorCatalog catalog =
        scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
    Workload built;
    scene::ScenarioRunner runner(catalog);
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const auto request = scene::experiments::ReferenceWorkload(
          seed, 6, 6, 6, protocol::DriverSpec::Type::kPlanner);
      runner.Build(request);
      built.problems.push_back(worker::ReferenceProblemOf(runner.world()));
      built.runs.push_back(runner.Run().analysis);
    }
    return built;
  }();
  return workload;
}

void BM_ReferencePlan(benchmark::State& state) {
  const Workload& workload = ReferenceWorkloads();
  const regret::ReferenceSettings settings;
  size_t i = 0;
  int expanded = 0;
  for (auto _ : state) {
    const regret::ReferencePlan plan =
        regret::PlanReference(workload.problems[i++ % workload.problems.size()], settings);
    expanded = plan.expanded;
    benchmark::DoNotOptimize(plan.cost);
  }
  state.counters["expanded_last"] = expanded;
}
BENCHMARK(BM_ReferencePlan)->Unit(benchmark::kMillisecond);

void BM_RunRegret(benchmark::State& state) {
  const Workload& workload = ReferenceWorkloads();
  const regret::ReferenceSettings settings;
  std::vector<regret::ReferencePlan> plans;
  for (const auto& problem : workload.problems) plans.push_back(PlanReference(problem, settings));
  size_t i = 0;
  double total = 0.0;
  for (auto _ : state) {
    const size_t k = i++ % plans.size();
    const protocol::RegretReport report =
        worker::RegretOf(workload.runs[k], workload.problems[k], plans[k], settings,
                         regret::FailureTime::kFailureMoment);
    total += report.regret;
    benchmark::DoNotOptimize(report.regret);
  }
  state.counters["mean_regret"] = total / static_cast<double>(state.iterations());
}
BENCHMARK(BM_RunRegret)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace asg

BENCHMARK_MAIN();
