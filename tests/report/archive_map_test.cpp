// Tests for report/archive_map.h: the colour scale, archive.csv read back, the map's pixels (an
// occupied cell has the colour of its elite's regret, an empty one is blank, north up and west
// left), its PNG (decoded again; the same bytes twice) and DIR/report/archive_map.png.
#include "report/archive_map.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/report.h"
#include "tests/report/report_files.h"
#include "tests/temp_dir.h"

namespace asg::report {
namespace {

namespace fs = std::filesystem;
using testing::ReadText;
using testing::WriteText;

// The pixel at the centre of `rect`.
Rgb Centre(const RgbImage& image, const PixelRect& rect) {
  return image.At(rect.x + rect.width / 2, rect.y + rect.height / 2);
}

ArchiveRow Row(uint32_t generation, uint32_t x, uint32_t y, const char* outcome, uint32_t bin,
               double regret) {
  ArchiveRow row;
  row.generation = generation;
  row.cell_x = x;
  row.cell_y = y;
  row.outcome = outcome;
  row.near_path = bin;
  row.regret = regret;
  row.scenario = 7;
  return row;
}

size_t OutcomeIndex(const std::string& name) {
  const std::vector<std::string>& outcomes = ArchiveOutcomes();
  return static_cast<size_t>(std::find(outcomes.begin(), outcomes.end(), name) - outcomes.begin());
}

TEST(RegretColour, ViridisFromZeroToTheTopOfTheScaleClampedAtBothEnds) {
  EXPECT_EQ(RegretColour(0.0), (Rgb{0x44, 0x01, 0x54}));
  EXPECT_EQ(RegretColour(kMapRegretMax / 2), (Rgb{0x21, 0x91, 0x8C}));
  EXPECT_EQ(RegretColour(kMapRegretMax), (Rgb{0xFD, 0xE7, 0x25}));
  EXPECT_EQ(RegretColour(7.0), RegretColour(kMapRegretMax));
  EXPECT_EQ(RegretColour(-1.0), RegretColour(0.0));
  // Halfway between the first two anchors.
  EXPECT_EQ(RegretColour(kMapRegretMax / 16), (Rgb{0x46, 0x17, 0x68}));
  EXPECT_NE(RegretColour(0.7), RegretColour(0.8));
  EXPECT_NE(RegretColour(0.0), kEmptyCell);
  EXPECT_NE(RegretColour(kMapRegretMax), kEmptyCell);
}

TEST(ArchiveOutcomes, NoneThenTheFailureKinds) {
  EXPECT_EQ(ArchiveOutcomes(),
            (std::vector<std::string>{"none", "collision", "flip", "stuck", "out_of_bounds",
                                      "timeout", "high_regret", "contact"}));
}

TEST(ArchiveMap, AnOccupiedCellHasItsRegretsColourAndAnEmptyOneIsBlank) {
  const ArchiveMapLayout layout(ArchiveGrid{});
  const std::vector<ArchiveRow> rows = {Row(3, 2, 5, "collision", 1, 1.2),
                                        Row(3, 0, 0, "none", 0, 0.1),
                                        Row(3, 7, 7, "contact", 3, 9.0)};
  const RgbImage image = DrawArchiveMap(rows, layout);
  ASSERT_EQ(image.width, layout.width());
  ASSERT_EQ(image.pixels.size(), size_t{image.width} * image.height * 3);
  const size_t collision = OutcomeIndex("collision");
  EXPECT_EQ(Centre(image, layout.Square(collision, 2, 5, 1)), RegretColour(1.2));
  EXPECT_EQ(Centre(image, layout.Square(OutcomeIndex("none"), 0, 0, 0)), RegretColour(0.1));
  EXPECT_EQ(Centre(image, layout.Square(OutcomeIndex("contact"), 7, 7, 3)),
            RegretColour(kMapRegretMax));
  // The same landscape cell's other bins, and the same cell of another outcome, are empty.
  EXPECT_EQ(Centre(image, layout.Square(collision, 2, 5, 0)), kEmptyCell);
  EXPECT_EQ(Centre(image, layout.Square(collision, 2, 5, 3)), kEmptyCell);
  EXPECT_EQ(Centre(image, layout.Square(OutcomeIndex("flip"), 2, 5, 1)), kEmptyCell);
  // Every corner of an occupied square has its colour: squares do not overlap the lines.
  const PixelRect square = layout.Square(collision, 2, 5, 1);
  EXPECT_EQ(image.At(square.x, square.y), RegretColour(1.2));
  EXPECT_EQ(image.At(square.x + square.width - 1, square.y + square.height - 1), RegretColour(1.2));
}

TEST(ArchiveMap, NorthIsUpAndWestIsLeftAndBinsGoRowByRow) {
  const ArchiveMapLayout layout(ArchiveGrid{});
  const PixelRect origin = layout.Square(0, 0, 0, 0);
  EXPECT_LT(layout.Square(0, 7, 0, 0).y, origin.y);  // north (+x) up
  EXPECT_EQ(layout.Square(0, 7, 0, 0).x, origin.x);
  EXPECT_LT(layout.Square(0, 0, 7, 0).x, origin.x);  // west (+y) left
  EXPECT_EQ(layout.Square(0, 0, 7, 0).y, origin.y);
  EXPECT_EQ(layout.Square(0, 0, 0, 1).x, origin.x + layout.square());  // 0 1
  EXPECT_EQ(layout.Square(0, 0, 0, 2).y, origin.y + layout.square());  // 2 3
  // Every panel lies inside the image and above the colour bar.
  for (size_t outcome = 0; outcome < ArchiveOutcomes().size(); ++outcome) {
    const PixelRect panel = layout.Panel(outcome);
    EXPECT_LE(panel.x + panel.width, layout.width());
    EXPECT_LT(panel.y + panel.height, layout.ScaleBar().y);
  }
  EXPECT_LT(layout.ScaleBar().y + layout.ScaleBar().height, layout.height());
}

TEST(ArchiveMap, TheColourBarShowsTheScale) {
  const ArchiveMapLayout layout(ArchiveGrid{});
  const RgbImage image = DrawArchiveMap({}, layout);
  const PixelRect bar = layout.ScaleBar();
  const uint32_t middle = bar.y + bar.height / 2;
  EXPECT_EQ(image.At(bar.x + 1, middle), RegretColour(kMapRegretMax * 1.5 / bar.width));
  EXPECT_EQ(image.At(layout.ScaleColumn(kMapRegretMax / 2), middle),
            RegretColour(kMapRegretMax * (layout.ScaleColumn(kMapRegretMax / 2) - bar.x + 0.5) /
                         bar.width));
}

TEST(ArchiveMap, ACellOffTheGridIsRefused) {
  const ArchiveMapLayout layout(ArchiveGrid{4, 2});
  for (const ArchiveRow& row : {Row(0, 4, 0, "none", 0, 0.5), Row(0, 0, 0, "none", 2, 0.5),
                                Row(0, 0, 0, "sideways", 0, 0.5)}) {
    try {
      DrawArchiveMap({row}, layout);
      ADD_FAILURE() << "no error for " << row.outcome;
    } catch (const ReportError& error) {
      EXPECT_NE(std::string(error.what()).find("scenario 7"), std::string::npos) << error.what();
    }
  }
}

TEST(ArchiveMap, ThePngHoldsThePixelsAndIsTheSameTwice) {
  const ArchiveMapLayout layout(ArchiveGrid{8, 3});
  const RgbImage image = DrawArchiveMap({Row(1, 4, 4, "stuck", 2, 0.8)}, layout);
  const std::string png = EncodePng(image);
  EXPECT_EQ(EncodePng(DrawArchiveMap({Row(1, 4, 4, "stuck", 2, 0.8)}, layout)), png);
  const std::optional<RgbImage> decoded = DecodePng(png);
  ASSERT_TRUE(decoded);
  ASSERT_EQ(decoded->width, image.width);
  ASSERT_EQ(decoded->height, image.height);
  EXPECT_EQ(decoded->pixels, image.pixels);
  // With 3 bins a cell is 2 x 2 squares; the fourth is no bin: grey, not blank.
  EXPECT_EQ(Centre(*decoded, layout.Square(OutcomeIndex("stuck"), 4, 4, 2)), RegretColour(0.8));
  EXPECT_NE(Centre(*decoded, layout.Square(OutcomeIndex("stuck"), 4, 4, 3)), kEmptyCell);
  EXPECT_NE(Centre(*decoded, layout.Square(OutcomeIndex("stuck"), 4, 4, 3)), RegretColour(0.8));
}

class ArchiveMapFileTest : public ::testing::Test {
 protected:
  const fs::path& dir() const { return temp_.path(); }
  testutil::TempDir temp_;
};

TEST_F(ArchiveMapFileTest, TheLastGenerationOnTheSearchsGrid) {
  WriteText(dir() / "archive.csv",
            "generation,cell_x,cell_y,outcome,near_path,candidate_id,scenario,regret\n"
            "0,1,1,collision,0,3,3,0.900000\n"
            "1,1,1,collision,0,3,3,0.900000\n"
            "1,3,0,flip,0,9,9,1.300000\n"
            "0,2,2,none,0,1,1,0.100000\n");
  WriteText(dir() / "search.json",
            "{\"strategy\": \"map-elites\", \"strategy_settings\": {\"grid_cells\": 4, "
            "\"near_path_bins\": 1}}");
  const json::Json archive = WriteArchiveMap(dir());
  EXPECT_EQ(archive["generation"], 1);
  EXPECT_EQ(archive["cells"], 2);
  EXPECT_EQ(archive["grid_cells"], 4);
  EXPECT_EQ(archive["near_path_bins"], 1);
  EXPECT_EQ(archive["src"], "report/archive_map.png");
  EXPECT_EQ(archive["panels"][OutcomeIndex("flip")]["cells"], 1);
  EXPECT_EQ(archive["panels"][OutcomeIndex("none")]["cells"], 0);
  EXPECT_EQ(archive["scale"]["ticks"].size(), 5u);

  const std::string png = ReadText(dir() / "report" / "archive_map.png");
  const std::optional<RgbImage> decoded = DecodePng(png);
  ASSERT_TRUE(decoded);
  const RgbImage& image = *decoded;
  const ArchiveMapLayout layout(ArchiveGrid{4, 1});
  ASSERT_EQ(image.width, layout.width());
  EXPECT_EQ(archive["width"], layout.width());
  EXPECT_EQ(Centre(image, layout.Square(OutcomeIndex("collision"), 1, 1, 0)), RegretColour(0.9));
  EXPECT_EQ(Centre(image, layout.Square(OutcomeIndex("flip"), 3, 0, 0)), RegretColour(1.3));
  // Only in generation 0: not in the last archive.
  EXPECT_EQ(Centre(image, layout.Square(OutcomeIndex("none"), 2, 2, 0)), kEmptyCell);

  WriteArchiveMap(dir());
  EXPECT_EQ(ReadText(dir() / "report" / "archive_map.png"), png);
}

TEST_F(ArchiveMapFileTest, NoArchiveNoMap) {
  EXPECT_TRUE(WriteArchiveMap(dir()).is_null());
  EXPECT_FALSE(fs::exists(dir() / "report" / "archive_map.png"));
}

TEST_F(ArchiveMapFileTest, DefaultGridWithoutSettings) {
  EXPECT_EQ(ArchiveGridOf(json::Json(), "search.json").grid_cells, 8u);
  EXPECT_EQ(ArchiveGridOf(json::Json::parse("{\"strategy_settings\": {\"seed_count\": 5}}"),
                          "search.json")
                .near_path_bins,
            4u);
  try {
    ArchiveGridOf(json::Json::parse("{\"strategy_settings\": {\"grid_cells\": \"many\"}}"),
                  "DIR/search.json");
    FAIL() << "no error";
  } catch (const ReportError& error) {
    EXPECT_NE(std::string(error.what()).find("DIR/search.json: strategy_settings: map-elites"),
              std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("grid_cells"), std::string::npos) << error.what();
  }
}

TEST_F(ArchiveMapFileTest, AValueOfTheWrongKindNamesTheFileLineAndColumn) {
  WriteText(dir() / "archive.csv",
            "generation,cell_x,cell_y,outcome,near_path,candidate_id,scenario,regret\n"
            "0,1,1,collision,0,3,3,0.9\n"
            "0,1,-2,collision,0,3,3,0.9\n");
  try {
    ReadArchiveCsv(dir() / "archive.csv");
    FAIL() << "no error";
  } catch (const ReportError& error) {
    EXPECT_EQ(std::string(error.what()),
              (dir() / "archive.csv").string() +
                  ": line 3: cell_y is -2.0: needs a whole number from 0 to 4294967295");
  }
  WriteText(dir() / "archive.csv", "generation,cell_x\n0,1\n");
  EXPECT_THROW(ReadArchiveCsv(dir() / "archive.csv"), ReportError);
}

}  // namespace
}  // namespace asg::report
