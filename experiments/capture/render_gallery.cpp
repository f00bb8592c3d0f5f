// Renders the scene captures of one RunScenarioRequest (JSON) after running it with the built-in
// driver, and writes them as PNG files; docs/gallery/ was made with it:
//   render_gallery docs/gallery/request.json docs/gallery ortho_aerial_pad5_annotated ...
// With no names after the output folder every image is written.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "capture/renderer.h"
#include "protocol/messages_json.h"
#include "scene/scenario_runner.h"
#include "tests/source_catalog.h"

int main(int argc, char** argv) {
  using namespace asg;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s REQUEST_JSON OUT_DIR [IMAGE_NAME...]\n", argv[0]);
    return 2;
  }
  std::ifstream file(argv[1]);
  if (!file) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  std::stringstream text;
  text << file.rdbuf();
  const auto request = protocol::ParseMessage<protocol::RunScenarioRequest>(text.str());
  const std::set<std::string> wanted(argv + 3, argv + argc);

  const scene::ActorCatalog catalog =
      scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  scene::ScenarioRunner runner(catalog);
  const scene::World& world = runner.Build(request);
  protocol::AnalyzeScenarioRequest result = scene::CaptureOnlyResult(request);
  if (!request.scene_capture_only) {
    result = runner.Run().analysis;
    std::printf("run: %s after %.2f s, %zu trajectory samples\n",
                std::string(protocol::TerminationReasonName(result.termination_reason)).c_str(),
                result.vehicle_sim_time, result.vehicle_trajectory.size());
  }
  capture::CaptureRenderer renderer;
  std::printf("%s\n", renderer.context_description().c_str());
  const auto begin = std::chrono::steady_clock::now();
  const std::vector<protocol::CaptureImage> images =
      renderer.Render(world, request, request.scene_capture_only ? nullptr : &result);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  std::printf("%zu images in %.0f ms\n", images.size(), ms);
  for (const protocol::CaptureImage& image : images) {
    if (!wanted.empty() && !wanted.count(image.name)) continue;
    const std::string path = std::string(argv[2]) + "/" + image.name + ".png";
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(image.png.data()),
               static_cast<std::streamsize>(image.png.size()));
    std::printf("wrote %s (%zu bytes)\n", path.c_str(), image.png.size());
  }
  return 0;
}
