// Benchmarks of asg::scene: building a scene and running the reference workload.
//   cmake --build build --target scene_benchmark && ./build/experiments/scene/scene_benchmark
#include <benchmark/benchmark.h>

#include <string>

#include "experiments/scene/reference_workload.h"
#include "scene/actor_catalog.h"
#include "scene/scenario_runner.h"

namespace asg::scene {
namespace {

const ActorCatalog& Catalog() {
  static const ActorCatalog catalog =
      ActorCatalog::FromFile(std::string(ASG_SOURCE_DIR) + "/configs/actors.json");
  return catalog;
}

// Scene build from nothing (landscape, heightfield, actors): subdivisions 8, 6 trees + 6 bushes.
void BM_BuildScene(benchmark::State& state) {
  const auto request = experiments::ReferenceWorkload(1, static_cast<int>(state.range(0)));
  for (auto _ : state) {
    ScenarioRunner runner(Catalog());
    benchmark::DoNotOptimize(&runner.Build(request));
  }
}
BENCHMARK(BM_BuildScene)->Arg(8)->Unit(benchmark::kMicrosecond);

// A whole run of the reference workload with the straight driver, scene build included, on a
// fresh runner (no cache). Reports simulated seconds per wall second.
void BM_ReferenceRunStraight(benchmark::State& state) {
  const auto request = experiments::ReferenceWorkload(static_cast<uint64_t>(state.range(1)),
                                                      static_cast<int>(state.range(0)));
  double simulated = 0.0;
  uint8_t reason = 0;
  for (auto _ : state) {
    ScenarioRunner runner(Catalog());
    runner.Build(request);
    const RunResult result = runner.Run();
    simulated += result.analysis.vehicle_sim_time + result.analysis.counters.settle_time;
    reason = static_cast<uint8_t>(result.analysis.termination_reason);
  }
  state.counters["sim_s_per_run"] = simulated / state.iterations();
  state.counters["reason"] = reason;
  state.counters["realtime_factor"] = benchmark::Counter(simulated, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReferenceRunStraight)
    ->Args({6, 1})
    ->Args({6, 2})
    ->Args({8, 1})
    ->Unit(benchmark::kMillisecond);

// The same workload with the driver idle: the full 17 s of simulated time every run.
void BM_ReferenceRunIdle17s(benchmark::State& state) {
  auto request = experiments::ReferenceWorkload(1, 6);
  request.driver.type = protocol::DriverSpec::Type::kIdle;
  for (auto _ : state) {
    ScenarioRunner runner(Catalog());
    runner.Build(request);
    benchmark::DoNotOptimize(runner.Run());
  }
}
BENCHMARK(BM_ReferenceRunIdle17s)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace asg::scene

BENCHMARK_MAIN();
