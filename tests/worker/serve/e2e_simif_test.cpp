// End-to-end tests of the simulation_interfaces entity services of the interactive worker
// (worker/serve/services_simif.cpp) over a real socket: features, spawnables, spawning and
// deleting, entity filters, states, SetEntityState and ResetSimulation's scopes, checked against a
// scenario whose entities are placed by hand (simif_util.h). The simulation state and stepping
// services: e2e_simif_state_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "tests/worker/serve/simif_util.h"

namespace asg::worker {
namespace {

using testing::Code;
using testing::FailureOf;
using testing::Json;
using testing::KnownNames;
using testing::KnownScenario;
using testing::ServedClient;
using testing::ServedWorker;
using testing::SetStateBody;
using testing::SpawnBody;
using testing::StateOf;
using testing::Strings;
using testing::Vec;
using testing::Xyz;
using testing::Yaw;

/// GetEntities' names for `filters`, expecting result OK.
std::vector<std::string> Entities(ServedClient& client, const Json& filters) {
  const Json reply = client.Body("GetEntities", {{"filters", filters}});
  EXPECT_EQ(Code(reply), 1) << filters.dump() << ": " << reply.dump();
  return Strings(reply.at("entities"));
}

/// A tags filter.
Json Tags(const std::vector<std::string>& tags, int mode) {
  return {{"tags", {{"tags", tags}, {"filter_mode", mode}}}};
}

/// The simulation_interfaces features (SimulatorFeatures.msg) that are a service or action, by
/// the service that serves them.
const std::map<int, std::string>& ServiceFeatures() {
  static const std::map<int, std::string> features = {
      {0, "SpawnEntity"},         {1, "DeleteEntity"},        {2, "GetNamedPoses"},
      {3, "GetNamedPoseBounds"},  {5, "GetEntityBounds"},     {10, "GetEntityState"},
      {11, "SetEntityState"},     {12, "GetEntityInfo"},      {13, "SetEntityInfo"},
      {14, "GetSpawnables"},      {20, "ResetSimulation"},    {24, "GetSimulationState"},
      {25, "SetSimulationState"}, {31, "StepSimulation"},     {32, "StepSimulation"},
      {33, "SimulateSteps"},      {40, "LoadWorld"},          {43, "UnloadWorld"},
      {44, "GetCurrentWorld"},    {45, "GetAvailableWorlds"}, {50, "SpawnEntities"}};
  return features;
}

TEST(ServeSimifTest, GetSimulatorFeaturesAdvertisesExactlyTheServicesThatAnswer) {
  ServedWorker worker;
  auto client = worker.Connect();
  const Json reply = client->Body("GetSimulatorFeatures");
  const std::vector<int> features = reply.at("features").at("features").get<std::vector<int>>();
  const std::set<int> advertised(features.begin(), features.end());
  std::set<std::string> served;
  const Json listed = client->Body("ListServices");
  for (const Json& service : listed.at("services")) {
    if (service.at("family") == "simulation_interfaces") {
      served.insert(service.at("name").get<std::string>());
    }
  }
  std::set<std::string> featured = {"GetSimulatorFeatures", "GetEntities", "GetEntitiesStates",
                                    "CancelSimulateSteps"};  // no feature of their own
  for (const auto& [feature, service] : ServiceFeatures()) {
    bool answers = true;
    try {
      client->Call(service);
    } catch (const protocol::RequestError&) {
      answers = false;  // "unknown service"
    }
    EXPECT_EQ(advertised.count(feature), served.count(service)) << feature << " " << service;
    EXPECT_EQ(answers, served.count(service) == 1) << service;
    if (advertised.count(feature) != 0) featured.insert(service);
  }
  EXPECT_EQ(featured, served);
  // Options of served services: tags, box filters, categories, the reset scopes, pausing.
  for (int id : {4, 6, 8, 21, 22, 23, 26}) EXPECT_EQ(advertised.count(id), 1u) << id;
  // ENTITY_BOUNDS_CONVEX, SPAWNING_RESOURCE_STRING, WORLD_RESOURCE_STRING, WORLD_TAGS do not work.
  for (int id : {7, 9, 41, 42}) EXPECT_EQ(advertised.count(id), 0u) << "feature " << id;
  EXPECT_EQ(reply.at("features").at("spawn_formats"), Json::array({"asg"}));
  EXPECT_NE(client->ErrorOf("GetSimulatorFeatures", {{"verbose", true}}).find("verbose"),
            std::string::npos);
}

TEST(ServeSimifTest, GetSpawnablesListsEveryCatalogClassAndTheVehicle) {
  const std::string catalog_file = std::string(ASG_SOURCE_DIR) + "/configs/actors.json";
  ServedWorker worker({"--catalog", catalog_file});
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  const scene::ActorCatalog& catalog = scene::testing::ShippedCatalog();
  ASSERT_EQ(catalog.kinds().size(), 4u);  // tree, bush, rock, grass in configs/actors.json
  const Json reply = client->Body("GetSpawnables");
  EXPECT_EQ(Code(reply), 1);
  const Json& spawnables = reply.at("spawnables");
  ASSERT_EQ(spawnables.size(), catalog.kinds().size() + 1);
  std::vector<std::string> uris;
  for (const Json& spawnable : spawnables) {
    uris.push_back(spawnable.at("entity_resource").at("uri"));
    const Json& bounds = spawnable.at("spawn_bounds");
    EXPECT_EQ(bounds.at("type"), 1) << spawnable.dump();  // TYPE_BOX
    ASSERT_EQ(bounds.at("points").size(), 2u);
    const std::vector<double> high = Xyz(bounds["points"][0]), low = Xyz(bounds["points"][1]);
    for (int i = 0; i < 3; ++i) EXPECT_GT(high[i], low[i]) << spawnable.dump();
  }
  std::vector<std::string> expected;
  for (const scene::ActorKind& kind : catalog.kinds()) {
    expected.push_back("asg://actor/" + kind.aliases.front());
  }
  expected.push_back("asg://vehicle");
  EXPECT_EQ(uris, expected);
  EXPECT_EQ(uris[0], "asg://actor/tree");
  // The tree's box: canopy radius 1.5 m, 4.5 m high at scale 1.
  const Json& tree = spawnables[0].at("spawn_bounds").at("points");
  EXPECT_DOUBLE_EQ(tree[0]["x"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(tree[0]["z"].get<double>(), 4.5);
  EXPECT_DOUBLE_EQ(tree[1]["y"].get<double>(), -1.5);
}

TEST(ServeSimifTest, SpawnEntityAndDeleteEntityAnswerTheirCodes) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  const auto spawn = [&](const Json& body) { return client->Body("SpawnEntity", body); };

  Json reply = spawn(SpawnBody("my_rock", "asg://actor/rock", 30.0, 10.0));
  EXPECT_EQ(Code(reply), 1) << reply.dump();
  EXPECT_EQ(reply["entity_name"], "my_rock");
  reply = spawn(SpawnBody("my_rock", "asg://actor/rock", 32.0, 10.0));
  EXPECT_EQ(Code(reply), 101) << reply.dump();  // NAME_NOT_UNIQUE
  EXPECT_EQ(reply["entity_name"], "");
  reply = spawn(SpawnBody("my_rock", "asg://actor/rock", 32.0, 10.0, /*allow_renaming=*/true));
  EXPECT_EQ(Code(reply), 1) << reply.dump();
  EXPECT_EQ(reply["entity_name"], "my_rock_1");
  reply = spawn(SpawnBody("", "asg://actor/bush", 34.0, 10.0));
  EXPECT_EQ(Code(reply), 102) << reply.dump();  // NAME_INVALID
  reply = spawn(SpawnBody("", "asg://actor/bush", 34.0, 10.0, /*allow_renaming=*/true));
  EXPECT_EQ(Code(reply), 1) << reply.dump();
  EXPECT_EQ(reply["entity_name"], "bush");  // the class's short name
  reply = spawn(SpawnBody("a", "asg://actor/unicorn", 34.0, 12.0));
  EXPECT_EQ(Code(reply), 2) << reply.dump();  // NOT_FOUND
  EXPECT_NE(reply["result"]["error_message"].get<std::string>().find("unicorn"), std::string::npos);
  reply = spawn(SpawnBody("a", "file:///tmp/rock.sdf", 34.0, 12.0));
  EXPECT_EQ(Code(reply), 103) << reply.dump();  // UNSUPPORTED_FORMAT
  reply = spawn(SpawnBody("a", "", 34.0, 12.0));
  EXPECT_EQ(Code(reply), 104) << reply.dump();  // NO_RESOURCE
  Json from_string = SpawnBody("a", "", 34.0, 12.0);
  from_string["entity_resource"]["resource_string"] = "<sdf/>";
  EXPECT_EQ(Code(spawn(from_string)), 0);  // FEATURE_UNSUPPORTED
  reply = spawn(SpawnBody("a", "asg://actor/rock", 34.0, 12.0, false, "my space"));
  EXPECT_EQ(Code(reply), 105) << reply.dump();  // NAMESPACE_INVALID
  reply = spawn(SpawnBody("a", "asg://actor/rock", 1000.0, 12.0));
  EXPECT_EQ(Code(reply), 109) << reply.dump();  // INVALID_POSE
  EXPECT_EQ(Code(spawn(SpawnBody("car", "asg://vehicle", 34.0, 12.0))), 4);
  reply = spawn(SpawnBody("r", "asg://actor/rock", 36.0, 12.0, false, "/team/"));
  EXPECT_EQ(Code(reply), 1) << reply.dump();
  EXPECT_EQ(reply["entity_name"], "team/r");

  std::vector<std::string> names = KnownNames();
  for (const char* spawned : {"my_rock", "my_rock_1", "bush", "team/r"}) names.push_back(spawned);
  EXPECT_EQ(Entities(*client, Json::object()), names);
  // The spawned rock lies on the flat ground where it was asked.
  const Json rock = StateOf(*client, "my_rock");
  EXPECT_EQ(Xyz(rock["pose"]["position"]), (std::vector<double>{30.0, 10.0, 0.0}));

  EXPECT_EQ(Code(client->Body("DeleteEntity", {{"entity", "my_rock"}})), 1);
  EXPECT_EQ(Code(client->Body("DeleteEntity", {{"entity", "my_rock"}})), 2);
  EXPECT_EQ(Code(client->Body("DeleteEntity", {{"entity", "vehicle"}})), 4);
  EXPECT_EQ(Code(client->Body("DeleteEntity", {{"entity", "tree_0_1"}})), 1);
  names.erase(std::find(names.begin(), names.end(), "my_rock"));
  names.erase(std::find(names.begin(), names.end(), "tree_0_1"));
  EXPECT_EQ(Entities(*client, Json::object()), names);
  EXPECT_EQ(Code(client->Body("GetEntityState", {{"entity", "tree_0_1"}})), 2);
}

TEST(ServeSimifTest, SpawnEntitiesAnswersEachRequestAndOldSpawnEntityTakesATopLevelUri) {
  ServedWorker worker;
  auto client = worker.Connect();
  Json requests = {{"spawn_requests", Json::array()}};
  EXPECT_EQ(Code(client->Body("SpawnEntities", requests)), 3);  // nothing loaded
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  requests["spawn_requests"] = {SpawnBody("r1", "asg://actor/rock", 30.0, 10.0),
                                SpawnBody("r2", "asg://actor/rock", 32.0, 10.0)};
  Json reply = client->Body("SpawnEntities", requests);
  EXPECT_EQ(Code(reply), 1) << reply.dump();
  ASSERT_EQ(reply.at("results").size(), 2u);
  EXPECT_EQ(reply["results"][1]["entity_name"], "r2");
  EXPECT_EQ(reply["results"][1]["result"]["result"], 1);
  // One taken name: ENTITIES_SPAWN_FAILED, the others spawned all the same.
  requests["spawn_requests"] = {SpawnBody("r1", "asg://actor/rock", 30.0, 14.0),
                                SpawnBody("r3", "asg://actor/rock", 34.0, 10.0)};
  reply = client->Body("SpawnEntities", requests);
  EXPECT_EQ(Code(reply), 150) << reply.dump();
  EXPECT_EQ(reply["results"][0]["result"]["result"], 101);  // NAME_NOT_UNIQUE
  EXPECT_EQ(reply["results"][1]["entity_name"], "r3");
  EXPECT_EQ(Xyz(StateOf(*client, "r3")["pose"]["position"]),
            (std::vector<double>{34.0, 10.0, 0.0}));
  requests["spawn_requests"][1]["nmae"] = "x";
  const std::string error = FailureOf(*client, "SpawnEntities", requests);
  EXPECT_NE(error.find("spawn_requests[1].nmae"), std::string::npos) << error;

  // simulation_interfaces 1.0's SpawnEntity: the uri at the top level.
  Json old = SpawnBody("r4", "", 36.0, 10.0);
  old.erase("entity_resource");
  old["uri"] = "asg://actor/rock";
  reply = client->Body("SpawnEntity", old);
  EXPECT_EQ(Code(reply), 1) << reply.dump();
  EXPECT_EQ(reply["entity_name"], "r4");
  old["name"] = "r5";
  old["entity_resource"] = {{"uri", "asg://actor/bush"}};
  EXPECT_NE(FailureOf(*client, "SpawnEntity", old).find("not both"), std::string::npos);
}

TEST(ServeSimifTest, SpawnEntityRefusesTakenAndMalformedNamesAndPoses) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  const auto spawn = [&](const Json& body) { return client->Body("SpawnEntity", body); };
  EXPECT_EQ(Code(spawn(SpawnBody("vehicle", "asg://actor/rock", 30, 10))), 101);
  EXPECT_EQ(Code(spawn(SpawnBody("tree_0_0", "asg://actor/rock", 30, 10))), 101);
  Json reply = spawn(SpawnBody("tree_0_0", "asg://actor/rock", 30, 10, /*allow_renaming=*/true));
  EXPECT_EQ(reply["entity_name"], "tree_0_0_1") << reply.dump();
  EXPECT_EQ(Code(spawn(SpawnBody("my rock", "asg://actor/rock", 30, 12))), 102);
  // A class may be named by its path_name too.
  reply = spawn(SpawnBody("juniper", std::string("asg://actor/") + scene::testing::kTree, 30, 14));
  EXPECT_EQ(Code(reply), 1) << reply.dump();
  Json zero = SpawnBody("z", "asg://actor/rock", 30, 16);
  zero["initial_pose"]["pose"]["orientation"] = {{"x", 0}, {"y", 0}, {"z", 0}, {"w", 0}};
  EXPECT_EQ(Code(spawn(zero)), 109);  // not a rotation
  Json map_frame = SpawnBody("m", "asg://actor/rock", 30, 16);
  map_frame["initial_pose"]["header"]["frame_id"] = "map";
  EXPECT_EQ(Code(spawn(map_frame)), 109);
  std::vector<std::string> names = KnownNames();
  names.insert(names.end(), {"tree_0_0_1", "juniper"});
  EXPECT_EQ(Entities(*client, Json::object()), names);
}

TEST(ServeSimifTest, SpawnEntityRefusesUnknownFieldsAtEveryLevel) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  const Json good = SpawnBody("a", "asg://actor/rock", 30.0, 10.0);
  Json bad = good;
  bad["nmae"] = "b";
  EXPECT_NE(FailureOf(*client, "SpawnEntity", bad).find("nmae"), std::string::npos);
  bad = good;
  bad["entity_resource"]["url"] = "x";
  EXPECT_NE(FailureOf(*client, "SpawnEntity", bad).find("entity_resource.url"), std::string::npos);
  bad = good;
  bad["initial_pose"]["header"]["frmae_id"] = "map";  // a misspelt frame is not ignored
  EXPECT_NE(FailureOf(*client, "SpawnEntity", bad).find("initial_pose.header.frmae_id"),
            std::string::npos);
  bad = good;
  bad["initial_pose"]["pose"]["position"]["q"] = 1.0;
  EXPECT_NE(FailureOf(*client, "SpawnEntity", bad).find("initial_pose.pose.position.q"),
            std::string::npos);
  // None of them spawned anything.
  EXPECT_EQ(Entities(*client, Json::object()), KnownNames());
}

TEST(ServeSimifTest, GetEntitiesFiltersByNameCategoryTagsAndBounds) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  ASSERT_EQ(Code(client->Body("SpawnEntity", SpawnBody("my_rock", "asg://actor/rock", 30, 10))), 1);
  using Names = std::vector<std::string>;
  const Names trees = {"tree_0_0", "tree_0_1", "tree_0_2"};
  const Names actors = {"tree_0_0", "tree_0_1", "tree_0_2", "bush_1_0", "bush_1_1", "my_rock"};

