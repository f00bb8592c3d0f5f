// The descriptors that place a told candidate in a quality-diversity archive
// (map_elites_strategy.h), chosen so that different failures land in different cells
// (docs/search-strategies.md, "map-elites"): where the described run failed or ended, on a
// square grid over the landscape; how it ended (Evaluation::outcome); and how many obstacles
// crowd the reference path. Pure functions, safe to call from any thread.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <vector>

#include "search/space.h"
#include "search/strategy.h"

namespace asg::search {

/// [m] An obstacle whose centre lies this close to the reference path crowds it: the feasible
/// candidates keep path_clearance (4 m by default) free, and a stack that strays a vehicle
/// length (3.5 m) off the path meets what lies within the next few metres.
inline constexpr double kNearPathRadius = 8.0;

/// How the archive's cells are cut.
struct DescriptorGrid {
  uint32_t cells = 8;  ///< cells per side of the grid over [landscape_min, landscape_max]^2
  uint32_t near_path_bins = 4;  ///< bins of obstacles near the path: 0, 1, ..., the last one
                                ///< holding that many or more; 1: not a descriptor
};

/// The non-traversable obstacles (classes with `obstacle`) of `obstacles` whose centre lies
/// within kNearPathRadius of the polyline through `path` ([m] vertices; one vertex is a point;
/// none: 0).
uint32_t ObstaclesNearPath(const SearchSpace& space, const std::vector<Obstacle>& obstacles,
                           const std::vector<Eigen::Vector2d>& path);

/// The cell of `evaluation` on `grid`: its point's column and row (clamped to the grid, so a run
/// that left the landscape lands on its edge), its outcome and its obstacles near the path
/// (capped at the last bin); nullopt when it is not described or its outcome is not below
/// kOutcomeCount.
std::optional<ArchiveCell> CellOf(const SearchSpace& space, const DescriptorGrid& grid,
                                  const Evaluation& evaluation);

}  // namespace asg::search
