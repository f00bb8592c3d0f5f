// Tests for worker/serve/interventions.h.
// End to end over a real socket: a scenario opened from a folder, played, its vehicle teleported
// with SetEntityState and played to its end gives a result (GetResult and result.json) that
// records the teleport, a distance travelled without the jump and an annotated aerial with no
// line across it; every other kind of intervention is recorded in sim-time order; poses take
// yaw_deg and snap_to_ground; StepSimulation tells the new time; GetResult leaves out the
// trajectory unless asked.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <sstream>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include "capture/views.h"
#include "tests/worker/serve/simif_util.h"

namespace asg::worker {
namespace {

using testing::Code;
using testing::Eventually;
using testing::FarmDir;
using testing::Json;
using testing::ServedClient;
using testing::ServedWorker;
using testing::StateNumber;
using testing::Vec;

constexpr int kImageSize = 256;  // [px]
constexpr int kPadding = 5;      // [m]

/// KnownScenario with an annotated ortho aerial, written as DIR/scenario_0001/request.json.
std::filesystem::path ScenarioFolder(const std::filesystem::path& dir) {
  protocol::RunScenarioRequest request = testing::KnownScenario();
  request.scenario_number = 1;
  request.take_scene_capture = true;
  request.scene_capture_settings.image_size = kImageSize;
  request.scene_capture_settings.ortho_aerial = true;
  request.scene_capture_settings.aerial_padding = {kPadding};
  request.scene_capture_settings.draw_annotations = true;
  const std::filesystem::path folder = dir / "scenario_0001";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "request.json") << Json(request).dump();
  return folder;
}

/// Plays at full speed until the run ends (STOPPED).
void PlayToTheEnd(ServedClient& client) {
  ASSERT_EQ(client.Body("SetSimulationPace", {{"simulation_pace", 0}})["success"], true);
  ASSERT_EQ(Code(client.Body("SetSimulationState", {{"state", {{"state", 1}}}})), 1);
  ASSERT_TRUE(Eventually([&] { return StateNumber(client) == 0; }, std::chrono::seconds(60)));
}

/// One trajectory.csv row: t [s], x, y [m].
struct Sample {
  double t, x, y;
};

std::vector<Sample> ReadTrajectory(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);  // the header: t,x,y,...
  std::vector<Sample> samples;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    Sample sample{};
    char comma = 0;
    row >> sample.t >> comma >> sample.x >> comma >> sample.y;
    samples.push_back(sample);
  }
  return samples;
}

double Distance(double ax, double ay, double bx, double by) { return std::hypot(bx - ax, by - ay); }

/// An RGB image read from a PNG file.
struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // 3 bytes per pixel, rows top to bottom
  std::array<uint8_t, 3> At(int column, int row) const {
    const size_t at = 3 * (static_cast<size_t>(row) * width + column);
    return {rgb[at], rgb[at + 1], rgb[at + 2]};
  }
};

Image ReadPng(const std::filesystem::path& file) {
  const std::string bytes = client::testing::ReadText(file);
  Image image;
  int channels = 0;
  stbi_uc* pixels = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                                          static_cast<int>(bytes.size()), &image.width,
                                          &image.height, &channels, 3);
  if (pixels == nullptr) return image;
  image.rgb.assign(pixels, pixels + 3 * image.width * image.height);
  stbi_image_free(pixels);
  return image;
}

/// The annotated and the plain ortho aerial of a result folder.
struct Aerials {
  Image annotated, plain;
  /// Whether the annotation draws over world (x, y).
  bool Marked(double x, double y) const {
    const Eigen::Vector2d pixel =
        capture::WorldToOrthoAerialPixel(60.0, kPadding, kImageSize, x, y);
    const int column = static_cast<int>(pixel.x()), row = static_cast<int>(pixel.y());
    return annotated.At(column, row) != plain.At(column, row);
  }
};

