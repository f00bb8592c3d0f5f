// The archive map (archive_map.h): archive.csv read back, laid out and drawn.
#include "report/archive_map.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include "failures/failure_kind.h"
#include "report/csv_table.h"
#include "report/report.h"
#include "results/files.h"
#include "search/map_elites_strategy.h"
#include "search/strategy_settings.h"

namespace asg::report {

namespace fs = std::filesystem;
using json::Json;

namespace {

static_assert(std::size(failures::kAllFailureKinds) + 1 == search::kOutcomeCount,
              "a panel per outcome of search::Evaluation");

/// Viridis at 0, 1/8, ..., 1 of the scale (matplotlib's table, sampled).
constexpr std::array<Rgb, 9> kViridis = {{{0x44, 0x01, 0x54},
                                          {0x47, 0x2D, 0x7B},
                                          {0x3B, 0x52, 0x8B},
                                          {0x2C, 0x72, 0x8E},
                                          {0x21, 0x91, 0x8C},
                                          {0x28, 0xAE, 0x80},
                                          {0x5E, 0xC9, 0x62},
                                          {0xAD, 0xDC, 0x30},
                                          {0xFD, 0xE7, 0x25}}};

constexpr Rgb kBackground{255, 255, 255};
constexpr Rgb kCellLine{200, 200, 200};  // between landscape cells
constexpr Rgb kPanelLine{80, 80, 80};    // around a panel and the colour bar
constexpr Rgb kNoBin{230, 230, 230};     // a square that is no near-path bin
constexpr Rgb kTick{0, 0, 0};            // the colour bar's ticks
constexpr uint32_t kPanelsPerRow = 4;
constexpr uint32_t kMargin = 10;        // [px] around everything
constexpr uint32_t kLabelBand = 18;     // [px] above each panel, for its label on the page
constexpr uint32_t kPanelGap = 16;      // [px] between panels in a row
constexpr uint32_t kRowGap = 8;         // [px] between rows of panels
constexpr uint32_t kPanelTarget = 192;  // [px] a panel's side, about
constexpr uint32_t kBarHeight = 14;     // [px] the colour bar
constexpr uint32_t kTickLength = 5;     // [px] below the bar
constexpr uint32_t kTickBand = 18;      // [px] under the ticks, for their labels on the page

uint32_t Rows() {
  return static_cast<uint32_t>((ArchiveOutcomes().size() + kPanelsPerRow - 1) / kPanelsPerRow);
}

/// Fills `rect` of `image` with `colour`.
void Fill(RgbImage* image, const PixelRect& rect, Rgb colour) {
  FillRectangle(image, rect.x, rect.y, rect.width, rect.height, colour);
}

/// Draws a 1-pixel outline just inside `rect`.
void Outline(RgbImage* image, const PixelRect& rect, Rgb colour) {
  Fill(image, {rect.x, rect.y, rect.width, 1}, colour);
  Fill(image, {rect.x, rect.y + rect.height - 1, rect.width, 1}, colour);
  Fill(image, {rect.x, rect.y, 1, rect.height}, colour);
  Fill(image, {rect.x + rect.width - 1, rect.y, 1, rect.height}, colour);
}

/// A panel: cell lines, white cells, grey squares that are no bin, the outline.
void DrawPanel(RgbImage* image, const ArchiveMapLayout& layout, size_t outcome) {
  const PixelRect panel = layout.Panel(outcome);
  Fill(image, panel, kCellLine);
  const ArchiveGrid& grid = layout.grid();
  const uint32_t side = layout.squares_per_side();
  for (uint32_t x = 0; x < grid.grid_cells; ++x) {
    for (uint32_t y = 0; y < grid.grid_cells; ++y) {
      for (uint32_t bin = 0; bin < side * side; ++bin) {
        // The square a bin past the last would have: the cell's unused corner.
        const PixelRect square = layout.Square(outcome, x, y, bin);
        Fill(image, square, bin < grid.near_path_bins ? kEmptyCell : kNoBin);
      }
    }
  }
  Outline(image, panel, kPanelLine);
}

/// The colour bar and its ticks.
void DrawScale(RgbImage* image, const ArchiveMapLayout& layout) {
  const PixelRect bar = layout.ScaleBar();
  for (uint32_t x = 0; x < bar.width; ++x) {
    const double regret = kMapRegretMax * (x + 0.5) / bar.width;
    Fill(image, {bar.x + x, bar.y, 1, bar.height}, RegretColour(regret));
  }
  Outline(image, bar, kPanelLine);
  for (double tick = 0.0; tick <= kMapRegretMax + 1e-9; tick += kMapRegretTick) {
    Fill(image, {layout.ScaleColumn(tick), bar.y + bar.height, 1, kTickLength}, kTick);
  }
}

/// Field `column` of `row` (line `line` of `file`) as a whole number up to `max`.
uint64_t WholeField(const Json& row, size_t index, const char* column, uint64_t max,
                    const fs::path& file, size_t line) {
  const Json& value = row.size() > index ? row[index] : Json();
  if (value.is_number() && value.get<double>() >= 0.0 &&
      value.get<double>() == std::floor(value.get<double>()) &&
      value.get<double>() <= static_cast<double>(max)) {
    return static_cast<uint64_t>(value.get<double>());
  }
  throw ReportError(file.string() + ": line " + std::to_string(line) + ": " + column + " is " +
                    value.dump() + ": needs a whole number from 0 to " + std::to_string(max));
}

}  // namespace

const std::vector<std::string>& ArchiveOutcomes() {
  static const std::vector<std::string> outcomes = [] {
    std::vector<std::string> names = {"none"};
    for (const failures::FailureKind kind : failures::kAllFailureKinds) {
      names.emplace_back(failures::FailureKindName(kind));
    }
    return names;
  }();
  return outcomes;
}

Rgb RegretColour(double regret) {
  const double at = std::isnan(regret) ? 0.0 : std::clamp(regret / kMapRegretMax, 0.0, 1.0);
  const double scaled = at * (kViridis.size() - 1);
  const size_t low = std::min(static_cast<size_t>(scaled), kViridis.size() - 2);
  const double f = scaled - low;
  const Rgb a = kViridis[low], b = kViridis[low + 1];
  const auto mix = [f](uint8_t from, uint8_t to) {
    return static_cast<uint8_t>(std::lround(from + (to - from) * f));
  };
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

std::vector<ArchiveRow> ReadArchiveCsv(const fs::path& file) {
  const Json table = ReadCsvTable(file);
  const Json& columns = table["columns"];
  const auto index = [&](const char* name) {
    const auto found = std::find(columns.begin(), columns.end(), Json(name));
    if (found == columns.end()) {
      throw ReportError(file.string() + ": line 1: no column " + name + " in " + columns.dump());
    }
    return static_cast<size_t>(found - columns.begin());
  };
  const size_t generation = index("generation"), cell_x = index("cell_x"), cell_y = index("cell_y"),
               outcome = index("outcome"), near_path = index("near_path"),
               candidate = index("candidate_id"), scenario = index("scenario"),
               regret = index("regret");
  std::vector<ArchiveRow> rows;
  size_t line = 1;
  for (const Json& row : table["rows"]) {
    ++line;
    constexpr uint64_t kMax32 = UINT32_MAX;
    ArchiveRow read;
    read.generation =
        static_cast<uint32_t>(WholeField(row, generation, "generation", kMax32, file, line));
    read.cell_x = static_cast<uint32_t>(WholeField(row, cell_x, "cell_x", kMax32, file, line));
    read.cell_y = static_cast<uint32_t>(WholeField(row, cell_y, "cell_y", kMax32, file, line));
    read.near_path =
        static_cast<uint32_t>(WholeField(row, near_path, "near_path", kMax32, file, line));
    read.candidate_id = WholeField(row, candidate, "candidate_id", 1ull << 53, file, line);
    read.scenario =
        static_cast<uint32_t>(WholeField(row, scenario, "scenario", kMax32, file, line));
    const Json& name = row.size() > outcome ? row[outcome] : Json();
    const Json& value = row.size() > regret ? row[regret] : Json();
    if (!name.is_string() || !value.is_number()) {
      throw ReportError(file.string() + ": line " + std::to_string(line) + ": " +
                        (name.is_string() ? "regret is " + value.dump() + ": needs a number"
                                          : "outcome is " + name.dump() + ": needs a name"));
    }
    read.outcome = name.get<std::string>();
    read.regret = value.get<double>();
    rows.push_back(std::move(read));
  }
  return rows;
}

std::vector<ArchiveRow> LastGeneration(const std::vector<ArchiveRow>& rows) {
  uint32_t last = 0;
  for (const ArchiveRow& row : rows) last = std::max(last, row.generation);
  std::vector<ArchiveRow> kept;
  std::copy_if(rows.begin(), rows.end(), std::back_inserter(kept),
               [last](const ArchiveRow& row) { return row.generation == last; });
  return kept;
}

ArchiveMapLayout::ArchiveMapLayout(const ArchiveGrid& grid) : grid_(grid) {
  squares_per_side_ = static_cast<uint32_t>(std::ceil(std::sqrt(grid.near_path_bins)));
  square_ = std::max<uint32_t>(2, kPanelTarget / (grid.grid_cells * squares_per_side_));
  pitch_ = square_ * squares_per_side_ + 1;
  panel_ = grid.grid_cells * pitch_ + 1;
  width_ = 2 * kMargin + kPanelsPerRow * panel_ + (kPanelsPerRow - 1) * kPanelGap;
  const PixelRect bar = ScaleBar();
  height_ = bar.y + bar.height + kTickLength + kTickBand + kMargin;
}

PixelRect ArchiveMapLayout::Panel(size_t outcome) const {
  const uint32_t column = static_cast<uint32_t>(outcome % kPanelsPerRow);
  const uint32_t row = static_cast<uint32_t>(outcome / kPanelsPerRow);
  return {kMargin + column * (panel_ + kPanelGap),
          kMargin + kLabelBand + row * (kLabelBand + panel_ + kRowGap), panel_, panel_};
}

PixelRect ArchiveMapLayout::Square(size_t outcome, uint32_t cell_x, uint32_t cell_y,
                                   uint32_t bin) const {
  const PixelRect panel = Panel(outcome);
  // North (cell_x) up, west (cell_y) left; a line before every cell.
  const uint32_t left = panel.x + 1 + (grid_.grid_cells - 1 - cell_y) * pitch_;
  const uint32_t top = panel.y + 1 + (grid_.grid_cells - 1 - cell_x) * pitch_;
  return {left + (bin % squares_per_side_) * square_, top + (bin / squares_per_side_) * square_,
          square_, square_};
}

PixelRect ArchiveMapLayout::ScaleBar() const {
  const PixelRect last_row = Panel((Rows() - 1) * kPanelsPerRow);
  return {kMargin, last_row.y + last_row.height + kLabelBand, width_ - 2 * kMargin, kBarHeight};
}

uint32_t ArchiveMapLayout::ScaleColumn(double regret) const {
  const PixelRect bar = ScaleBar();
  const double at = std::clamp(regret / kMapRegretMax, 0.0, 1.0);
  return bar.x + static_cast<uint32_t>(std::lround(at * (bar.width - 1)));
}

RgbImage DrawArchiveMap(const std::vector<ArchiveRow>& rows, const ArchiveMapLayout& layout) {
  RgbImage image = RgbImage::Filled(layout.width(), layout.height(), kBackground);
  const std::vector<std::string>& outcomes = ArchiveOutcomes();
  for (size_t outcome = 0; outcome < outcomes.size(); ++outcome) {
    DrawPanel(&image, layout, outcome);
  }
  const ArchiveGrid& grid = layout.grid();
  for (const ArchiveRow& row : rows) {
    const auto outcome = std::find(outcomes.begin(), outcomes.end(), row.outcome);
    if (outcome == outcomes.end() || row.cell_x >= grid.grid_cells ||
        row.cell_y >= grid.grid_cells || row.near_path >= grid.near_path_bins) {
      throw ReportError("archive cell of scenario " + std::to_string(row.scenario) + " (" +
                        std::to_string(row.cell_x) + ", " + std::to_string(row.cell_y) + ", " +
                        row.outcome + ", " + std::to_string(row.near_path) +
                        ") is not on the grid of " + std::to_string(grid.grid_cells) + " x " +
                        std::to_string(grid.grid_cells) + " cells and " +
                        std::to_string(grid.near_path_bins) + " near-path bins");
    }
    Fill(&image,
         layout.Square(static_cast<size_t>(outcome - outcomes.begin()), row.cell_x, row.cell_y,
                       row.near_path),
         RegretColour(row.regret));
  }
  DrawScale(&image, layout);
  return image;
}

ArchiveGrid ArchiveGridOf(const Json& search_log, const fs::path& file) {
  const Json settings = search_log.is_object() && search_log.contains("strategy_settings")
                            ? search_log["strategy_settings"]
                            : Json();
  try {
    const search::MapElitesSettings decoded =
        search::DecodeSettings<search::MapElitesSettings>("map-elites", settings);
    // The strategy refuses the rest of its range (map_elites_strategy.h); none draws no map.
    if (decoded.grid_cells == 0 || decoded.near_path_bins == 0) {
      throw std::invalid_argument("map-elites grid_cells and near_path_bins must be >= 1");
    }
    return {decoded.grid_cells, decoded.near_path_bins};
  } catch (const std::invalid_argument& error) {
    throw ReportError(file.string() + ": strategy_settings: " + error.what());
  }
}

Json WriteArchiveMap(const fs::path& batch_dir) {
  const fs::path archive = batch_dir / "archive.csv";
  if (!fs::is_regular_file(archive)) return Json();
  const fs::path log = batch_dir / "search.json";
  const ArchiveGrid grid =
      ArchiveGridOf(fs::is_regular_file(log) ? results::ReadJsonFile(log) : Json(), log);
  const std::vector<ArchiveRow> rows = LastGeneration(ReadArchiveCsv(archive));
  const ArchiveMapLayout layout(grid);
  std::error_code error;
  fs::create_directories(batch_dir / "report", error);
  if (error) {
    throw ReportError((batch_dir / "report").string() + ": cannot create: " + error.message());
  }
  results::WriteFileAtomically(batch_dir / "report" / "archive_map.png",
                               EncodePng(DrawArchiveMap(rows, layout)));
  Json panels = Json::array();
  const std::vector<std::string>& outcomes = ArchiveOutcomes();
  for (size_t outcome = 0; outcome < outcomes.size(); ++outcome) {
    const PixelRect panel = layout.Panel(outcome);
    const auto cells = std::count_if(rows.begin(), rows.end(), [&](const ArchiveRow& row) {
      return row.outcome == outcomes[outcome];
    });
    panels.push_back({{"outcome", outcomes[outcome]},
                      {"x", panel.x},
                      {"y", panel.y},
                      {"size", panel.width},
                      {"cells", cells}});
  }
  Json ticks = Json::array();
  for (double tick = 0.0; tick <= kMapRegretMax + 1e-9; tick += kMapRegretTick) {
    ticks.push_back({{"regret", tick}, {"x", layout.ScaleColumn(tick)}});
  }
  const PixelRect bar = layout.ScaleBar();
  return {{"src", "report/archive_map.png"},
          {"width", layout.width()},
          {"height", layout.height()},
          {"generation", rows.empty() ? Json() : Json(rows.front().generation)},
          {"cells", rows.size()},
          {"grid_cells", grid.grid_cells},
          {"near_path_bins", grid.near_path_bins},
          {"panels", std::move(panels)},
          {"scale",
           {{"x", bar.x},
            {"y", bar.y},
            {"width", bar.width},
            {"height", bar.height},
            {"max", kMapRegretMax},
            {"ticks", std::move(ticks)}}}};
}

}  // namespace asg::report
