// Interactive-worker benchmarks (docs/interactive.md): a Session serving on loopback in this
// process (its own thread, as in asg-worker --serve), driven by a client connection.
//   StepRoundTrip        StepSimulation {steps: 1} answered before the next is sent (blocking)
//   StepPipelined/64     64 StepSimulation {steps: 1} in flight at once
//   EntitiesStates/100   GetEntitiesStates {} of a scenario with 100 entities, blocking
//   LiveRunStep          one physics step of the same scenario without the network (the floor)
// The scenario is the reference workload (60 m, 6 trees + 6 bushes, straight driver); it is
// reloaded (untimed) before it ends.
//
//   build/experiments/worker/bench_serve --benchmark_min_time=2
#include <benchmark/benchmark.h>

#include <atomic>
#include <thread>

#include "experiments/scene/reference_workload.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/messages_json.h"
#include "scene/actor_catalog.h"
#include "scene/live_run.h"
#include "tests/source_catalog.h"
#include "worker/serve/session.h"

namespace asg::worker::serve {
namespace {

const scene::ActorCatalog& Catalog() {
  static const scene::ActorCatalog catalog =
      scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  return catalog;
}

/// The reference workload with `actors` actors in all (half trees, half bushes).
protocol::RunScenarioRequest Workload(int actors) {
  return scene::experiments::ReferenceWorkload(7, 6, actors / 2, actors - actors / 2);
}

/// A session serving on a free loopback port from its own thread, and a client of it: over the
/// same-host Unix socket when `unix_channel`, over TCP otherwise.
class Served {
 public:
  explicit Served(const protocol::RunScenarioRequest& request, bool unix_channel = true)
      : session_(Settings(unix_channel), Catalog()) {
    session_.Load(request, {});
    const uint16_t port = session_.Listen();
    thread_ = std::thread([this] { session_.Run(); });
    client_ = protocol::Connect(io_.context().get_executor(), "127.0.0.1:" + std::to_string(port),
                                std::chrono::seconds(5));
    client_->Start();
  }
  ~Served() {
    client_->Request("SetSimulationState", {{"state", {{"state", 3}}}});
    client_->Close("done");
    thread_.join();
  }
  protocol::Connection& client() { return *client_; }

  /// Reloads the scenario when fewer than `steps` steps are left before its sim timeout.
  void KeepRunning(long* steps_done, long steps) {
    if (*steps_done + steps < 800) return;
    client_->Request("ResetSimulation", {{"scope", 255}});
    *steps_done = 0;
  }

 private:
  static ServeSettings Settings(bool unix_channel) {
    ServeSettings settings;
    settings.host = "127.0.0.1";
    settings.local_channel = unix_channel;
    return settings;
  }

  Session session_;
  std::thread thread_;
  protocol::IoThreads io_{1};
  std::shared_ptr<protocol::Connection> client_;
};

// Arg: 1 = the same-host Unix socket, 0 = TCP.
void StepRoundTrip(benchmark::State& state) {
  Served served(Workload(12), state.range(0) == 1);
  const json::Json step = {{"steps", 1}};
  long done = 0;
  for (auto _ : state) {
    state.PauseTiming();
    served.KeepRunning(&done, 1);
    state.ResumeTiming();
    const protocol::Message reply = served.client().Request("StepSimulation", step);
    if (reply.message["result"]["result"] != 1) {
      state.SkipWithError(reply.message.dump().c_str());
      break;
    }
    ++done;
  }
  state.counters["steps_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(StepRoundTrip)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);

void StepPipelined(benchmark::State& state) {
  Served served(Workload(12));
  const auto in_flight = static_cast<int>(state.range(0));
  const json::Json step = {{"steps", 1}};
  long done = 0;
  for (auto _ : state) {
    state.PauseTiming();
    served.KeepRunning(&done, in_flight);
    state.ResumeTiming();
    std::atomic<int> remaining{in_flight};
    std::atomic<bool> failed{false};
    for (int i = 0; i < in_flight; ++i) {
      served.client().AsyncRequest("StepSimulation", step, {}, std::chrono::seconds(10),
                                   [&](protocol::RequestResult result) {
                                     if (!result.success) failed = true;
                                     remaining.fetch_sub(1);
                                     remaining.notify_one();
                                   });
    }
    for (int left = remaining.load(); left > 0; left = remaining.load()) remaining.wait(left);
    if (failed) {
      state.SkipWithError("a StepSimulation failed");
      break;
    }
    done += in_flight;
  }
  state.counters["steps_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * in_flight), benchmark::Counter::kIsRate);
}
BENCHMARK(StepPipelined)->Arg(64)->UseRealTime()->Unit(benchmark::kMicrosecond);

void EntitiesStates(benchmark::State& state) {
  const auto entities = static_cast<int>(state.range(0));
  Served served(Workload(entities - 1));  // the vehicle is the last one
  const json::Json query = json::Json::object();
  for (auto _ : state) {
    const protocol::Message reply = served.client().Request("GetEntitiesStates", query);
    if (reply.message["states"].size() != static_cast<size_t>(entities)) {
      state.SkipWithError(("entities: " + std::to_string(reply.message["states"].size())).c_str());
      break;
    }
  }
  state.counters["calls_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(EntitiesStates)->Arg(100)->UseRealTime()->Unit(benchmark::kMicrosecond);

void LiveRunStep(benchmark::State& state) {
  scene::LiveRun live(Catalog());
  live.Load(Workload(12));
  for (auto _ : state) {
    if (live.steps() > 800 || live.Step()) {
      state.PauseTiming();
      live.Reload();
      state.ResumeTiming();
    }
  }
}
BENCHMARK(LiveRunStep)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace asg::worker::serve

BENCHMARK_MAIN();