  EXPECT_EQ(Entities(*client, {{"filter", "^tree_"}}), trees);
  EXPECT_EQ(Entities(*client, {{"filter", "_1_[0-9]$"}}), (Names{"bush_1_0", "bush_1_1"}));
  EXPECT_EQ(Entities(*client, {{"filter", "rock|vehicle"}}), (Names{"vehicle", "my_rock"}));
  EXPECT_EQ(Entities(*client, {{"filter", "^nothing$"}}), Names{});

  EXPECT_EQ(Entities(*client, {{"categories", {{{"category", 1}}}}}), Names{"vehicle"});
  EXPECT_EQ(Entities(*client, {{"categories", {{{"category", 5}}}}}), actors);
  EXPECT_EQ(Entities(*client, {{"categories", {{{"category", 2}}}}}), Names{});
  EXPECT_EQ(Entities(*client, {{"categories", {{{"category", 1}}, {{"category", 5}}}}}).size(), 7u);

  EXPECT_EQ(Entities(*client, Tags({"spawned"}, 0)), Names{"my_rock"});
  EXPECT_EQ(Entities(*client, Tags({"tree", "obstacle"}, 1)), trees);   // FILTER_MODE_ALL
  EXPECT_EQ(Entities(*client, Tags({"tree", "obstacle"}, 0)), actors);  // FILTER_MODE_ANY
  EXPECT_EQ(Entities(*client, Tags({"bush", "spawned"}, 0)),
            (Names{"bush_1_0", "bush_1_1", "my_rock"}));
  EXPECT_EQ(Entities(*client, Tags({"bush", "spawned"}, 1)), Names{});
  EXPECT_EQ(Entities(*client, Tags({"scenario", "juniper"}, 1)), trees);
  EXPECT_EQ(Entities(*client, Tags({"vehicle"}, 0)), Names{"vehicle"});

