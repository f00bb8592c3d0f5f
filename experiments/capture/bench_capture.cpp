// Benchmarks of capture/renderer.h: one 512 x 512 view (shadows, PNG included), the
// PNG encoding alone, the whole capture set of one scenario with annotations, and one frame of
// capture/camera_sensor.h (256 x 256, colour + depth + segmentation). The "CPU" column and the
// cpu_ms_per_view counters are process CPU time (main thread and llvmpipe's threads together),
// the figure that matters on a shared machine.
//
// Run with one llvmpipe thread, as a worker on a busy machine would:
//   LP_NUM_THREADS=1 build/experiments/capture/bench_capture
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <ctime>

#include "capture/camera_sensor.h"
#include "capture/png.h"
#include "capture/renderer.h"
#include "scene/world.h"
#include "tests/source_catalog.h"

namespace asg::capture {
namespace {

// The reference workload (60 m, 6 trees, 6 bushes, start (10, 10) yaw 45, goal (50, 50)) on a
// 6 m hill, with the sun at 30 deg.
protocol::RunScenarioRequest ReferenceRequest() {
  protocol::RunScenarioRequest request;
  request.scenario_number = 1;
  request.vehicle_start_location = {10.0, 10.0, 0.0};
  request.vehicle_start_yaw = 45.0;
  request.vehicle_goal_location = {50.0, 50.0, 0.0};
  request.goal_radius = 5.0;
  auto& landscape = request.scene_description.landscape;
  landscape.nominal_size = 60.0;
  landscape.subdivisions = 6;
  landscape.border = 10.0;
  protocol::ReliefFeature hill;
  hill.x = 32.0;
  hill.y = 24.0;
  hill.radius = 18.0;
  hill.height = 6.0;
  landscape.relief.push_back(hill);
  request.scene_description.sunlight_inclination = 30.0;
  request.scene_description.sunlight_yaw_angle = 135.0;
  protocol::StructuralSceneActorLayout trees, bushes;
  trees.path_name = "tree";
  bushes.path_name = "bush";
  const double xs[] = {25, 40, 22, 45, 30, 52}, ys[] = {42, 20, 28, 38, 50, 30};
  for (int i = 0; i < 6; ++i) {
    for (auto* layout : {&trees, &bushes}) {
      const bool bush = layout == &bushes;
      layout->x.push_back(bush ? ys[i] : xs[i]);
      layout->y.push_back(bush ? xs[i] - 4.0 : ys[i]);
      layout->yaw.push_back(30.0 * i);
      layout->scale.push_back(1.0 + 0.1 * i);
      layout->visible.push_back(true);
      layout->cast_shadow.push_back(true);
    }
  }
  trees.num_instances = bushes.num_instances = 6;
  request.scene_description.ssa_array = {trees, bushes};
  request.take_scene_capture = true;
  request.scene_capture_settings.image_size = 512;
  return request;
}

protocol::AnalyzeScenarioRequest SyntheticRun() {
  protocol::AnalyzeScenarioRequest run;
  run.termination_reason = protocol::TerminationReason::REASON_SUCCESS;
  for (int i = 0; i <= 200; ++i) {
    const double t = i / 200.0;
    protocol::OdometryWithoutCovariance sample;
    sample.pose.position.x = 10.0 + 38.0 * t;
    sample.pose.position.y = 10.0 + 38.0 * t + 8.0 * std::sin(2.0 * 3.14159 * t);
    sample.twist.linear.x = 5.0 * std::sin(3.14159 * t);
    run.vehicle_trajectory.push_back(sample);
  }
  return run;
}

struct Fixture {
  scene::ActorCatalog catalog = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  protocol::RunScenarioRequest request = ReferenceRequest();
  scene::World world = scene::BuildWorld(request, catalog);
  CaptureRenderer renderer;
};

// [ms] CPU time of the whole process (every llvmpipe thread included) since an arbitrary start.
double ProcessCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return 1e3 * static_cast<double>(now.tv_sec) + 1e-6 * static_cast<double>(now.tv_nsec);
}

// Adds the counter cpu_ms_per_view: process CPU time per image over all iterations.
void CountCpuPerView(benchmark::State& state, double cpu_ms, double views_per_iteration) {
  state.counters["cpu_ms_per_view"] =
      cpu_ms / (views_per_iteration * static_cast<double>(state.iterations()));
}

Fixture& SharedFixture() {
  static Fixture fixture;
  return fixture;
}

// One view per Render call: upload, shadow map, draw, read back, PNG.
void BM_OneView512(benchmark::State& state) {
  Fixture& f = SharedFixture();
  protocol::RunScenarioRequest request = f.request;
  request.scene_capture_settings.vehicle_start_rear_aerial = true;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.renderer.Render(f.world, request, nullptr));
  }
  state.SetLabel(std::getenv("LP_NUM_THREADS")
                     ? std::string("LP_NUM_THREADS=") + std::getenv("LP_NUM_THREADS")
                     : "LP_NUM_THREADS unset");
}
BENCHMARK(BM_OneView512)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

