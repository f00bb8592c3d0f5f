// Benchmarks of the vehicle-node sensor models: Embree scene build, a 360 x 16 lidar sweep
// (packets of 16 with rtcIntersect16 and single rays with rtcIntersect1), the occupancy grid and
// the IMU. Worlds: the reference workload (60 m landscape, 2^subdivisions cells per side) with
// `trees` junipers and as many bushes, on a 3 m hill centred at (30, 30). The vehicle stands at
// (30, 30) on the ground, the lidar 1.8 m above it. "rays_per_second" is per core: Embree and the
// benchmark run on one thread.
//
//   cmake --build build-sensors --target bench_sensors -j2 &&
//   build-sensors/experiments/scene/bench_sensors
#include <benchmark/benchmark.h>

#include "experiments/scene/reference_workload.h"
#include "scene/sensor_imu.h"
#include "scene/sensor_lidar.h"
#include "scene/sensor_occupancy.h"
#include "tests/source_catalog.h"

namespace asg::scene {
namespace {

const ActorCatalog& Catalog() {
  static const ActorCatalog catalog = ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  return catalog;
}

// Reference workload world with `subdivisions` and `trees` trees and `trees` bushes.
World MakeWorld(int subdivisions, int trees) {
  protocol::RunScenarioRequest request =
      experiments::ReferenceWorkload(7, subdivisions, trees, trees);
  request.scene_description.landscape.relief.push_back(
      {protocol::ReliefFeature::Type::kHill, 30, 30, 25, 3});
  return BuildWorld(request, Catalog());
}

SensorInput Vehicle(const World& world) {
  SensorInput input;
  input.pose.translate(Eigen::Vector3d(30.0, 30.0, world.landscape->HeightAt(30.0, 30.0)));
  return input;
}

void BM_EmbreeSceneBuild(benchmark::State& state) {
  const World world = MakeWorld(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  size_t triangles = 0;
  for (auto _ : state) {
    EmbreeScene scene(world);
    triangles = scene.terrain_triangles() + scene.actor_triangles();
    benchmark::DoNotOptimize(triangles);
  }
  state.counters["triangles"] = static_cast<double>(triangles);
}
BENCHMARK(BM_EmbreeSceneBuild)
    ->Args({6, 6})
    ->Args({8, 6})
    ->Args({8, 200})
    ->Unit(benchmark::kMillisecond);

void BM_LidarSweep(benchmark::State& state) {
  const World world = MakeWorld(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const EmbreeScene scene(world);
  protocol::LidarSpec spec;  // 360 x 16 rays, 50 m
  spec.name = "roof";
  const LidarSensor lidar(spec, scene);
  const SensorInput input = Vehicle(world);
  size_t points = 0;
  for (auto _ : state) {
    const SensorReading reading = lidar.Sample(input);
    points = reading.header["count"];
    benchmark::DoNotOptimize(reading.data.data());
  }
  const double rays = static_cast<double>(lidar.directions().size());
  state.counters["points"] = static_cast<double>(points);
  state.counters["rays_per_second"] =
      benchmark::Counter(rays * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LidarSweep)->Args({6, 6})->Args({8, 200})->Unit(benchmark::kMillisecond);

// The same 5760 rays cast with CastEach (one rtcIntersect1 per ray) or CastBatch (rtcIntersect16).
void BM_RayCasting(benchmark::State& state) {
  const World world = MakeWorld(8, 200);
  const EmbreeScene scene(world);
  protocol::LidarSpec spec;
  spec.name = "roof";
  const LidarSensor lidar(spec, scene);
  const Eigen::Isometry3d sensor = Vehicle(world).pose * MountTransform(spec.mount);
  std::vector<SceneRay> rays;
  for (const Eigen::Vector3d& d : lidar.directions()) {
    rays.push_back(
        {sensor.translation().cast<float>(), (sensor.rotation() * d).cast<float>(), 50.0f});
  }
  std::vector<SceneHit> hits(rays.size());
  for (auto _ : state) {
    if (state.range(0) == 16) {
      scene.CastBatch(rays, hits);
    } else {
      scene.CastEach(rays, hits);
    }
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["rays_per_second"] = benchmark::Counter(
      static_cast<double>(rays.size()) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RayCasting)->Arg(1)->Arg(16)->Unit(benchmark::kMicrosecond);

void BM_OccupancyGrid(benchmark::State& state) {
  const World world = MakeWorld(6, static_cast<int>(state.range(0)));
  protocol::OccupancyGridSpec spec;  // 80 x 80 cells of 0.5 m, 20 m range
  spec.name = "grid";
  const OccupancyGridSensor grid(spec, world);
  const SensorInput input = Vehicle(world);
  for (auto _ : state) {
    const SensorReading reading = grid.Sample(input);
    benchmark::DoNotOptimize(reading.data.data());
  }
}
BENCHMARK(BM_OccupancyGrid)->Arg(6)->Arg(200)->Unit(benchmark::kMicrosecond);

void BM_Imu(benchmark::State& state) {
  protocol::ImuSpec spec;
  spec.name = "imu";
  spec.angular_velocity_noise = 0.01;
  spec.linear_acceleration_noise = 0.05;
  spec.orientation_noise = 0.001;
  ImuSensor imu(spec, 1);
  SensorInput input;
  for (auto _ : state) {
    input.time += 1.0 / 60.0;
    benchmark::DoNotOptimize(imu.Sample(input).header);
  }
}
BENCHMARK(BM_Imu)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace asg::scene

BENCHMARK_MAIN();