  // A box around tree_0_1 at (15, 50) only.
  const Json box = {{"type", 1}, {"points", {Vec(14.5, 49.5, -1.0), Vec(15.5, 50.5, 1.0)}}};
  EXPECT_EQ(Entities(*client, {{"bounds", box}}), Names{"tree_0_1"});
  // Filters combine: the box and a regex that excludes it.
  EXPECT_EQ(Entities(*client, {{"bounds", box}, {"filter", "bush"}}), Names{});
  // A sphere of 8 m about (45, 15): the bushes' boxes are 6.2 m away, the rock 14.5 m.
  const Json sphere = {{"type", 3}, {"points", {Vec(45.0, 15.0, 0.3), Vec(8.0, 0.0, 0.0)}}};
  EXPECT_EQ(Entities(*client, {{"bounds", sphere}}), (Names{"bush_1_0", "bush_1_1"}));
  const Json small = {{"type", 3}, {"points", {Vec(45.0, 15.0, 0.3), Vec(1.0, 0.0, 0.0)}}};
  EXPECT_EQ(Entities(*client, {{"bounds", small}}), Names{});

  const Json hull = {{"type", 2}, {"points", {Vec(0, 0, 0), Vec(1, 0, 0), Vec(0, 1, 0)}}};
  Json reply = client->Body("GetEntities", {{"filters", {{"bounds", hull}}}});
  EXPECT_EQ(Code(reply), 0) << reply.dump();  // FEATURE_UNSUPPORTED
  EXPECT_EQ(reply["entities"], Json::array());

