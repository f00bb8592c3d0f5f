// Tests for client/batch/batch.h.
// Batch files on disk: the JSON parse, the name, and the batches the repository ships.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "client/batch/batch.h"
#include "protocol/messages_json.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

TEST(LoadBatchFileTest, MalformedJsonNamesFileLineAndColumn) {
  testutil::TempDir dir;
  const auto file = dir.path() / "broken.json";
  std::ofstream(file) << "{\n  \"seed\": 7,\n  \"scenarios\": [{]\n}\n";
  try {
    LoadBatchFile(file);
    FAIL() << "no error";
  } catch (const BatchError& error) {
    EXPECT_EQ(std::string(error.what()).rfind(file.string() + ":3:18: malformed JSON", 0), 0u)
        << error.what();
  }
}

TEST(LoadBatchFileTest, NameDefaultsToFileStem) {
  testutil::TempDir dir;
  const auto file = dir.path() / "night_run.json";
  std::ofstream(file) << R"({"scenarios": [{}]})";
  EXPECT_EQ(LoadBatchFile(file).settings.name, "night_run");
  EXPECT_EQ(LoadBatchFile(file).origin, file.string());
}

TEST(ConfigBatchesTest, DemoBatchPlansFiftyValidScenarios) {
  const Batch batch = LoadBatchFile(ASG_SOURCE_DIR "/configs/demo.json");
  EXPECT_EQ(batch.settings.seed, 7u);
  ASSERT_EQ(batch.scenarios.size(), 50u);
  EXPECT_EQ(batch.CountInvalid(), 0u);
  const protocol::RunScenarioRequest& request = batch.scenarios[0].request;
  EXPECT_EQ(request.vehicle_start_location.x, 10.0);
  EXPECT_EQ(request.vehicle_goal_location.y, 50.0);
  EXPECT_EQ(request.sim_timeout_period, 17.0);
  ASSERT_EQ(request.scene_description.ssa_array.size(), 2u);
  EXPECT_EQ(request.scene_description.ssa_array[0].num_instances, 6);
  EXPECT_EQ(request.scene_description.ssa_array[1].num_instances, 6);
  EXPECT_EQ(request.driver.type, protocol::DriverSpec::Type::kPlanner);
}

TEST(ConfigBatchesTest, MixedBatchHasOneInvalidScenario) {
  const Batch batch = LoadBatchFile(ASG_SOURCE_DIR "/configs/batches/mixed.json");
  ASSERT_EQ(batch.scenarios.size(), 5u);
  EXPECT_EQ(batch.CountInvalid(), 1u);
  EXPECT_EQ(batch.Find(4)->status, PlanStatus::kInvalid);
  EXPECT_NE(batch.Find(4)->error.find("num_instances"), std::string::npos);
}

// The first ```json block of `file` after `heading` (a line of the file).
std::string JsonBlockAfter(const std::string& file, const std::string& heading) {
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find(heading);
  const size_t begin = text.find("```json\n", at == std::string::npos ? 0 : at);
  if (at == std::string::npos || begin == std::string::npos) return "";
  const size_t end = text.find("```", begin + 8);
  return text.substr(begin + 8, end - begin - 8);
}

TEST(ConfigBatchesTest, TheExampleBatchesOfTheReadmeAndTheReferenceCheckWithoutAWord) {
  const std::pair<std::string, std::string> examples[] = {
      {ASG_SOURCE_DIR "/README.md", "## A ten-minute tour"},
      {ASG_SOURCE_DIR "/docs/batch-reference.md", "## Example"}};
  for (const auto& [file, heading] : examples) {
    const std::string text = JsonBlockAfter(file, heading);
    ASSERT_FALSE(text.empty()) << file;
    const Batch batch = ParseBatchText(text, "example.json", "example");
    EXPECT_GT(batch.scenarios.size(), 0u) << file;
    const std::string report = CheckReport(batch);
    EXPECT_EQ(report, "example.json: " + std::to_string(batch.scenarios.size()) + " scenarios: " +
                          std::to_string(batch.scenarios.size()) + " valid, 0 invalid\n")
        << file;
  }
}

}  // namespace
}  // namespace asg::client
