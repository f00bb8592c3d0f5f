// Request/reply round trips per second over loopback on one connection, with a 1 KiB JSON body.
//
//   bench_protocol --benchmark_counters_tabular=true
//
// BM_BlockingRoundTrip: one blocking Request at a time, the latency-bound case; arguments are the
// body kind and the number of io threads (1: client and server share one, 2: one each).
// BM_PipelinedRoundTrips: AsyncRequest with up to 32 requests in flight, the throughput case.
// json_bytes is the size of the body alone; the envelope adds about 40 bytes.
#include <benchmark/benchmark.h>

#include <condition_variable>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>

#include "protocol/connection.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/server.h"

namespace asg::protocol {
namespace {

// CPU time used by the whole process so far, all threads [us].
double ProcessCpuMicroseconds() {
  timespec time{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
  return static_cast<double>(time.tv_sec) * 1e6 + static_cast<double>(time.tv_nsec) * 1e-3;
}

// Sets the counters shared by every benchmark: the rate, the CPU cost per round trip (which,
// unlike the rate, does not depend on what else the machine runs), and the body size.
void SetCounters(benchmark::State& state, double cpu_start_us, const Json& body) {
  const double round_trips = static_cast<double>(state.iterations());
  state.counters["round_trips_per_s"] =
      benchmark::Counter(round_trips, benchmark::Counter::kIsRate);
  state.counters["cpu_us_per_round_trip"] = (ProcessCpuMicroseconds() - cpu_start_us) / round_trips;
  state.counters["json_bytes"] = static_cast<double>(body.dump().size());
}

using namespace std::chrono_literals;

// Bodies of about 1 KiB once serialised.
enum BodyKind : int64_t {
  kNumeric = 0,  ///< mostly an array of doubles, like actor positions: the costly case for JSON
  kMixed = 1,    ///< names, flags, integers and a few doubles, like status and control messages
};

Json OneKibibyteBody(int64_t kind) {
  Json body = {{"scenario_number", 17}, {"goal_radius", 5.0}, {"allow_collisions", true}};
  if (kind == kNumeric) {
    Json xs = Json::array();
    for (int i = 0; body.dump().size() < 1000; ++i) {
      xs.push_back(0.125 * i + 10.37);
      body["x"] = xs;
    }
    return body;
  }
  for (int i = 0; body.dump().size() < 1000; ++i) {
    body["actor_" + std::to_string(i)] = {{"path_name", "Tree_" + std::to_string(i)},
                                          {"num_instances", i},
                                          {"visible", i % 2 == 0},
                                          {"yaw", 12.5 * i}};
  }
  return body;
}

// A server whose "Echo" service replies with the request's body and whose "Ack" service replies
// {"received": true} (the shape of AutoSceneGen's service responses), and one client connection.
struct Loopback {
  explicit Loopback(int io_threads)
      : server_io(1),
        client_io(io_threads == 1 ? nullptr : std::make_unique<IoThreads>(1)),
        server(server_io.context().get_executor(), "127.0.0.1", 0, {},
               [](std::shared_ptr<Connection> connection) {
                 connection->SetRequestHandler(
                     "Echo", [](const Message& request) { return request.message; });
                 connection->SetRequestHandler("Ack", [](const Message&) {
                   return Json{{"received", true}};
                 });
                 connection->Start();
               }) {
    auto& context = client_io ? client_io->context() : server_io.context();
    client = Connect(context.get_executor(), "127.0.0.1:" + std::to_string(server.port()), 10s);
    client->Start();
  }
  ~Loopback() { client->Close("benchmark done"); }

  IoThreads server_io;
  std::unique_ptr<IoThreads> client_io;
  Server server;
  std::shared_ptr<Connection> client;
};

// The codec alone: one frame encoded and decoded per iteration, no socket.
void BM_EncodeDecode(benchmark::State& state) {
  const Json body = OneKibibyteBody(state.range(0));
  FrameDecoder decoder;
  Message message;
  FrameError error;
  const double cpu_start_us = ProcessCpuMicroseconds();
  for (auto _ : state) {
    decoder.Feed(EncodeFrameHead("Echo", 1, body, 0));
    if (decoder.Next(&message, &error) != FrameDecoder::Status::kFrame) {
      state.SkipWithError(error.description.c_str());
      break;
    }
  }
  SetCounters(state, cpu_start_us, body);
}
BENCHMARK(BM_EncodeDecode)->ArgNames({"body"})->Args({kNumeric})->Args({kMixed});

// The service a round-trip benchmark calls: range(2) 0 echoes the 1 KiB body back, 1 acknowledges.
const char* Service(const benchmark::State& state, int arg) {
  return state.range(arg) == 0 ? "Echo" : "Ack";
}

void BM_BlockingRoundTrip(benchmark::State& state) {
  Loopback loopback(static_cast<int>(state.range(1)));
  const Json body = OneKibibyteBody(state.range(0));
  const std::string service = Service(state, 2);
  const double cpu_start_us = ProcessCpuMicroseconds();
  for (auto _ : state) {
    const Message reply = loopback.client->Request(service, body);
    benchmark::DoNotOptimize(reply.reference);
  }
  SetCounters(state, cpu_start_us, body);
}
BENCHMARK(BM_BlockingRoundTrip)
    ->ArgNames({"body", "io_threads", "ack"})
    ->ArgsProduct({{kNumeric, kMixed}, {1, 2}, {0, 1}})
    ->UseRealTime()
    ->MinTime(2.0);

void BM_PipelinedRoundTrips(benchmark::State& state) {
  constexpr int kWindow = 32;
  Loopback loopback(2);
  const Json body = OneKibibyteBody(state.range(0));
  const std::string service = Service(state, 1);
  std::mutex mutex;
  std::condition_variable changed;
  int in_flight = 0;
  int failures = 0;
  const double cpu_start_us = ProcessCpuMicroseconds();
  for (auto _ : state) {
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return in_flight < kWindow; });
      ++in_flight;
    }
    loopback.client->AsyncRequest(service, body, {}, 10s, [&](RequestResult result) {
      std::lock_guard lock(mutex);
      --in_flight;
      if (!result.success) ++failures;
      changed.notify_one();
    });
  }
  std::unique_lock lock(mutex);
  changed.wait(lock, [&] { return in_flight == 0; });
  if (failures > 0) state.SkipWithError("some requests failed");
  SetCounters(state, cpu_start_us, body);
}
BENCHMARK(BM_PipelinedRoundTrips)
    ->ArgNames({"body", "ack"})
    ->ArgsProduct({{kNumeric, kMixed}, {0, 1}})
    ->UseRealTime()
    ->MinTime(2.0);

}  // namespace
}  // namespace asg::protocol

BENCHMARK_MAIN();