// The per-view cost within a set: 8 directional aerial views at 60 and 45 deg (16 images).
void BM_PerViewIn16ViewSet512(benchmark::State& state) {
  Fixture& f = SharedFixture();
  protocol::RunScenarioRequest request = f.request;
  auto& s = request.scene_capture_settings;
  s.front_aerial = s.left_front_aerial = s.left_aerial = s.left_rear_aerial = true;
  s.rear_aerial = s.right_rear_aerial = s.right_aerial = s.right_front_aerial = true;
  const double start = ProcessCpuMs();
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.renderer.Render(f.world, request, nullptr));
  }
  CountCpuPerView(state, ProcessCpuMs() - start, 16.0);
  state.counters["s_per_view"] = benchmark::Counter(
      16.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PerViewIn16ViewSet512)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// PNG encoding alone of a rendered 512 x 512 image's pixels.
void BM_EncodePng512(benchmark::State& state) {
  std::vector<uint8_t> rgb(512 * 512 * 3);
  for (size_t i = 0; i < rgb.size(); ++i) {
    rgb[i] = static_cast<uint8_t>(96 + 40 * std::sin(0.001 * i) + (i * 2654435761u >> 29));
  }
  for (auto _ : state) benchmark::DoNotOptimize(EncodePng(512, 512, rgb));
}
BENCHMARK(BM_EncodePng512)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

// Every view of a scenario with annotations after a run: 2 paddings x (ortho + perspective),
// 16 directional aerials, the start POV and rear aerial: 22 views, 44 images.
void BM_FullCaptureSet512(benchmark::State& state) {
  Fixture& f = SharedFixture();
  protocol::RunScenarioRequest request = f.request;
  auto& s = request.scene_capture_settings;
  s.draw_annotations = true;
  s.ortho_aerial = s.perspective_aerial = true;
  s.aerial_padding = {0, 10};
  s.front_aerial = s.left_front_aerial = s.left_aerial = s.left_rear_aerial = true;
  s.rear_aerial = s.right_rear_aerial = s.right_aerial = s.right_front_aerial = true;
  s.vehicle_start_pov = s.vehicle_start_rear_aerial = true;
  const protocol::AnalyzeScenarioRequest run = SyntheticRun();
  size_t images = 0;
  const double start = ProcessCpuMs();
  for (auto _ : state) {
    images = f.renderer.Render(f.world, request, &run).size();
    benchmark::DoNotOptimize(images);
  }
  CountCpuPerView(state, ProcessCpuMs() - start, static_cast<double>(images));
  state.counters["images"] = static_cast<double>(images);
}
BENCHMARK(BM_FullCaptureSet512)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// One frame of the research stack's camera (256 x 256, 90 deg, colour + depth + segmentation)
// on a vehicle driving across the reference scene: render and read back, no encoding.
void BM_CameraFrame256(benchmark::State& state) {
  Fixture& f = SharedFixture();
  CameraSensorRenderer camera;
  camera.SetWorld(f.world);
  protocol::CameraSpec spec;
  spec.name = "front";
  spec.segmentation = true;
  Eigen::Isometry3d vehicle = Eigen::Isometry3d::Identity();
  vehicle.linear() = Eigen::AngleAxisd(0.25 * 3.14159265, Eigen::Vector3d::UnitZ()).matrix();
  int frame = 0;
  const double start = ProcessCpuMs();
  for (auto _ : state) {
    const double s = 10.0 + 0.3 * (frame++ % 100);  // along the start-goal diagonal
    vehicle.translation() = Eigen::Vector3d(s, s, f.world.landscape->HeightAt(s, s) + 0.5);
    benchmark::DoNotOptimize(camera.Render(spec, vehicle));
  }
  CountCpuPerView(state, ProcessCpuMs() - start, 1.0);
}
BENCHMARK(BM_CameraFrame256)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace
}  // namespace asg::capture

BENCHMARK_MAIN();
