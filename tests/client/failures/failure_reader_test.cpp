// Tests for client/failures/failure_reader.h.
#include "client/failures/failure_reader.h"

#include <gtest/gtest.h>

#include "tests/client/failures/hand_made_folders.h"
#include "tests/source_catalog.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using hand_made::Request;
using protocol::TerminationReason;

constexpr const char* kRock = "/Game/Blueprints/BP_SSA_Rock_Sandstone_Field_Desktop";
constexpr const char* kGrass = "/Game/Blueprints/BP_SSA_Grass_Tuft_Field_Desktop";

// A stored scenario as its folder would read back, from a hand-made record.
results::StoredScenario Stored(const results::ScenarioRecord& record) {
  testutil::TempDir dir;
  results::WriteScenarioFolder(dir.path(), record);
  return results::ReadScenarioFolder(
      results::ScenarioFolder(dir.path(), record.result.scenario_number));
}

// A hill of 3 m and radius 10 m at (30, 30).
protocol::ReliefFeature Hill() {
  protocol::ReliefFeature hill;
  hill.x = 30;
  hill.y = 30;
  hill.radius = 10;
  hill.height = 3;
  return hill;
}

TEST(FailureReader, ClassesTheActorsByTheCatalogAndReadsThePath) {
  const FailureReader reader(testing::SourceCatalogPath());
  // A rock at full scale, a rock scaled below the traversable height, a grass tuft, a bush by
  // its full name.
  const results::ScenarioRecord record = hand_made::DoneRecord(
      Request(7, {{"rock", 40, 40}, {"rock", 12, 3, 0.2}, {"grass", 5, 6}, {"sandstone", 1, 2}}),
      TerminationReason::REASON_VEHICLE_COLLISION, 1.25, {{10, 40}, {38.6, 40}});
  const failures::RunFacts facts = reader.Facts(Stored(record), "/out/scenario_0007");
  EXPECT_EQ(facts.scenario_number, 7u);
  EXPECT_EQ(facts.reason, TerminationReason::REASON_VEHICLE_COLLISION);
  EXPECT_EQ(facts.regret, 1.25);
  ASSERT_EQ(facts.obstacles.size(), 4u);
  EXPECT_EQ(facts.obstacles[0].class_name, kRock);  // the alias resolved to its class
  EXPECT_EQ(facts.obstacles[0].x, 40.0);
  EXPECT_FALSE(facts.obstacles[0].traversable);
  EXPECT_TRUE(facts.obstacles[1].traversable);  // 0.6 m x 0.2: below 0.2 m
  EXPECT_EQ(facts.obstacles[2].class_name, kGrass);
  EXPECT_TRUE(facts.obstacles[2].traversable);
  EXPECT_EQ(facts.obstacles[3].class_name, kRock);
  ASSERT_EQ(facts.trajectory.size(), record.trajectory.size());
  EXPECT_EQ(facts.trajectory.back().x, 38.6);
  EXPECT_EQ(facts.trajectory.back().t, 0.05 * static_cast<double>(facts.trajectory.size() - 1));
  EXPECT_NEAR(facts.trajectory.back().yaw, 0.0, 1e-12);
}

TEST(FailureReader, TheSlopeIsTheLandscapesAtTheFailurePoint) {
  FailureReader reader(testing::SourceCatalogPath());
  const results::ScenarioRecord record =
      hand_made::DoneRecord(Request(3, {}, {Hill()}), TerminationReason::REASON_VEHICLE_FLIPPED,
                            std::nullopt, {{10, 30}, {25, 30}});
  const std::optional<failures::Failure> failure =
      reader.Describe(Stored(record), "/out/scenario_0003", 0.75);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->signature.kind, failures::FailureKind::kFlip);
  EXPECT_EQ(failure->regret, std::nullopt);
  protocol::LandscapeDescription landscape;
  landscape.relief = {Hill()};
  const double slope = terrain::Landscape(landscape).SlopeAt(25, 30);
  EXPECT_GT(slope, 10.0);  // on the hill's flank
  EXPECT_EQ(failure->signature.slope, slope);
}

TEST(FailureReader, OnlyDoneRunsThatFailAtTheThresholdAreFailures) {
  results::ScenarioResult result;
  result.status = results::ScenarioStatus::kDone;
  result.termination_reason = TerminationReason::REASON_SUCCESS;
  EXPECT_FALSE(FailureReader::MayFail(result, 0.75));  // no regret measured
  result.regret.computed = true;
  result.regret.regret = 0.75;
  EXPECT_TRUE(FailureReader::MayFail(result, 0.75));  // at the threshold
  EXPECT_FALSE(FailureReader::MayFail(result, 0.8));
  result.termination_reason = TerminationReason::REASON_SIM_TIMEOUT;
  EXPECT_TRUE(FailureReader::MayFail(result, 0.8));
  result.status = results::ScenarioStatus::kFailed;
  EXPECT_FALSE(FailureReader::MayFail(result, 0.8));

  FailureReader reader(testing::SourceCatalogPath());
  const results::ScenarioRecord success = hand_made::DoneRecord(
      Request(2, {}), TerminationReason::REASON_SUCCESS, 0.2, {{10, 10}, {50, 50}});
  EXPECT_EQ(reader.Describe(Stored(success), "/out/scenario_0002", 0.75), std::nullopt);
}

