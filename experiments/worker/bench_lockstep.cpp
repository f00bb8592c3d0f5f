// Data-plane benchmarks: the lock-step round trip of one Step with one node on loopback, and the
// reference workload driven by an odometry-only node in sync mode against the built-in driver.
// Besides time, each reports per tick the process's context switches (csw_per_tick, the thread
// hand-offs) and CPU time of all its threads (process_cpu_us_per_tick).
//
//   build-lockstep/experiments/worker/bench_lockstep --benchmark_min_time=2
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cmath>
#include <numbers>
#include <variant>

#include "experiments/scene/reference_workload.h"
#include "protocol/endpoint.h"
#include "protocol/hand_over_io.h"
#include "protocol/io_threads.h"
#include "protocol/messages_json.h"
#include "scene/actor_catalog.h"
#include "scene/scenario_runner.h"
#include "tests/source_catalog.h"
#include "worker/node_driver.h"
#include "worker/node_run.h"
#include "worker/node_server.h"

namespace asg::worker {
namespace {

/// The process's context switches and CPU time (every thread) since construction, reported as
/// per-tick benchmark counters: thread hand-offs show as context switches, and the CPU time counts
/// the io threads that the benchmark's own CPU column leaves out.
class ProcessUsage {
 public:
  ProcessUsage() : start_(Now()) {}

  /// Sets the counters "csw_per_tick" and "process_cpu_us_per_tick" of `state` for `ticks` ticks.
  void Report(benchmark::State& state, double ticks) const {
    if (ticks <= 0.0) return;
    const Sample end = Now();
    state.counters["csw_per_tick"] = (end.switches - start_.switches) / ticks;
    state.counters["process_cpu_us_per_tick"] = (end.cpu_us - start_.cpu_us) / ticks;
  }

 private:
  struct Sample {
    double switches = 0.0;  // voluntary and involuntary
    double cpu_us = 0.0;    // user and system [us]
  };
  static Sample Now() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto us = [](const timeval& time) { return time.tv_sec * 1e6 + time.tv_usec; };
    return {static_cast<double>(usage.ru_nvcsw + usage.ru_nivcsw),
            us(usage.ru_utime) + us(usage.ru_stime)};
  }

  Sample start_;
};

/// The built-in straight driver's law (speed 5 m/s, gain 1.5, clamp 30 deg) from a Step.
protocol::StepResponse StraightLaw(const protocol::StepRequest& step, const protocol::Point& goal,
                                   double max_steer) {
  const protocol::Quaternion& q = step.odometry.pose.orientation;
  const double yaw =
      std::atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z)) /
      (std::numbers::pi / 180.0);
  const protocol::Point& p = step.odometry.pose.position;
  const double bearing = std::atan2(goal.y - p.y, goal.x - p.x) * 180.0 / std::numbers::pi;
  protocol::StepResponse response;
  response.has_control = true;
  response.control.longitudinal_velocity = 5.0;
  response.control.steering_angle =
      std::clamp(-1.5 * std::remainder(bearing - yaw, 360.0), -max_steer, max_steer);
  return response;
}

/// An odometry-only node on its own io thread, answering each Step with the straight law.
class BenchNode {
 public:
  BenchNode(const std::string& endpoint, const protocol::Point& goal, double max_steer) : io_(1) {
    connection_ =
        protocol::Connect(io_.context().get_executor(), endpoint, std::chrono::seconds(2));
    connection_->SetRequestHandler("RunStart", [](const protocol::Message&) {
      return json::Json(protocol::RunStartResponse{true});
    });
    connection_->SetHandler("Step", [this, goal, max_steer](const protocol::Message& message) {
      const auto step = protocol::DecodeMessage<protocol::StepRequest>(message.message);
      connection_->Reply(message, json::Json(StraightLaw(step, goal, max_steer)));
    });
    connection_->SetHandler("VehicleStatus", [](const protocol::Message&) {});
    connection_->SetHandler("RunEnd", [](const protocol::Message&) {});
    connection_->Start();
    connection_->Request("AttachNode", json::Json(protocol::AttachNodeRequest{"bench", ""}));
  }
  ~BenchNode() {
    connection_->Close("bench over");
    io_.Stop();
  }

 private:
  protocol::IoThreads io_;
  std::shared_ptr<protocol::Connection> connection_;
};

/// The data port's settings: the same-host Unix socket offered when `unix_channel` (the node then
/// connects to it), TCP only otherwise.
NodeServerSettings ChannelSettings(int64_t unix_channel) {
  NodeServerSettings settings;
  settings.local_channel = unix_channel == 1;
  return settings;
}

/// The arguments of the lock-step benchmarks: {take-over, spin [us], channel} for the io thread
/// waking the ticking thread, the ticking thread reading itself without and with a 20 or 50 us
/// spin, each over TCP (0) and the same-host Unix socket (1).
void TakeOverSpinAndChannel(benchmark::internal::Benchmark* benchmark) {
  for (const int64_t channel : {0, 1}) {
    benchmark->Args({0, 0, channel});
    for (const int64_t spin_us : {0, 20, 50}) benchmark->Args({1, spin_us, channel});
  }
}

