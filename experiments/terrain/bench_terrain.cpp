// Benchmarks of terrain/landscape.h: building a landscape with relief, point queries, the mesh.
//
// Run: build-terrain/experiments/terrain/bench_terrain
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "terrain/landscape.h"

namespace asg::terrain {
namespace {

using protocol::LandscapeDescription;
using protocol::ReliefFeature;

// A 60 m landscape with a 5 m border, one hill, one ramp and 4 octaves of noise.
LandscapeDescription BenchDescription(int subdivisions) {
  LandscapeDescription description;
  description.nominal_size = 60.0;
  description.subdivisions = subdivisions;
  description.border = 5.0;
  ReliefFeature hill;
  hill.type = ReliefFeature::Type::kHill;
  hill.x = 20.0;
  hill.y = 35.0;
  hill.radius = 12.0;
  hill.height = 4.0;
  ReliefFeature ramp;
  ramp.type = ReliefFeature::Type::kRamp;
  ramp.x0 = 30.0;
  ramp.y0 = 5.0;
  ramp.x1 = 50.0;
  ramp.y1 = 25.0;
  ramp.width = 6.0;
  ramp.height = 2.0;
  ReliefFeature noise;
  noise.type = ReliefFeature::Type::kNoise;
  noise.amplitude = 0.5;
  noise.wavelength = 10.0;
  noise.octaves = 4;
  noise.seed = 17;
  description.relief = {hill, ramp, noise};
  return description;
}

// Query points spread over the grid by a fixed additive recurrence (no random engine).
std::vector<Eigen::Vector2d> QueryPoints(const Landscape& landscape, int count) {
  std::vector<Eigen::Vector2d> points;
  points.reserve(count);
  const double span = landscape.max_xy() - landscape.min_xy();
  double a = 0.5;
  double b = 0.5;
  for (int k = 0; k < count; ++k) {
    a += 0.6180339887498949;
    b += 0.7548776662466927;
    a -= static_cast<int>(a);
    b -= static_cast<int>(b);
    points.emplace_back(landscape.min_xy() + a * span, landscape.min_xy() + b * span);
  }
  return points;
}

void BM_Build(benchmark::State& state) {
  const LandscapeDescription description = BenchDescription(static_cast<int>(state.range(0)));
  int64_t vertices = 0;
  for (auto _ : state) {
    const Landscape landscape(description);
    vertices = static_cast<int64_t>(landscape.heights().size());
    benchmark::DoNotOptimize(landscape.heights().data());
  }
  state.counters["vertices"] = static_cast<double>(vertices);
  state.SetItemsProcessed(state.iterations() * vertices);
}
BENCHMARK(BM_Build)->Arg(6)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond);

void BM_HeightAt(benchmark::State& state) {
  const Landscape landscape(BenchDescription(static_cast<int>(state.range(0))));
  const std::vector<Eigen::Vector2d> points = QueryPoints(landscape, 4096);
  for (auto _ : state) {
    double sum = 0.0;
    for (const Eigen::Vector2d& p : points) sum += landscape.HeightAt(p.x(), p.y());
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(points.size()));
}
BENCHMARK(BM_HeightAt)->Arg(6)->Arg(10);

void BM_NormalAt(benchmark::State& state) {
  const Landscape landscape(BenchDescription(static_cast<int>(state.range(0))));
  const std::vector<Eigen::Vector2d> points = QueryPoints(landscape, 4096);
  for (auto _ : state) {
    double sum = 0.0;
    for (const Eigen::Vector2d& p : points) sum += landscape.NormalAt(p.x(), p.y()).x();
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(points.size()));
}
BENCHMARK(BM_NormalAt)->Arg(8);

void BM_BuildMesh(benchmark::State& state) {
  const Landscape landscape(BenchDescription(static_cast<int>(state.range(0))));
  for (auto _ : state) {
    const LandscapeMesh mesh = landscape.BuildMesh();
    benchmark::DoNotOptimize(mesh.indices.data());
  }
  state.counters["triangles"] =
      2.0 * (landscape.vertices_per_side() - 1) * (landscape.vertices_per_side() - 1);
}
BENCHMARK(BM_BuildMesh)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace asg::terrain

BENCHMARK_MAIN();