TEST(ServeInterventionsTest, ATeleportIsRecordedLeftOutOfTheDistanceAndDrawnAsAGap) {
  const FarmDir dir;
  const std::filesystem::path folder = ScenarioFolder(dir.path());
  ServedWorker worker;
  auto client = worker.Connect();
  const Json loaded = client->Body("LoadScenario", {{"folder", folder.string()}});
  ASSERT_EQ(loaded["success"], true) << loaded.dump();
  EXPECT_EQ(loaded["log_folder"], "interactive");
  EXPECT_EQ(loaded["result_folder"], "interactive/scenario_0001");
  const double start_z = testing::Xyz(testing::StateOf(*client, "vehicle")["pose"]["position"])[2];

  const Json stepped = client->Body("StepSimulation", {{"steps", 205}});
  ASSERT_EQ(Code(stepped), 1) << stepped.dump();
  const double teleport_time = stepped.at("simulation_time").get<double>();
  EXPECT_NEAR(teleport_time, 205 * client->Body("GetSimulationTime")["step_size"].get<double>(),
              1e-9);
  // 20+ m on along the way to the goal, heading there, put on the ground from 4 m up.
  const Json pose = {
      {"position", Vec(32.0, 32.0, 4.0)}, {"yaw_deg", 45.0}, {"snap_to_ground", true}};
  const Json set = client->Body(
      "SetEntityState", {{"entity", "vehicle"}, {"set_pose", true}, {"state", {{"pose", pose}}}});
  ASSERT_EQ(Code(set), 1) << set.dump();
  const Json landed = testing::StateOf(*client, "vehicle")["pose"];
  EXPECT_NEAR(landed["position"]["z"].get<double>(), start_z, 1e-3);  // where it rests at start
  EXPECT_NEAR(landed["orientation"]["z"].get<double>(), std::sin(M_PI / 8.0), 1e-6);
  PlayToTheEnd(*client);

  const Json result = client->Body("GetResult");
  ASSERT_EQ(result["available"], true) << result.dump();
  EXPECT_FALSE(result["analysis"].contains("vehicle_trajectory"));  // unless asked
  const Json& interventions = result["analysis"]["interventions"];
  ASSERT_EQ(interventions.size(), 1u) << interventions.dump();
  const Json& teleport = interventions[0];
  EXPECT_EQ(teleport["kind"], "teleport");
  EXPECT_EQ(teleport["service"], "SetEntityState");
  EXPECT_EQ(teleport["entity"], "vehicle");
  EXPECT_NEAR(teleport["sim_time_s"].get<double>(), teleport_time, 1e-9);
  const std::filesystem::path replayed = folder / loaded["result_folder"].get<std::string>();
  const Json written = Json::parse(client::testing::ReadText(replayed / "result.json"));
  EXPECT_EQ(written["interventions"], interventions);

  // The distance: every driven segment, the one across the jump cut at the jump's ends.
  const std::vector<Sample> samples = ReadTrajectory(replayed / "trajectory.csv");
  const std::vector<double> from = teleport["from"], to = teleport["to"];
  ASSERT_GT(Distance(from[0], from[1], to[0], to[1]), 20.0);
  const double jump_time = teleport["sim_time_s"];  // as trajectory.csv's t reads
  double along_samples = 0.0, expected = 0.0;
  int jumps = 0;
  for (size_t i = 0; i + 1 < samples.size(); ++i) {
    const Sample &a = samples[i], &b = samples[i + 1];
    const double segment = Distance(a.x, a.y, b.x, b.y);
    along_samples += segment;
    if (a.t < jump_time && jump_time <= b.t) {
      ++jumps;
      expected += Distance(a.x, a.y, from[0], from[1]) + Distance(to[0], to[1], b.x, b.y);
    } else {
      expected += segment;
    }
  }
  ASSERT_EQ(jumps, 1);
  const double distance = written["counters"]["distance_travelled"].get<double>();
  EXPECT_NEAR(distance, expected, 1e-6);
  EXPECT_LT(distance, along_samples - 19.0);

  // The annotated aerial: no line along the jump, a line where the vehicle drove.
  const std::filesystem::path captures = replayed / "captures";
  const Aerials aerials{ReadPng(captures / "ortho_aerial_pad5_annotated.png"),
                        ReadPng(captures / "ortho_aerial_pad5.png")};
  ASSERT_EQ(aerials.annotated.width, kImageSize);
  ASSERT_EQ(aerials.plain.width, kImageSize);
  for (double f = 0.3; f <= 0.7; f += 0.1) {
    EXPECT_FALSE(aerials.Marked(from[0] + f * (to[0] - from[0]), from[1] + f * (to[1] - from[1])))
        << "a line across the jump at " << f;
  }
  EXPECT_TRUE(aerials.Marked(0.5 * (10.0 + from[0]), 0.5 * (10.0 + from[1])));
  EXPECT_TRUE(aerials.Marked(0.5 * (to[0] + 50.0), 0.5 * (to[1] + 50.0)));

  const Json full = client->Body("GetResult", {{"include_trajectory", true}});
  EXPECT_EQ(full["analysis"]["vehicle_trajectory"].size(), samples.size());
}

