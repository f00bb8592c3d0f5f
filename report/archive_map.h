// The archive map of a map-elites search (search/map_elites_strategy.h):
// DIR/report/archive_map.png, the archive of the last generation in DIR/archive.csv
// (client/search/archive_log.h), each cell coloured by its elite's regret, shown on the batch page
// with its labels (report/index.js).
//
// Layout (ArchiveMapLayout): one panel per outcome, in the order of ArchiveOutcomes() (none, then
// the failure kinds of docs/failures.md), four to a row. A panel is the landscape grid,
// grid_cells per side, drawn as the report's maps are: north (+x, cell_x) up, west (+y, cell_y)
// left. Each landscape cell is split into s x s squares, s = ceil(sqrt(near_path_bins)), one per
// bin of obstacles near the reference path: bin b at row b / s and column b % s of its cell
// (with the default 4 bins: 0 1 above, 2 3 below). A square holding an elite has the colour of
// its regret (RegretColour); an empty one is white (kEmptyCell); a square that is no bin (when
// near_path_bins is not a square number) is light grey. Grey lines part the landscape cells. A
// colour bar under the panels shows the scale from 0 (left) to kMapRegretMax (right), with a
// tick at every multiple of kMapRegretTick. Written as PNG (rgb_image.h): the same archive gives
// the same bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "json/json.h"
#include "report/rgb_image.h"

namespace asg::report {

/// [1] The regret at the right end of the colour scale; a higher regret has its colour.
inline constexpr double kMapRegretMax = 1.5;
/// [1] The colour bar's tick spacing: 0, 0.375, 0.75 (the default failure threshold), 1.125, 1.5.
inline constexpr double kMapRegretTick = 0.375;

/// The archive's outcomes as archive.csv names them, in panel order: "none" (no failure, nothing
/// touched), then the failure kinds' names in failures::kAllFailureKinds order ("collision",
/// "flip", ... "contact"): search::Evaluation::outcome's order.
const std::vector<std::string>& ArchiveOutcomes();

/// The colour of a square without an elite.
inline constexpr Rgb kEmptyCell{255, 255, 255};

/// The colour of `regret` on the map's scale: matplotlib's viridis (perceptually uniform,
/// colour-blind safe), dark purple #440154 at 0 to yellow #FDE725 at kMapRegretMax, linear in
/// sRGB between nine anchors 1/8 of the scale apart, clamped at both ends (NaN as 0).
Rgb RegretColour(double regret);

/// One row of archive.csv: an occupied cell after a generation and its elite.
struct ArchiveRow {
  uint32_t generation = 0;    ///< the generation just told
  uint32_t cell_x = 0;        ///< column of the landscape grid (north), 0 at its low edge
  uint32_t cell_y = 0;        ///< row of the landscape grid (west), 0 at its low edge
  std::string outcome;        ///< one of ArchiveOutcomes()
  uint32_t near_path = 0;     ///< the obstacles-near-path bin
  uint64_t candidate_id = 0;  ///< the elite
  uint32_t scenario = 0;      ///< the elite's first run
  double regret = 0.0;        ///< [1] the elite's regret
};

/// Reads archive.csv (columns by their header names). Throws ReportError "<file>: line <n>:
/// <column> is <value>: <need>" for a missing column or a value of the wrong kind, and
/// results::ResultError when it cannot be read.
std::vector<ArchiveRow> ReadArchiveCsv(const std::filesystem::path& file);

/// The rows of `rows`' last (highest) generation.
std::vector<ArchiveRow> LastGeneration(const std::vector<ArchiveRow>& rows);

/// How the archive's cells are cut: the map-elites settings of the same names.
struct ArchiveGrid {
  uint32_t grid_cells = 8;      ///< landscape cells per side, >= 1 (the strategy: 1..64)
  uint32_t near_path_bins = 4;  ///< bins of obstacles near the path, >= 1 (the strategy: 1..16)
};

/// A rectangle of the map's image. [px]
struct PixelRect {
  uint32_t x = 0;       ///< left column
  uint32_t y = 0;       ///< top row
  uint32_t width = 0;   ///< columns
  uint32_t height = 0;  ///< rows
};

/// Where each part of the map lies in its image (see above).
class ArchiveMapLayout {
 public:
  /// The layout for `grid` (whose counts must be >= 1: ArchiveGridOf checks them).
  explicit ArchiveMapLayout(const ArchiveGrid& grid);

  uint32_t width() const { return width_; }    ///< [px] of the image
  uint32_t height() const { return height_; }  ///< [px] of the image
  /// The panel of ArchiveOutcomes()[`outcome`], its outer lines included.
  PixelRect Panel(size_t outcome) const;
  /// The square of one archive cell (all indices in range).
  PixelRect Square(size_t outcome, uint32_t cell_x, uint32_t cell_y, uint32_t bin) const;
  /// The colour bar.
  PixelRect ScaleBar() const;
  /// [px] The column of the colour bar that shows `regret` (0..kMapRegretMax).
  uint32_t ScaleColumn(double regret) const;
  /// The grid it lays out.
  const ArchiveGrid& grid() const { return grid_; }
  /// [px] The side of a bin's square.
  uint32_t square() const { return square_; }
  /// The squares along a side of a landscape cell: ceil(sqrt(near_path_bins)).
  uint32_t squares_per_side() const { return squares_per_side_; }

 private:
  ArchiveGrid grid_;
  uint32_t squares_per_side_ = 1;  // s
  uint32_t square_ = 2;            // [px]
  uint32_t pitch_ = 3;             // [px] a landscape cell and one line
  uint32_t panel_ = 0;             // [px] a panel's side
  uint32_t width_ = 0, height_ = 0;
};

/// The map of one generation's archive `rows` on `layout`. Throws ReportError naming the
/// scenario of a row whose outcome is unknown or whose cell or bin lies outside the grid.
RgbImage DrawArchiveMap(const std::vector<ArchiveRow>& rows, const ArchiveMapLayout& layout);

/// The grid of a search log (DIR/search.json's strategy_settings, read as the map-elites
/// strategy reads them: an absent key keeps its default). Throws ReportError naming `file` and
/// the setting when they are not map-elites settings or a count is 0.
ArchiveGrid ArchiveGridOf(const json::Json& search_log, const std::filesystem::path& file);

/// Writes `batch_dir`/report/archive_map.png (atomically) from `batch_dir`/archive.csv's last
/// generation and the grid of `batch_dir`/search.json, and returns what the batch page needs to
/// label it (data.js's "archive": the image's path and size, the generation, the grid, each
/// panel's outcome, place and occupied cells, the colour bar's place and ticks); null, writing
/// nothing, when there is no archive.csv. Throws ReportError or results::ResultError naming the
/// file that cannot be read or written.
json::Json WriteArchiveMap(const std::filesystem::path& batch_dir);

}  // namespace asg::report
