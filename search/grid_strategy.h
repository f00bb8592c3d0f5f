// A grid sweep: one obstacle of a chosen class visits the points of a regular x-y grid over
// its class's ranges (x_count x y_count points, both ends included, x varying fastest), added to
// a fixed set of obstacles held in every candidate. Grid points that make the candidate
// infeasible are skipped. The sweep ends after the last point: Ask then returns fewer
// candidates than asked (none once done). Tells are recorded and checked but steer nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "search/history.h"
#include "search/strategy.h"

namespace asg::search {

/// Settings of GridStrategy (JSON keys as named, strategy_settings.h; `fixed` is a list of
/// {"class", "x", "y"}).
struct GridSettings {
  std::string actor_class;      ///< the swept obstacle's class (path_name); "": the first class
  uint32_t x_count = 7;         ///< grid points along x (1: the middle of the range)
  uint32_t y_count = 7;         ///< grid points along y (1: the middle of the range)
  std::vector<Obstacle> fixed;  ///< obstacles in every candidate, before the swept one
};

/// The grid sweep ("grid"); deterministic without random numbers. Not thread-safe.
class GridStrategy : public Strategy {
 public:
  /// Throws std::invalid_argument for an unknown class, a zero count, or a fixed obstacle whose
  /// class index is outside the space.
  GridStrategy(const SearchSpace& space, const GridSettings& settings);
  /// The next feasible grid points, origin "grid", generation 0; fewer than `count` at the end.
  std::vector<Candidate> Ask(size_t count) override;
  void Tell(const std::vector<Evaluation>& evaluations) override { history_.Tell(evaluations); }
  std::string name() const override { return "grid"; }
  /// Grid points in all (feasible or not).
  size_t points() const { return static_cast<size_t>(settings_.x_count) * settings_.y_count; }

 private:
  SearchSpace space_;
  GridSettings settings_;
  uint32_t actor_class_ = 0;
  size_t next_point_ = 0;
  History history_;
};

}  // namespace asg::search