  const std::string error = FailureOf(*client, "GetEntities", {{"filters", {{"filter", "["}}}});
  EXPECT_NE(error.find("filters.filter"), std::string::npos) << error;
  EXPECT_NE(error.find("\"[\""), std::string::npos) << error;
  const std::string one_point =
      FailureOf(*client, "GetEntities",
                {{"filters", {{"bounds", {{"type", 1}, {"points", {Vec(0, 0, 0)}}}}}}});
  EXPECT_NE(one_point.find("filters.bounds.points"), std::string::npos) << one_point;
  // Still answering after the refusals.
  EXPECT_EQ(Entities(*client, Json::object()).size(), 7u);
}

TEST(ServeSimifTest, GetEntitiesStatesAlignsStatesWithEntities) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  Json reply = client->Body("GetEntitiesStates", {{"filters", {{"filter", "^bush_"}}}});
  EXPECT_EQ(Code(reply), 1) << reply.dump();
  EXPECT_EQ(Strings(reply.at("entities")), (std::vector<std::string>{"bush_1_0", "bush_1_1"}));
  ASSERT_EQ(reply.at("states").size(), 2u);
  EXPECT_EQ(Xyz(reply["states"][0]["pose"]["position"]), (std::vector<double>{40.0, 10.0, 0.0}));
  EXPECT_EQ(Xyz(reply["states"][1]["pose"]["position"]), (std::vector<double>{50.0, 20.0, 0.0}));
  EXPECT_EQ(reply["states"][0]["header"]["frame_id"], "world");

  reply = client->Body("GetEntitiesStates");
  EXPECT_EQ(Strings(reply.at("entities")), KnownNames());
  ASSERT_EQ(reply.at("states").size(), KnownNames().size());
  const std::vector<double> vehicle = Xyz(reply["states"][0]["pose"]["position"]);
  EXPECT_NEAR(vehicle[0], 10.0, 0.1);  // settled at its start
  EXPECT_NEAR(vehicle[1], 10.0, 0.1);
  EXPECT_GT(vehicle[2], 0.0);
  for (size_t i = 0; i < KnownNames().size(); ++i) {
    EXPECT_EQ(reply["states"][i], StateOf(*client, KnownNames()[i])) << KnownNames()[i];
  }
  EXPECT_EQ(Xyz(reply["states"][2]["pose"]["position"]), (std::vector<double>{15.0, 50.0, 0.0}));

  reply = client->Body("GetEntityState", {{"entity", "tree_9_9"}});
  EXPECT_EQ(Code(reply), 2) << reply.dump();  // NOT_FOUND
  EXPECT_EQ(Code(client->Body("GetEntityInfo", {{"entity", "tree_9_9"}})), 2);
  EXPECT_EQ(Code(client->Body("GetEntityBounds", {{"entity", "tree_9_9"}})), 2);
  reply = client->Body("GetEntityInfo", {{"entity", "bush_1_1"}});
  EXPECT_EQ(reply["info"]["category"]["category"], 5);
  EXPECT_EQ(Strings(reply["info"]["tags"]),
            (std::vector<std::string>{"bush", "barberry", "scenario", "obstacle"}));
  EXPECT_EQ(client->Body("GetEntityInfo", {{"entity", "vehicle"}})["info"]["category"]["category"],
            1);
}

