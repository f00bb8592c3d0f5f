// The family-tree mosaic: ancestry from search.json, layout, drawing, files.
#include "client/replay/mosaic_tree.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "client/replay/mosaic_font.h"
#include "results/files.h"
#include "results/folder.h"

namespace asg::client {

namespace fs = std::filesystem;
using report::Rgb;
using report::RgbImage;

namespace {

constexpr Rgb kBackground{32, 32, 32};
constexpr Rgb kGreyTile{128, 128, 128};
constexpr Rgb kLabel{240, 240, 240};

// The source regret of a scenario, when its result.json has one.
std::optional<double> SourceRegret(const fs::path& source_dir, uint32_t number) {
  const std::optional<results::ScenarioOutcome> outcome =
      results::LoadScenarioOutcome(source_dir, number);
  if (!outcome || !outcome->result.regret.computed) return std::nullopt;
  return outcome->result.regret.regret;
}

// "#17 0.734", or "#17 -" without a regret.
std::string CellLabel(const MosaicCell& cell) {
  char text[48];
  if (cell.regret) {
    std::snprintf(text, sizeof text, "#%u %.3f", cell.scenario_number, *cell.regret);
  } else {
    std::snprintf(text, sizeof text, "#%u -", cell.scenario_number);
  }
  return text;
}

}  // namespace

std::vector<uint32_t> Ancestry(const fs::path& source_dir, uint32_t scenario_number) {
  std::vector<uint32_t> lineage = {scenario_number};
  std::set<uint32_t> visited = {scenario_number};
  uint32_t current = scenario_number;
  while (true) {
    const fs::path record_file = results::ScenarioFolder(source_dir, current) / "search.json";
    if (!fs::exists(record_file)) break;
    Json record;
    try {
      record = results::ReadJsonFile(record_file);
    } catch (const results::ResultError& error) {
      throw ReplayError(error.what());
    }
    const Json* parents = record.contains("parents") ? &record["parents"] : nullptr;
    if (parents == nullptr || !parents->is_array() || parents->empty() ||
        !(*parents)[0].is_number_unsigned()) {
      break;
    }
    const uint32_t parent = (*parents)[0].get<uint32_t>();
    if (visited.count(parent) || !fs::is_directory(results::ScenarioFolder(source_dir, parent))) {
      break;
    }
    visited.insert(parent);
    lineage.push_back(parent);
    current = parent;
  }
  std::reverse(lineage.begin(), lineage.end());
  return lineage;
}

MosaicLayout LayOutFamilyTrees(const fs::path& source_dir, const fs::path& replay_dir,
                               const std::vector<ReplayRun>& runs) {
  MosaicLayout layout;
  for (const ReplayRun& run : runs) {
    if (run.run != 0) continue;
    std::vector<MosaicCell> row;
    const std::vector<uint32_t> lineage = Ancestry(source_dir, run.source_number);
    for (const uint32_t number : lineage) {
      MosaicCell cell{number, SourceRegret(source_dir, number), {}};
      // The top scenario shows its replay; an ancestor its source capture when there is one.
      const fs::path image =
          number == run.source_number
              ? results::ScenarioFolder(replay_dir, run.scenario_number) / "captures" /
                    ReplayCaptureName()
              : results::ScenarioFolder(source_dir, number) / "captures" / ReplayCaptureName();
      if (fs::exists(image)) cell.image = image;
      row.push_back(std::move(cell));
    }
    layout.columns = std::max(layout.columns, static_cast<uint32_t>(row.size()));
    layout.rows.push_back(std::move(row));
  }
  const auto rows = static_cast<uint32_t>(layout.rows.size());
  layout.width = kMosaicGap + layout.columns * (kMosaicCellSize + kMosaicGap);
  layout.height = kMosaicGap + rows * (kMosaicLabelHeight + kMosaicCellSize + kMosaicGap);
  return layout;
}

RgbImage DrawFamilyTrees(const MosaicLayout& layout) {
  RgbImage mosaic = RgbImage::Filled(layout.width, layout.height, kBackground);
  for (size_t row = 0; row < layout.rows.size(); ++row) {
    const int64_t top = kMosaicGap + static_cast<int64_t>(row) *
                                         (kMosaicLabelHeight + kMosaicCellSize + kMosaicGap);
    for (size_t column = 0; column < layout.rows[row].size(); ++column) {
      const MosaicCell& cell = layout.rows[row][column];
      const int64_t left =
          kMosaicGap + static_cast<int64_t>(column) * (kMosaicCellSize + kMosaicGap);
      DrawText(&mosaic, left + 1, top + (kMosaicLabelHeight - kGlyphHeight) / 2, CellLabel(cell),
               kLabel);
      const int64_t image_top = top + kMosaicLabelHeight;
      const std::optional<RgbImage> image =
          cell.image.empty() ? std::nullopt : report::ReadPngFile(cell.image);
      if (image) {
        report::DrawScaled(&mosaic, *image, left, image_top, kMosaicCellSize, kMosaicCellSize);
        continue;
      }
      // No image: a grey tile with the scenario number in the middle, three times the size.
      report::FillRectangle(&mosaic, left, image_top, kMosaicCellSize, kMosaicCellSize, kGreyTile);
      char number_text[16];
      std::snprintf(number_text, sizeof number_text, "#%u", cell.scenario_number);
      const std::string_view number = number_text;
      const auto text_width = static_cast<int64_t>(number.size() * kGlyphAdvance * 3);
      DrawText(&mosaic, left + (kMosaicCellSize - text_width) / 2,
               image_top + (kMosaicCellSize - kGlyphHeight * 3) / 2, number, kBackground, 3);
    }
  }
  return mosaic;
}

Json FamilyTreesJson(const MosaicLayout& layout) {
  Json rows = Json::array();
  for (const std::vector<MosaicCell>& row : layout.rows) {
    Json cells = Json::array();
    for (const MosaicCell& cell : row) {
      cells.push_back({{"scenario_number", cell.scenario_number},
                       {"regret", cell.regret ? Json(*cell.regret) : Json(nullptr)},
                       {"image", cell.image.string()}});
    }
    rows.push_back(std::move(cells));
  }
  return {{"width", layout.width},
          {"height", layout.height},
          {"columns", layout.columns},
          {"cell_size", kMosaicCellSize},
          {"label_height", kMosaicLabelHeight},
          {"gap", kMosaicGap},
          {"rows", std::move(rows)}};
}

void WriteFamilyTrees(const fs::path& source_dir, const fs::path& replay_dir,
                      const std::vector<ReplayRun>& runs) {
  const MosaicLayout layout = LayOutFamilyTrees(source_dir, replay_dir, runs);
  if (layout.rows.empty()) return;
  results::WriteFileAtomically(replay_dir / "family_trees.png",
                               report::EncodePng(DrawFamilyTrees(layout)));
  results::WriteFileAtomically(replay_dir / "family_trees.json",
                               results::JsonFileText(FamilyTreesJson(layout)));
}

}  // namespace asg::client
