// Tests for ctl/ctl_output.h: what asg-ctl makes of reply bodies: their errors, attachment files,
// the services table and which feedback frames it prints.
#include "ctl/ctl_output.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/temp_dir.h"

namespace asg::ctl {
namespace {

using json::Json;

/// The whole content of a file, or "" when it cannot be read.
std::string ReadBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// The completed_steps of the feedback frames of a goal of `steps` steps a thinner prints.
std::vector<uint64_t> PrintedFeedback(uint64_t steps) {
  FeedbackThinner thinner;
  std::vector<uint64_t> printed;
  for (uint64_t done = 1; done <= steps; ++done) {
    if (thinner.ShouldPrint(
            Json{{"goal_id", 1}, {"completed_steps", done}, {"remaining_steps", steps - done}})) {
      printed.push_back(done);
    }
  }
  return printed;
}

TEST(CtlOutput, FeedbackIsPrintedOncePerPercentAndAtBothEnds) {
  EXPECT_EQ(PrintedFeedback(3), (std::vector<uint64_t>{1, 2, 3}));
  const std::vector<uint64_t> long_goal = PrintedFeedback(100'000);
  ASSERT_EQ(long_goal.size(), 101u);
  EXPECT_EQ(long_goal[0], 1u);
  EXPECT_EQ(long_goal[1], 1000u);
  EXPECT_EQ(long_goal[100], 100'000u);
  // Every 250th frame of a goal with feedback_every_steps 250: all of them (1 % each).
  FeedbackThinner thinner;
  EXPECT_TRUE(thinner.ShouldPrint(Json{{"completed_steps", 250}, {"remaining_steps", 24'750}}));
  EXPECT_TRUE(thinner.ShouldPrint(Json{{"completed_steps", 500}, {"remaining_steps", 24'500}}));
  EXPECT_TRUE(thinner.ShouldPrint(Json{{"goal_id", 1}}));  // no counts: printed
}

TEST(CtlOutput, ResultProblemNamesWhatTheBodyReports) {
  EXPECT_EQ(ResultProblem(Json::object()), "");
  EXPECT_EQ(ResultProblem(Json{{"result", {{"result", 1}, {"error_message", ""}}}}), "");
  EXPECT_EQ(ResultProblem(Json{{"result", {{"result", 2}, {"error_message", "no tree_0_9"}}}}),
            "result 2 (RESULT_NOT_FOUND): no tree_0_9");
  EXPECT_EQ(ResultProblem(Json{{"result", {{"result", 103}}}}), "result 103");
  EXPECT_EQ(ResultProblem(Json{{"success", true}}), "");
  EXPECT_EQ(ResultProblem(Json{{"success", false}, {"description", "why"}}), "success false: why");
  EXPECT_EQ(ResultProblem(Json{{"success", false}, {"message", "seed says"}}),
            "success false: seed says");
  EXPECT_EQ(ResultProblem(Json{{"accepted", false}}), "not accepted");
  EXPECT_EQ(ResultProblem(Json{{"accepted", true}, {"goal_id", 1}}), "");
  // A "result" that is not a Result object (e.g. GetResult's analysis) is no error.
  EXPECT_EQ(ResultProblem(Json{{"success", true}, {"result", "collision"}}), "");
}

TEST(CtlOutput, SanitizedNamesKeepOnlyPortableCharacters) {
  EXPECT_EQ(SanitizeFileName("front_camera-1.v2"), "front_camera-1.v2");
  EXPECT_EQ(SanitizeFileName("b/../c"), "b_.._c");
  EXPECT_EQ(SanitizeFileName("a b\\c:d\xc3\xa9"), "a_b_c_d__");
  EXPECT_EQ(SanitizeFileName(""), "_");
}

TEST(CtlOutput, ASliceOutsideTheAttachmentIsNotSavedAndIsNamed) {
  testutil::TempDir dir;
  Json body = {{"images",
                {{{"name", "ok"}, {"offset", 1u}, {"size", 2u}},
                 {{"name", "far"}, {"offset", 4u}, {"size", 9u}},
                 {{"name", "no size"}, {"offset", 0u}}}}};
  const SavedAttachment saved = SaveAttachment("CaptureScene", "wxyz", dir.path(), &body);
  ASSERT_EQ(saved.files.size(), 1u);
  EXPECT_EQ(saved.files[0].path, dir.path() / "ok.png");
  EXPECT_EQ(saved.files[0].bytes, 2u);
  EXPECT_EQ(ReadBytes(dir.path() / "ok.png"), "xy");
  ASSERT_EQ(saved.problems.size(), 1u);
  EXPECT_EQ(saved.problems[0], "images[1] \"far\": bytes 4 + 9 are outside the 4-byte attachment");
  EXPECT_FALSE(body["images"][1].contains("saved"));
  EXPECT_FALSE(body["images"][2].contains("saved"));
}

TEST(CtlOutput, NoAttachmentNoFiles) {
  testutil::TempDir dir;
  Json body = {{"success", true}};
  const SavedAttachment saved = SaveAttachment("GetResult", "", dir.path() / "never", &body);
  EXPECT_TRUE(saved.files.empty());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "never"));
  EXPECT_EQ(body, (Json{{"success", true}}));
}

TEST(CtlOutput, AFolderThatCannotBeMadeIsAProblem) {
  testutil::TempDir dir;
  std::ofstream(dir.path() / "file") << "x";
  Json body = Json::object();
  const SavedAttachment saved = SaveAttachment("S", "bytes", dir.path() / "file" / "sub", &body);
  EXPECT_TRUE(saved.files.empty());
  ASSERT_EQ(saved.problems.size(), 1u);
  EXPECT_NE(saved.problems[0].find("cannot create"), std::string::npos);
}

TEST(CtlOutput, TheServiceTableIsAligned) {
  const Json services = Json::parse(R"([
    {"name": "GetVersion", "family": "monodrive", "description": "the version"},
    {"name": "LoadScenario", "family": "farm"},
    {"name": 7, "family": "x", "description": "odd"}
  ])");
  EXPECT_EQ(FormatServiceTable(services),
            "GetVersion    monodrive  the version\n"
            "LoadScenario  farm\n"
            "7             x          odd\n");
  EXPECT_EQ(FormatServiceTable(Json::array()), "");
}

}  // namespace
}  // namespace asg::ctl