TEST(ServeSimifTest, SetEntityStateRoundTripsTheVehicle) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  const Json set = SetStateBody("vehicle", Vec(20.0, 25.0, 1.5), Yaw(90.0), Vec(1.0, -2.0, 0.5),
                                Vec(0.0, 0.0, 0.3));
  Json reply = client->Body("SetEntityState", set);
  ASSERT_EQ(Code(reply), 1) << reply.dump();
  const Json state = StateOf(*client, "vehicle");
  const auto near = [](const Json& got, const Json& want, const char* what) {
    for (const char* axis : {"x", "y", "z", "w"}) {
      if (!want.contains(axis)) continue;
      EXPECT_NEAR(got.at(axis).get<double>(), want.at(axis).get<double>(), 1e-4)
          << what << "." << axis;
    }
  };
  near(state["pose"]["position"], set["state"]["pose"]["position"], "position");
  near(state["pose"]["orientation"], set["state"]["pose"]["orientation"], "orientation");
  near(state["twist"]["linear"], set["state"]["twist"]["linear"], "linear");
  near(state["twist"]["angular"], set["state"]["twist"]["angular"], "angular");
  // Off the 60 m landscape: INVALID_POSE, and the vehicle stays where it was put.
  reply = client->Body("SetEntityState", SetStateBody("vehicle", Vec(100.0, 25.0, 1.5), Yaw(0)));
  EXPECT_EQ(Code(reply), 101) << reply.dump();
  near(StateOf(*client, "vehicle")["pose"]["position"], set["state"]["pose"]["position"],
       "position after the refusal");
  Json wrong_frame = set;
  wrong_frame["state"]["header"]["frame_id"] = "map";
  EXPECT_EQ(Code(client->Body("SetEntityState", wrong_frame)), 4);
  EXPECT_EQ(Code(client->Body("SetEntityState", SetStateBody("nobody", Vec(1, 1, 1), Yaw(0)))), 2);
}