TEST(FailureReader, TheFirstContactOfResultJsonIsTheFailurePointAndNamesTheActorHit) {
  FailureReader reader(testing::SourceCatalogPath());
  // The rock at (40, 40) is actor 1 after a tree far away; the run touched it at (38.2, 40) and
  // pushed on to (38.6, 40).
  results::ScenarioRecord record = hand_made::DoneRecord(
      Request(5, {{"tree", 5, 55}, {"rock", 40, 40}}),
      TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT, 1.1, {{10, 40}, {38.6, 40}});
  record.result.counters.collisions_touched = 1;
  record.result.counters.first_contact = protocol::FirstContact{5.62, 38.2, 40.0, 1};
  const results::StoredScenario stored = Stored(record);
  const failures::RunFacts facts = reader.Facts(stored, "/out/scenario_0005");
  ASSERT_TRUE(facts.first_contact.has_value());
  EXPECT_EQ(facts.first_contact->t, 5.62);
  EXPECT_EQ(facts.first_contact->x, 38.2);
  EXPECT_EQ(facts.first_contact->actor_index, 1u);
  EXPECT_EQ(facts.obstacles[facts.first_contact->actor_index].class_name, kRock);
  const std::optional<failures::Failure> failure =
      reader.Describe(stored, "/out/scenario_0005", 0.75);
  ASSERT_TRUE(failure.has_value());
  EXPECT_TRUE(failure->signature.at_contact);
  EXPECT_EQ(failure->signature.point.x(), 38.2);
  ASSERT_TRUE(failure->signature.hit.has_value());
  EXPECT_EQ(failure->signature.hit->class_name, kRock);
  // A result without one (none touched, or written before contacts were recorded): the end.
  record.result.counters.first_contact.reset();
  EXPECT_FALSE(reader.Facts(Stored(record), "/out/scenario_0005").first_contact.has_value());
}

TEST(FailureReader, ASuccessBelowTheThresholdThatTouchedIsANearMissNotAFailure) {
  results::ScenarioResult result;
  result.status = results::ScenarioStatus::kDone;
  result.termination_reason = TerminationReason::REASON_SUCCESS;
  result.regret.computed = true;
  result.regret.regret = 0.2;
  EXPECT_EQ(FailureReader::KindOf(result, 0.75), std::nullopt);  // clean
  result.counters.collisions_touched = 2;
  EXPECT_EQ(FailureReader::KindOf(result, 0.75), failures::FailureKind::kContact);
  EXPECT_FALSE(FailureReader::MayFail(result, 0.75));
  EXPECT_EQ(FailureReader::KindOf(result, 0.2), failures::FailureKind::kHighRegret);
  result.termination_reason = TerminationReason::REASON_VEHICLE_COLLISION;
  EXPECT_EQ(FailureReader::KindOf(result, 0.75), failures::FailureKind::kCollision);
}

TEST(FailureReader, AFirstContactThatIsNoObstacleOfTheRequestIsNamed) {
  const FailureReader reader(testing::SourceCatalogPath());
  results::ScenarioRecord record =
      hand_made::DoneRecord(Request(6, {{"rock", 40, 40}, {"grass", 20, 20}}),
                            TerminationReason::REASON_VEHICLE_COLLISION, 1.0, {{10, 40}, {38, 40}});
  const auto error_of = [&](uint32_t actor_index) {
    record.result.counters.first_contact = protocol::FirstContact{1.0, 38.0, 40.0, actor_index};
    try {
      reader.Facts(Stored(record), "/out/scenario_0006");
    } catch (const FailuresError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(2),
            "/out/scenario_0006/result.json: counters.first_contact.actor_index: 2 is not an "
            "actor of request.json (it has 2)");
  EXPECT_EQ(error_of(1),
            "/out/scenario_0006/result.json: counters.first_contact.actor_index: 1 names a "
            "traversable actor (" +
                std::string(kGrass) + ")");
  EXPECT_EQ(error_of(0), "no error");
}

TEST(FailureReader, ErrorsNameTheFileThePathAndTheValue) {
  const FailureReader reader(testing::SourceCatalogPath());
  const results::ScenarioRecord record =
      hand_made::DoneRecord(Request(4, {{"rock", 40, 40}, {"cactus", 10, 10}}),
                            TerminationReason::REASON_VEHICLE_STUCK_TIMEOUT, 1.0, {{0, 0}, {5, 5}});
  try {
    reader.Facts(Stored(record), "/out/scenario_0004");
    FAIL() << "no exception";
  } catch (const FailuresError& error) {
    EXPECT_EQ(std::string(error.what()),
              "/out/scenario_0004/request.json: scene_description.ssa_array[1].path_name: "
              "\"cactus\" is not a class of " +
                  testing::SourceCatalogPath());
  }
  results::StoredScenario stored = Stored(record);
  stored.request["scene_description"]["ssa_array"][1]["path_name"] = "bush";
  stored.request["scene_description"]["ssa_array"][0]["y"][0] = "north";
  try {
    reader.Facts(stored, "/out/scenario_0004");
    FAIL() << "no exception";
  } catch (const FailuresError& error) {
    EXPECT_EQ(std::string(error.what()),
              "/out/scenario_0004/request.json: scene_description.ssa_array[0].y[0]: expected a "
              "number, got \"north\"");
  }
  try {
    FailureReader missing("/nowhere/actors.json");
    FAIL() << "no exception";
  } catch (const FailuresError& error) {
    EXPECT_NE(std::string(error.what()).find("/nowhere/actors.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace asg::client
