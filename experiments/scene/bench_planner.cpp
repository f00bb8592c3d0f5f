// Benchmarks of the planner driver: whole runs of the reference workload (scene build on a fresh
// runner included) with the planner and, on the same layouts, the straight driver; and the
// planner's A* search on its own.
//   cmake --build build --target bench_planner -j2 && ./build/experiments/scene/bench_planner
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "experiments/scene/reference_workload.h"
#include "planning/field_planner.h"
#include "scene/scenario_runner.h"

namespace asg::scene {
namespace {

constexpr int kLayouts = 8;  // seeds 1..8 of the reference workload, cycled through

const ActorCatalog& Catalog() {
  static const ActorCatalog catalog =
      ActorCatalog::FromFile(std::string(ASG_SOURCE_DIR) + "/configs/actors.json");
  return catalog;
}

// One whole run per iteration: a fresh runner builds the scene, MakeDriver makes the driver, and
// the run goes to termination. Reports simulated seconds and the success share per run.
void RunReference(benchmark::State& state, protocol::DriverSpec::Type driver) {
  std::vector<protocol::RunScenarioRequest> requests;
  for (int seed = 1; seed <= kLayouts; ++seed) {
    requests.push_back(experiments::ReferenceWorkload(seed, 6, 6, 6, driver));
  }
  double simulated = 0.0, successes = 0.0;
  size_t next = 0;
  for (auto _ : state) {
    ScenarioRunner runner(Catalog());
    runner.Build(requests[next]);
    next = (next + 1) % requests.size();
    const RunResult result = runner.Run();
    simulated += result.analysis.vehicle_sim_time;
    successes += result.reason() == protocol::TerminationReason::REASON_SUCCESS ? 1.0 : 0.0;
  }
  state.counters["sim_s_per_run"] = simulated / state.iterations();
  state.counters["success_rate"] = successes / state.iterations();
}

void BM_PlannerReferenceRun(benchmark::State& state) {
  RunReference(state, protocol::DriverSpec::Type::kPlanner);
}
BENCHMARK(BM_PlannerReferenceRun)->Iterations(4 * kLayouts)->Unit(benchmark::kMillisecond);

void BM_StraightReferenceRun(benchmark::State& state) {
  RunReference(state, protocol::DriverSpec::Type::kStraight);
}
BENCHMARK(BM_StraightReferenceRun)->Iterations(4 * kLayouts)->Unit(benchmark::kMillisecond);

// One cost-field rebuild, A* plan and shortcut across the 60 x 60 grid around the 12 actors of
// layout 1 at full votes.
void BM_PlannerAStar(benchmark::State& state) {
  using planning::VoteGrid;
  const planning::Grid grid = planning::Grid::Covering(0.0, 60.0, 1.0);
  VoteGrid votes(grid);
  const protocol::RunScenarioRequest request = experiments::ReferenceWorkload(1);
  for (const auto& layout : request.scene_description.ssa_array) {
    for (size_t i = 0; i < layout.x.size(); ++i) {
      for (int v = 0; v < VoteGrid::kMaxVotes; ++v) votes.Vote(layout.x[i], layout.y[i]);
    }
  }
  planning::CostField field(grid, planning::CostSettings{});
  for (auto _ : state) {
    field.Rebuild(votes);
    const planning::PlannedPath plan = planning::PlanPath(field, {10.0, 10.0}, {50.0, 50.0}, 4.0);
    const planning::Polyline path = planning::ShortcutPath(field, plan.points);
    benchmark::DoNotOptimize(path.data());
    state.counters["expanded"] = plan.expanded;
  }
}
BENCHMARK(BM_PlannerAStar)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace asg::scene

BENCHMARK_MAIN();