TEST(ServeSimifTest, SetEntityStateMovesAnActorOnTheGround) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  Json reply =
      client->Body("SetEntityState", SetStateBody("tree_0_0", Vec(12.0, 38.0, 5.0), Yaw(30.0)));
  ASSERT_EQ(Code(reply), 1) << reply.dump();
  const Json state = StateOf(*client, "tree_0_0");
  // x and y as asked; z on the flat ground, not the 5 m asked; a juniper stands upright.
  EXPECT_EQ(Xyz(state["pose"]["position"]), (std::vector<double>{12.0, 38.0, 0.0}));
  EXPECT_NEAR(state["pose"]["orientation"]["z"].get<double>(), std::sin(M_PI / 12.0), 1e-9);
  EXPECT_NEAR(state["pose"]["orientation"]["w"].get<double>(), std::cos(M_PI / 12.0), 1e-9);
  // The bounds are in the entity's own frame, wherever it stands: canopy radius 1.5 m, from the
  // base up.
  const Json bounds = client->Body("GetEntityBounds", {{"entity", "tree_0_0"}})["bounds"];
  EXPECT_EQ(bounds["type"], 1);
  EXPECT_DOUBLE_EQ(bounds["points"][0]["x"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(bounds["points"][0]["y"].get<double>(), 1.5);
  EXPECT_GT(bounds["points"][0]["z"].get<double>(), 1.0);
  EXPECT_EQ(Xyz(bounds["points"][1]), (std::vector<double>{-1.5, -1.5, 0.0}));
  // The vehicle's chassis box about its centre of mass: symmetric in x and y.
  const Json vehicle = client->Body("GetEntityBounds", {{"entity", "vehicle"}})["bounds"];
  const std::vector<double> high = Xyz(vehicle["points"][0]), low = Xyz(vehicle["points"][1]);
  EXPECT_DOUBLE_EQ(high[0], -low[0]);
  EXPECT_DOUBLE_EQ(high[1], -low[1]);
  EXPECT_LT(low[2], 0.0);
  EXPECT_GT(high[2], 0.0);
  EXPECT_LT(high[0], 5.0);

  // A static actor takes no velocity.
  reply = client->Body("SetEntityState", SetStateBody("tree_0_0", Vec(12.0, 38.0, 0.0), Yaw(0.0),
                                                      Vec(1.0, 0.0, 0.0), Vec(0.0, 0.0, 0.0)));
  EXPECT_EQ(Code(reply), 4) << reply.dump();
  reply = client->Body("SetEntityState", SetStateBody("bush_1_0", Vec(-5.0, 10.0, 0.0), Yaw(0)));
  EXPECT_EQ(Code(reply), 101) << reply.dump();
  EXPECT_EQ(Xyz(StateOf(*client, "bush_1_0")["pose"]["position"]),
            (std::vector<double>{40.0, 10.0, 0.0}));

  // Undecodable positions are Error replies naming the field.
  Json text = SetStateBody("tree_0_0", Vec(12.0, 38.0, 0.0), Yaw(0));
  text["state"]["pose"]["position"]["x"] = "twelve";
  std::string error = FailureOf(*client, "SetEntityState", text);
  EXPECT_NE(error.find("state.pose.position.x"), std::string::npos) << error;
  EXPECT_NE(error.find("twelve"), std::string::npos) << error;
  Json null = text;
  null["state"]["pose"]["position"]["x"] = nullptr;
  error = FailureOf(*client, "SetEntityState", null);
  EXPECT_NE(error.find("state.pose.position.x"), std::string::npos) << error;
  EXPECT_EQ(Xyz(StateOf(*client, "tree_0_0")["pose"]["position"]),
            (std::vector<double>{12.0, 38.0, 0.0}));
}

TEST(ServeSimifTest, SetEntityStateRefusesAcceleratingStaticActorsAndRequestsWithoutFlags) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  // A static actor given a non-zero acceleration: OPERATION_FAILED, and it stays where it was.
  Json accelerated = SetStateBody("tree_0_0", Vec(12.0, 38.0, 0.0), Yaw(0.0));
  accelerated["state"]["acceleration"] = {{"linear", Vec(0.0, 0.0, 0.0)},
                                          {"angular", Vec(0.0, 0.0, 0.5)}};
  accelerated["set_acceleration"] = true;
  Json reply = client->Body("SetEntityState", accelerated);
  EXPECT_EQ(Code(reply), 4) << reply.dump();
  EXPECT_NE(reply["result"]["error_message"].get<std::string>().find("acceleration"),
            std::string::npos);
  EXPECT_EQ(Xyz(StateOf(*client, "tree_0_0")["pose"]["position"]),
            (std::vector<double>{10.0, 40.0, 0.0}));
  // A zero acceleration is no refusal.
  accelerated["state"]["acceleration"]["angular"] = Vec(0.0, 0.0, 0.0);
  EXPECT_EQ(Code(client->Body("SetEntityState", accelerated)), 1);

  // No set_* flag (a simulation_interfaces 1.0 request): nothing is set, and the result says so.
  const Json before = StateOf(*client, "vehicle");
  Json unflagged = SetStateBody("vehicle", Vec(20.0, 25.0, 1.5), Yaw(90.0));
  unflagged.erase("set_pose");
  unflagged.erase("set_twist");
  reply = client->Body("SetEntityState", unflagged);
  EXPECT_EQ(Code(reply), 4) << reply.dump();
  EXPECT_NE(reply["result"]["error_message"].get<std::string>().find("nothing was set"),
            std::string::npos);
  EXPECT_EQ(Xyz(StateOf(*client, "vehicle")["pose"]["position"]), Xyz(before["pose"]["position"]));
  unflagged["entity"] = "nobody";
  EXPECT_EQ(Code(client->Body("SetEntityState", unflagged)), 2);
}