TEST(ServeInterventionsTest, EveryKindIsRecordedInSimTimeOrder) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, testing::KnownScenario())["success"], true);
  const auto step = [&] { ASSERT_EQ(Code(client->Body("StepSimulation", {{"steps", 20}})), 1); };
  step();
  EXPECT_EQ(
      Code(client->Body("SpawnEntity", testing::SpawnBody("rock1", "asg://actor/rock", 20, 40))),
      1);
  EXPECT_EQ(Code(client->Body("SetEntityState",
                              testing::SetStateBody("tree_0_0", Vec(12, 45, 0), testing::Yaw(0)))),
            1);
  step();
  EXPECT_EQ(Code(client->Body("DeleteEntity", {{"entity", "bush_1_1"}})), 1);
  const Json twist = {{"entity", "vehicle"},
                      {"set_twist", true},
                      {"state", {{"twist", {{"linear", Vec(3, 3, 0)}}}}}};
  EXPECT_EQ(Code(client->Body("SetEntityState", twist)), 1);
  step();
  EXPECT_EQ(Code(client->Body("ResetSimulation", {{"scope", 2}})), 1);
  step();
  EXPECT_EQ(client->Body("EgoControl_ID", {{"forward_amount", 0.5}})["success"], true);
  // Queries, stepping and the pace are not interventions.
  client->Body("GetEntitiesStates");
  PlayToTheEnd(*client);

  const Json result = client->Body("GetResult");
  const Json& interventions = result["analysis"]["interventions"];
  std::vector<std::string> kinds, services;
  double last = 0.0;
  for (const Json& entry : interventions) {
    kinds.push_back(entry["kind"]);
    services.push_back(entry["service"]);
    EXPECT_GE(entry["sim_time_s"].get<double>(), last) << interventions.dump();
    last = entry["sim_time_s"];
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"entity_spawned", "entity_moved", "entity_deleted",
                                             "velocity", "reset", "ego_control"}));
  EXPECT_EQ(services,
            (std::vector<std::string>{"SpawnEntity", "SetEntityState", "DeleteEntity",
                                      "SetEntityState", "ResetSimulation", "EgoControl_ID"}));
  EXPECT_EQ(interventions[0]["uri"], "asg://actor/rock");
  EXPECT_EQ(interventions[0]["entity"], "rock1");
  EXPECT_EQ(interventions[2]["entity"], "bush_1_1");
  EXPECT_EQ(interventions[4]["scope"], 2);
  EXPECT_NEAR(interventions[4]["to"][0].get<double>(), 10.0, 0.5);  // back at the start
  EXPECT_EQ(interventions[5]["control"]["forward_amount"], 0.5);

  // A fresh run (STOPPED -> PLAYING reloads) starts with none.
  PlayToTheEnd(*client);
  EXPECT_FALSE(client->Body("GetResult")["analysis"].contains("interventions"));
}

TEST(ServeInterventionsTest, PosesTakeYawDegreesAndRefuseADisagreement) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, testing::KnownScenario())["success"], true);
  Json spawn = testing::SpawnBody("rock1", "asg://actor/rock", 20, 40);
  spawn["initial_pose"]["pose"].erase("orientation");
  spawn["initial_pose"]["pose"]["yaw_deg"] = 90.0;
  ASSERT_EQ(Code(client->Body("SpawnEntity", spawn)), 1);
  const Json rock = testing::StateOf(*client, "rock1")["pose"];
  EXPECT_NEAR(rock["orientation"]["z"].get<double>(), std::sin(M_PI / 4.0), 1e-6);

  Json both = testing::SetStateBody("vehicle", Vec(20, 20, 1), testing::Yaw(30.0));
  both["state"]["pose"]["yaw_deg"] = 30.0;  // the same heading: accepted
  EXPECT_EQ(Code(client->Body("SetEntityState", both)), 1);
  both["state"]["pose"]["yaw_deg"] = 60.0;
  const std::string error = testing::FailureOf(*client, "SetEntityState", both);
  EXPECT_NE(error.find("state.pose: orientation (0, 0, "), std::string::npos) << error;
  EXPECT_NE(error.find("yaw_deg = 60 disagree by 30 deg"), std::string::npos) << error;
  const Json actors = {{"actors",
                        {{{"actor_id", "tree_0_0"},
                          {"pose", {{"orientation", testing::Yaw(10.0)}, {"yaw_deg", 20.0}}}}}}};
  const std::string runtime_error = client->ErrorOf("SetRuntimeActors", actors);
  EXPECT_NE(runtime_error.find("actors[0].pose: "), std::string::npos) << runtime_error;
}

}  // namespace
}  // namespace asg::worker