// state.range(0): 1 = the ticking thread takes the nodes' io context over and reads the replies
// itself (as a worker's lock-step run does), 0 = it waits to be woken by the io thread.
// state.range(1): --node-spin-us. state.range(2): 1 = the same-host Unix socket, 0 = TCP.
void BM_LockStepRoundTrip(benchmark::State& state) {
  protocol::HandOverIo io;
  io.SetSpin(std::chrono::microseconds(state.range(1)));
  NodeServer server(io.context().get_executor(), ChannelSettings(state.range(2)));
  BenchNode node(server.endpoint(), {50.0, 50.0, 0.0}, 30.0);
  auto nodes = server.WaitForNodes(1, std::chrono::steady_clock::now() + std::chrono::seconds(5));
  NodeDriverSettings settings;
  settings.scenario_number = 1;
  settings.spec.count = 1;
  ExternalNodeDriver driver(nodes, settings, nullptr);
  std::unique_ptr<protocol::HandOverIo::TakeOver> taken;
  if (state.range(0) == 1) {
    taken = io.Take();
    driver.SetIo(taken.get());
  }
  protocol::OdometryWithoutCovariance odometry;
  odometry.header.frame_id = "world";
  odometry.child_frame_id = "vehicle";
  odometry.pose.position = {10.0, 10.0, 1.0};
  scene::DriverInput input;
  input.odometry = &odometry;
  const ProcessUsage usage;
  for (auto _ : state) {
    benchmark::DoNotOptimize(driver.Tick(input));
    input.time += 0.05;
  }
  usage.Report(state, static_cast<double>(state.iterations()));
  state.SetItemsProcessed(state.iterations());
  driver.SetIo(nullptr);
}
BENCHMARK(BM_LockStepRoundTrip)
    ->Apply(TakeOverSpinAndChannel)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

const scene::ActorCatalog& Catalog() {
  static const scene::ActorCatalog catalog =
      scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  return catalog;
}

void BM_ReferenceWorkloadBuiltIn(benchmark::State& state) {
  const protocol::RunScenarioRequest request = scene::experiments::ReferenceWorkload(1);
  scene::ScenarioRunner runner(Catalog());
  runner.Build(request);
  size_t ticks = 0;
  const ProcessUsage usage;
  for (auto _ : state) {
    const scene::RunResult result = runner.Run();
    ticks = result.analysis.vehicle_trajectory.size();
  }
  usage.Report(state, static_cast<double>(state.iterations() * ticks));
  state.counters["ticks"] = static_cast<double>(ticks);
}
BENCHMARK(BM_ReferenceWorkloadBuiltIn)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ReferenceWorkloadNodeSync(benchmark::State& state) {
  protocol::RunScenarioRequest request = scene::experiments::ReferenceWorkload(1);
  request.vehicle_nodes.count = 1;
  scene::ScenarioRunner runner(Catalog());
  runner.Build(request);
  const scene::RunResult reference = runner.Run();
  protocol::HandOverIo io;
  io.SetSpin(std::chrono::microseconds(state.range(1)));
  NodeServer server(io.context().get_executor(), ChannelSettings(state.range(2)));
  if (state.range(0) == 1) server.SetHandOver(&io);  // as asg-worker does
  BenchNode node(server.endpoint(), request.vehicle_goal_location,
                 request.vehicle.max_steering_angle);
  std::unique_ptr<capture::CameraSensorRenderer> cameras;
  const ProcessUsage usage;
  for (auto _ : state) {
    const NodeRunOutcome outcome = RunWithNodes(runner, request, server, &cameras);
    if (const auto* preempted = std::get_if<NodeRunPreempted>(&outcome)) {
      state.SkipWithError(preempted->reason.c_str());
      return;
    }
    protocol::AnalyzeScenarioRequest analysis = std::get<NodeRunCompleted>(outcome).result.analysis;
    analysis.counters.node_channel.reset();  // the one field the built-in driver's run lacks
    if (analysis != reference.analysis) {
      state.SkipWithError("the node's run differs from the built-in driver's");
      return;
    }
  }
  const size_t ticks = reference.analysis.vehicle_trajectory.size();
  usage.Report(state, static_cast<double>(state.iterations() * ticks));
  state.counters["ticks"] = static_cast<double>(ticks);
}
// Arg 1: the run's thread reads the node's replies itself (asg-worker); 0: it is woken for them.
// Arg 2: --node-spin-us. Arg 3: 1 = the same-host Unix socket, 0 = TCP.
BENCHMARK(BM_ReferenceWorkloadNodeSync)
    ->Apply(TakeOverSpinAndChannel)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace asg::worker

BENCHMARK_MAIN();