/// The distance between two positions of states.
double Distance(const Json& a, const Json& b) {
  const std::vector<double> p = Xyz(a), q = Xyz(b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/// ResetSimulation's result code for `scope`.
int Reset(ServedClient& client, int scope) {
  return Code(client.Body("ResetSimulation", {{"scope", scope}}));
}

TEST(ServeSimifTest, ResetTimeRestartsTheClockWhereTheVehicleIs) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  const Json start = StateOf(*client, "vehicle")["pose"]["position"];
  ASSERT_EQ(Code(client->Body("StepSimulation", {{"steps", 100}})), 1);
  const Json moved = StateOf(*client, "vehicle")["pose"];
  EXPECT_GT(Distance(moved["position"], start), 0.5);  // the straight driver drove
  EXPECT_EQ(Reset(*client, 1), 1);                     // SCOPE_TIME
  const Json time = client->Body("GetSimulationTime");
  EXPECT_EQ(time["simulation_time"].get<double>(), 0.0);
  EXPECT_EQ(time["steps"], 0);
  EXPECT_EQ(StateOf(*client, "vehicle")["pose"], moved);
  EXPECT_EQ(testing::StateNumber(*client), 2);  // still PAUSED
  ASSERT_EQ(Code(client->Body("StepSimulation", {{"steps", 3}})), 1);
  EXPECT_NEAR(testing::Time(*client), 0.03, 1e-12);
}

TEST(ServeSimifTest, ResetStatePutsEntitiesBackAndKeepsTheClock) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  const Json start = StateOf(*client, "vehicle")["pose"];
  ASSERT_EQ(Code(client->Body("SpawnEntity", SpawnBody("my_rock", "asg://actor/rock", 30, 10))), 1);
  ASSERT_EQ(Code(client->Body("StepSimulation", {{"steps", 100}})), 1);
  ASSERT_EQ(
      Code(client->Body("SetEntityState", SetStateBody("tree_0_1", Vec(20.0, 50.0, 0.0), Yaw(0)))),
      1);
  ASSERT_EQ(
      Code(client->Body("SetEntityState", SetStateBody("my_rock", Vec(32.0, 12.0, 0.0), Yaw(0)))),
      1);
  EXPECT_GT(Distance(StateOf(*client, "vehicle")["pose"]["position"], start["position"]), 0.5);

  EXPECT_EQ(Reset(*client, 2), 1);  // SCOPE_STATE
  const Json vehicle = StateOf(*client, "vehicle");
  EXPECT_LT(Distance(vehicle["pose"]["position"], start["position"]), 1e-4);
  EXPECT_EQ(Xyz(vehicle["twist"]["linear"]), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(Xyz(StateOf(*client, "tree_0_1")["pose"]["position"]),
            (std::vector<double>{15.0, 50.0, 0.0}));
  // A spawned actor goes back to where it was spawned, and stays.
  EXPECT_EQ(Xyz(StateOf(*client, "my_rock")["pose"]["position"]),
            (std::vector<double>{30.0, 10.0, 0.0}));
  EXPECT_NEAR(testing::Time(*client), 1.0, 1e-9);  // the clock is not reset
}

TEST(ServeSimifTest, ResetSpawnedDeletesOnlySpawnedEntities) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  for (const char* name : {"rock_a", "rock_b"}) {
    ASSERT_EQ(Code(client->Body("SpawnEntity", SpawnBody(name, "asg://actor/rock", 30, 10))), 1);
  }
  ASSERT_EQ(
      Code(client->Body("SetEntityState", SetStateBody("tree_0_0", Vec(12.0, 38.0, 0.0), Yaw(0)))),
      1);
  ASSERT_EQ(Code(client->Body("StepSimulation", {{"steps", 10}})), 1);
  EXPECT_EQ(Entities(*client, Json::object()).size(), 8u);
  EXPECT_EQ(Reset(*client, 4), 1);  // SCOPE_SPAWNED
  EXPECT_EQ(Entities(*client, Json::object()), KnownNames());
  // Nothing else is reset.
  EXPECT_EQ(Xyz(StateOf(*client, "tree_0_0")["pose"]["position"]),
            (std::vector<double>{12.0, 38.0, 0.0}));
  EXPECT_NEAR(testing::Time(*client), 0.1, 1e-9);
}

