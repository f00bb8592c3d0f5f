// The family-tree mosaic of a replay with captures: NEW_DIR/family_trees.png holds one row per
// replayed top scenario, its ancestry in the search (search.json parents, first parent each time,
// back to a seed) oldest on the left and the top scenario itself on the right. Each cell is the
// annotated ortho aerial of that scenario (client/replay/replay_batch.h ReplayCaptureName): an
// ancestor's from the source folder's captures when it has one, else a grey tile; the top
// scenario's from its replay run 0. A label above each cell gives "#<scenario number> <regret>"
// (source regrets). NEW_DIR/family_trees.json lists the same layout.
//
// Geometry: cells of kMosaicCellSize px under a kMosaicLabelHeight px label, kMosaicGap px between
// cells and around the edge, so the image is
//   width  = kMosaicGap + columns * (kMosaicCellSize + kMosaicGap)
//   height = kMosaicGap + rows * (kMosaicLabelHeight + kMosaicCellSize + kMosaicGap)
// with `columns` the longest ancestry (its top scenario included).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "client/batch/batch_json.h"
#include "client/replay/replay_batch.h"
#include "report/rgb_image.h"

namespace asg::client {

/// Side of one cell's image. [px]
inline constexpr uint32_t kMosaicCellSize = 256;
/// Height of the label band above each cell. [px]
inline constexpr uint32_t kMosaicLabelHeight = 12;
/// Space between cells and around the edge. [px]
inline constexpr uint32_t kMosaicGap = 4;

/// The ancestry of `scenario_number` in the search whose folders are in `source_dir`: its first
/// parent's ancestry, then itself (oldest first). Stops at a scenario whose search.json is
/// missing or has no parents, at a parent without a folder, and at a parent already visited.
/// Throws ReplayError naming a search.json that cannot be read.
std::vector<uint32_t> Ancestry(const std::filesystem::path& source_dir, uint32_t scenario_number);

/// One cell of the mosaic.
struct MosaicCell {
  uint32_t scenario_number = 0;  ///< the source scenario shown
  std::optional<double> regret;  ///< its source regret, when result.json has one
  std::filesystem::path image;   ///< the PNG drawn; empty: a grey tile
  bool operator==(const MosaicCell&) const = default;
};

/// The mosaic's rows (one per top scenario, cells oldest first) and its size.
struct MosaicLayout {
  std::vector<std::vector<MosaicCell>> rows;  ///< each row's cells, left to right
  uint32_t columns = 0;                       ///< cells of the longest row
  uint32_t width = 0;                         ///< [px] see the geometry above
  uint32_t height = 0;                        ///< [px]
};

/// The layout for the replay `runs` (run 0 of each source scenario makes a row, in order).
MosaicLayout LayOutFamilyTrees(const std::filesystem::path& source_dir,
                               const std::filesystem::path& replay_dir,
                               const std::vector<ReplayRun>& runs);

/// The mosaic image of `layout`: cell images scaled to kMosaicCellSize, grey tiles with the
/// scenario number for cells without one, labels in the 5x7 font.
report::RgbImage DrawFamilyTrees(const MosaicLayout& layout);

/// family_trees.json: width, height, columns, cell_size, label_height, gap and rows, each a list
/// of cells {scenario_number, regret (null when none), image (path, "" for a grey tile)}.
Json FamilyTreesJson(const MosaicLayout& layout);

/// Lays out, draws and writes replay_dir/family_trees.png and family_trees.json.
void WriteFamilyTrees(const std::filesystem::path& source_dir,
                      const std::filesystem::path& replay_dir, const std::vector<ReplayRun>& runs);

}  // namespace asg::client
