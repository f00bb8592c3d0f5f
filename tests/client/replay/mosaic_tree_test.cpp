// Tests for client/replay/mosaic_tree.h (and the image helpers of report/rgb_image.h it
// draws with).
#include "client/replay/mosaic_tree.h"

#include <gtest/gtest.h>

#include "results/files.h"
#include "results/folder.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;
using report::DecodePng;
using report::EncodePng;
using report::Rgb;
using report::RgbImage;
using testutil::TempDir;

// Writes scenario `number`'s folder with `regret` and a search.json naming `parents`.
void WriteScenario(const fs::path& dir, uint32_t number, double regret,
                   const std::vector<uint32_t>& parents) {
  results::ScenarioRecord record;
  record.request = results::Json::object();
  record.result.scenario_number = number;
  record.result.status = results::ScenarioStatus::kDone;
  record.result.regret.computed = true;
  record.result.regret.regret = regret;
  record.timing.attempts = {{1, 1, 0.1, "done", ""}};
  record.search = {{"candidate_id", number}, {"parents", parents}};
  results::WriteScenarioFolder(dir, record);
}

TEST(MosaicTree, AncestryFollowsFirstParentsBackToASeed) {
  TempDir dir;
  WriteScenario(dir.path(), 1, 0.1, {});
  WriteScenario(dir.path(), 2, 0.2, {});
  WriteScenario(dir.path(), 5, 0.3, {2, 1});
  WriteScenario(dir.path(), 9, 0.4, {5});
  WriteScenario(dir.path(), 12, 0.5, {40});  // a parent without a folder ends the lineage
  EXPECT_EQ(Ancestry(dir.path(), 9), (std::vector<uint32_t>{2, 5, 9}));
  EXPECT_EQ(Ancestry(dir.path(), 1), (std::vector<uint32_t>{1}));
  EXPECT_EQ(Ancestry(dir.path(), 12), (std::vector<uint32_t>{12}));
}

TEST(MosaicTree, LayoutAndImageHaveOneRowPerTopAndTheLongestAncestryAsColumns) {
  TempDir dir;
  const fs::path source = dir.path() / "source";
  const fs::path replay = dir.path() / "replay";
  WriteScenario(source, 2, 0.2, {});
  WriteScenario(source, 5, 0.3, {2});
  WriteScenario(source, 9, 0.8, {5});
  WriteScenario(source, 4, 0.6, {});
  // The top scenario 9 was replayed as 1 (run 0) with a red capture; 4 as 3 without one.
  fs::create_directories(replay / "scenario_0001" / "captures");
  results::WriteFileSynced(replay / "scenario_0001" / "captures" / ReplayCaptureName(),
                           EncodePng(RgbImage::Filled(64, 64, {255, 0, 0})));
  const std::vector<ReplayRun> runs = {{1, 9, 0, 0.8, ""}, {2, 9, 1, 0.8, ""}, {3, 4, 0, 0.6, ""}};

  const MosaicLayout layout = LayOutFamilyTrees(source, replay, runs);
  ASSERT_EQ(layout.rows.size(), 2u);
  EXPECT_EQ(layout.columns, 3u);
  EXPECT_EQ(layout.rows[0].size(), 3u);
  EXPECT_EQ(layout.rows[0][2].scenario_number, 9u);
  EXPECT_EQ(layout.rows[0][2].regret, 0.8);
  EXPECT_FALSE(layout.rows[0][2].image.empty());
  EXPECT_TRUE(layout.rows[0][0].image.empty());
  EXPECT_EQ(layout.rows[1].size(), 1u);
  EXPECT_EQ(layout.width, 4u + 3u * 260u);
  EXPECT_EQ(layout.height, 4u + 2u * 272u);

  const RgbImage image = DrawFamilyTrees(layout);
  ASSERT_EQ(image.width, layout.width);
  ASSERT_EQ(image.height, layout.height);
  // The middle of the top scenario's cell is the red capture; an ancestor's cell corner is grey.
  const uint32_t image_top = kMosaicGap + kMosaicLabelHeight;
  const Rgb red = image.At(kMosaicGap + 2 * 260 + 128, image_top + 128);
  EXPECT_EQ(red.r, 255);
  EXPECT_EQ(red.g, 0);
  const Rgb grey = image.At(kMosaicGap + 2, image_top + 2);
  EXPECT_EQ(grey.r, 128);

  // The PNG decodes back to the same pixels.
  const std::optional<RgbImage> decoded = DecodePng(EncodePng(image));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->pixels, image.pixels);

  const Json json = FamilyTreesJson(layout);
  EXPECT_EQ(json["rows"][0][1]["scenario_number"], 5);
  EXPECT_EQ(json["rows"][0][0]["image"], "");
}

}  // namespace
}  // namespace asg::client