TEST(ServeSimifTest, ResetAllAndDefaultRestoreTheLoadedScenario) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  const Json start = StateOf(*client, "vehicle")["pose"];
  for (const int scope : {255, 0}) {  // SCOPE_ALL, SCOPE_DEFAULT
    ASSERT_EQ(Code(client->Body("StepSimulation", {{"steps", 60}})), 1);
    ASSERT_EQ(Code(client->Body("SpawnEntity", SpawnBody("r", "asg://actor/rock", 30, 10))), 1);
    ASSERT_EQ(Code(client->Body("DeleteEntity", {{"entity", "bush_1_0"}})), 1);
    ASSERT_EQ(Code(client->Body("SetEntityState",
                                SetStateBody("tree_0_2", Vec(26.0, 50.0, 0.0), Yaw(0)))),
              1);
    EXPECT_EQ(Reset(*client, scope), 1) << scope;
    EXPECT_EQ(Entities(*client, Json::object()), KnownNames()) << scope;
    EXPECT_EQ(testing::Time(*client), 0.0) << scope;
    EXPECT_EQ(Xyz(StateOf(*client, "tree_0_2")["pose"]["position"]),
              (std::vector<double>{25.0, 55.0, 0.0}))
        << scope;
    EXPECT_LT(Distance(StateOf(*client, "vehicle")["pose"]["position"], start["position"]), 1e-4)
        << scope;
    EXPECT_EQ(testing::StateNumber(*client), 2) << scope;
  }
}

TEST(ServeSimifTest, ResetWithAnUnknownScopeChangesNothing) {
  ServedWorker worker;
  auto client = worker.Connect();
  ASSERT_EQ(testing::Load(*client, KnownScenario())["success"], true);
  ASSERT_EQ(Code(client->Body("StepSimulation", {{"steps", 5}})), 1);
  EXPECT_EQ(Reset(*client, 8), 0);  // FEATURE_UNSUPPORTED
  EXPECT_EQ(Reset(*client, 9), 0);  // SCOPE_TIME with an unknown bit: nothing is done
  EXPECT_NEAR(testing::Time(*client), 0.05, 1e-12);
  const std::string error = FailureOf(*client, "ResetSimulation", {{"scope", 256}});
  EXPECT_NE(error.find("scope = 256"), std::string::npos) << error;
  EXPECT_EQ(Reset(*client, 3), 1);  // TIME and STATE together
  EXPECT_EQ(testing::Time(*client), 0.0);
}

}  // namespace
}  // namespace asg::worker
