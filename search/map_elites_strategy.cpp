// Seeds, then one mutation of a uniformly picked elite per child; told candidates compete for
// their descriptor cell.
#include "search/map_elites_strategy.h"

#include <iterator>
#include <stdexcept>

#include "core/number_format.h"

namespace asg::search {
namespace {

constexpr uint32_t kMaxGridCells = 64;
constexpr uint32_t kMaxNearPathBins = 16;

[[noreturn]] void Reject(const std::string& problem) {
  throw std::invalid_argument("map-elites: " + problem);
}

void CheckCounts(const MapElitesSettings& settings) {
  if (settings.grid_cells < 1 || settings.grid_cells > kMaxGridCells) {
    Reject("grid_cells " + std::to_string(settings.grid_cells) + " is outside 1..64");
  }
  if (settings.near_path_bins < 1 || settings.near_path_bins > kMaxNearPathBins) {
    Reject("near_path_bins " + std::to_string(settings.near_path_bins) + " is outside 1..16");
  }
  if (settings.mutations_per_child == 0 || settings.max_tries == 0) {
    Reject("mutations_per_child and max_tries must be >= 1");
  }
}

void CheckWeights(const MapElitesSettings& settings) {
  const double weights[] = {settings.add_probability, settings.remove_probability,
                            settings.move_probability, settings.nudge_probability,
                            settings.nudge_sigma};
  for (const double w : weights) {
    if (!(w >= 0.0))
      Reject("a mutation probability or nudge_sigma is negative (" + core::FormatNumber(w) + ")");
  }
  if (weights[0] + weights[1] + weights[2] + weights[3] <= 0.0) {
    Reject("every mutation probability is 0");
  }
}

}  // namespace

MapElitesStrategy::MapElitesStrategy(const SearchSpace& space, const MapElitesSettings& settings,
                                     uint64_t seed)
    : space_(space), settings_(settings), random_(seed) {
  CheckCounts(settings_);
  CheckWeights(settings_);
  if (settings_.seed_obstacles != 0 &&
      (settings_.seed_obstacles < std::max(1u, space_.min_obstacles) ||
       settings_.seed_obstacles > MaxObstacles(space_))) {
    Reject("seed_obstacles " + std::to_string(settings_.seed_obstacles) +
           " is outside the space's [" + std::to_string(std::max(1u, space_.min_obstacles)) + ", " +
           std::to_string(MaxObstacles(space_)) + "]");
  }
  grid_.cells = settings_.grid_cells;
  grid_.near_path_bins = settings_.near_path_bins;
  mutation_.weights = {settings_.add_probability, settings_.remove_probability,
                       settings_.move_probability, settings_.nudge_probability};
  mutation_.mutations_per_child = settings_.mutations_per_child;
  mutation_.nudge_sigma = settings_.nudge_sigma;
  mutation_.max_tries = settings_.max_tries;
}

std::optional<std::vector<Obstacle>> MapElitesStrategy::Seed() {
  if (settings_.seed_obstacles != 0) {
    return SampleFeasible(space_, settings_.seed_obstacles, random_, settings_.max_tries);
  }
  // A count drawn per seed; one that stays infeasible is given up for another.
  std::optional<std::vector<Obstacle>> obstacles;
  const int64_t fewest = std::max(1u, space_.min_obstacles);
  for (int attempt = 0; attempt < 100 && !obstacles; ++attempt) {
    const int64_t count = random_.UniformInt(fewest, MaxObstacles(space_));
    obstacles = SampleFeasible(space_, static_cast<size_t>(count), random_, settings_.max_tries);
  }
  return obstacles;
}

std::vector<Candidate> MapElitesStrategy::Ask(size_t count) {
  std::vector<Candidate> out;
  while (out.size() < count) {
    if (seeds_ < settings_.seed_count || archive_.empty()) {
      std::optional<std::vector<Obstacle>> obstacles = Seed();
      if (!obstacles) throw std::runtime_error("map-elites: no feasible seed found");
      ++seeds_;
      out.push_back(history_.Propose(std::move(*obstacles), {}, "seed", 0));
      continue;
    }
    // An elite, uniformly among the occupied cells.
    const auto pick_elite = [this] {
      const int64_t pick = random_.UniformInt(0, static_cast<int64_t>(archive_.size()) - 1);
      return std::next(archive_.begin(), pick)->second.elite;
    };
    std::optional<Child> child = ProposeChild(space_, mutation_, random_, pick_elite, &history_);
    if (!child) throw std::runtime_error("map-elites: no feasible child found");
    out.push_back(std::move(child->candidate));
  }
  return out;
}

void MapElitesStrategy::Tell(const std::vector<Evaluation>& evaluations) {
  history_.Tell(evaluations);
  for (const Evaluation& evaluation : evaluations) {
    const std::optional<ArchiveCell> cell = CellOf(space_, grid_, evaluation);
    if (!cell) continue;
    const auto [entry, placed] =
        archive_.try_emplace(*cell, ArchiveEntry{*cell, evaluation.id, evaluation.regret});
    if (!placed && evaluation.regret > entry->second.regret) {
      entry->second.elite = evaluation.id;
      entry->second.regret = evaluation.regret;
    }
  }
}

std::optional<std::vector<ArchiveEntry>> MapElitesStrategy::archive() const {
  std::vector<ArchiveEntry> entries;
  entries.reserve(archive_.size());
  for (const auto& [cell, entry] : archive_) entries.push_back(entry);
  return entries;
}

}  // namespace asg::search
