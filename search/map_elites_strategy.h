// "map-elites": a quality-diversity search (MAP-Elites, Mouret and Clune 2015) that aims at many
// different failures instead of many copies of the worst one. It keeps an archive of cells over
// the descriptors of descriptors.h (where the described run failed or ended, on a grid_cells x
// grid_cells grid over the landscape; how it ended; the obstacles near the reference path, in
// near_path_bins bins); each cell holds one elite, the told candidate of highest regret placed
// in it (an equal regret keeps the earlier one).
//
// It first proposes seed_count seeds, random feasible candidates of seed_obstacles obstacles
// (0: a number uniform over what the space allows, drawn per seed, so that the seeds already
// differ in clutter; origin "seed"). Every later candidate is a child of an elite picked
// uniformly among the occupied cells, whatever their regret: a cell's elite is the best way
// found so far to fail there, and mutating it looks for a better one there and for neighbouring
// cells. A child is the elite after mutations_per_child mutations (add / remove / move / nudge by
// the weights below, sampling.h), redrawn until feasible; origin the operators, generation the
// parent's + 1. While the archive is empty (before any tell, or when no told candidate was
// described) Ask keeps returning seeds.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/random.h"
#include "json/declare.h"
#include "search/descriptors.h"
#include "search/history.h"
#include "search/sampling.h"
#include "search/strategy.h"

namespace asg::search {

/// Settings of MapElitesStrategy (JSON keys as named; strategy_settings.h).
struct MapElitesSettings {
  uint32_t seed_count = 200;         ///< seeds proposed first
  uint32_t seed_obstacles = 0;       ///< obstacles in each seed; 0: uniform per seed
  uint32_t grid_cells = 8;           ///< cells per side of the grid over the landscape (1..64)
  uint32_t near_path_bins = 4;       ///< bins of obstacles near the reference path (1..16)
  uint32_t mutations_per_child = 2;  ///< mutations in a row per child
  double add_probability = 0.25;     ///< weight of "add"
  double remove_probability = 0.15;  ///< weight of "remove"
  double move_probability = 0.3;     ///< weight of "move"
  double nudge_probability = 0.3;    ///< weight of "nudge"
  double nudge_sigma = 2.0;          ///< [m] standard deviation of a nudge step
  uint32_t max_tries = 200;          ///< infeasible redraws before giving up
};
ASG_DECLARE_JSON(MapElitesSettings);

/// MAP-Elites over the failure point, the outcome and the obstacles near the path
/// ("map-elites"). Not thread-safe; archive() may be read while nothing calls Tell.
class MapElitesStrategy : public Strategy {
 public:
  /// Throws std::invalid_argument for a grid or bin count out of range, negative or all-zero
  /// mutation weights, a negative sigma, seed_obstacles outside the space, or zero counts.
  MapElitesStrategy(const SearchSpace& space, const MapElitesSettings& settings, uint64_t seed);
  /// Seeds, then children of uniformly picked elites (one parent; its generation + 1). Throws
  /// std::runtime_error when neither a seed nor a child can be made feasible.
  std::vector<Candidate> Ask(size_t count) override;
  /// Records the regrets and offers every described candidate to its cell.
  void Tell(const std::vector<Evaluation>& evaluations) override;
  std::string name() const override { return "map-elites"; }
  /// The occupied cells in ascending cell order (x, y, outcome, near_path).
  std::optional<std::vector<ArchiveEntry>> archive() const override;

 private:
  std::optional<std::vector<Obstacle>> Seed();

  SearchSpace space_;
  MapElitesSettings settings_;
  DescriptorGrid grid_;
  MutationSettings mutation_;
  core::Random random_;
  History history_;
  uint32_t seeds_ = 0;                           // seeds proposed
  std::map<ArchiveCell, ArchiveEntry> archive_;  // ordered: picks do not depend on hashing
};

}  // namespace asg::search
