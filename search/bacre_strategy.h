// BACRE, the search of the research method as released: an evolutionary search that mutates
// high-regret scenarios.
//
// It first proposes seed_count seeds, random feasible candidates of seed_obstacles obstacles
// each (origin "seed"). Every later candidate is a child of one told candidate: with
// probability random_parent_probability the parent is a uniformly random told candidate,
// otherwise a uniform pick among the "curated" ones, whose regret is >= max - curation_ratio *
// (max - min) over all told regrets. The child is the parent after mutations_per_child
// mutations (add an obstacle, remove one, re-sample one coordinate: sampling.h), redrawn until
// feasible. Children come from whatever has been told when they are asked for: before any tell
// Ask keeps returning seeds, even beyond seed_count.
//
// The annealing variant moves the random-parent probability and the curation ratio linearly
// from their annealing_* start values to the plain settings over the first
// annealing_iterations children.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/random.h"
#include "json/declare.h"
#include "search/history.h"
#include "search/sampling.h"
#include "search/strategy.h"

namespace asg::search {

/// Settings of BacreStrategy (JSON keys as named; strategy_settings.h); defaults are the released
/// method's.
struct BacreSettings {
  uint32_t seed_count = 200;                         ///< seeds proposed first
  uint32_t seed_obstacles = 1;                       ///< obstacles in each seed
  double random_parent_probability = 0.1;            ///< chance of a uniformly random parent
  double curation_ratio = 0.05;                      ///< curated: regret >= max - ratio (max-min)
  bool annealing = false;                            ///< anneal the two values above
  double annealing_random_parent_probability = 0.5;  ///< annealing: value at the first child
  double annealing_curation_ratio = 0.5;             ///< annealing: value at the first child
  uint32_t annealing_iterations = 1000;              ///< annealing: children to reach the end
  uint32_t mutations_per_child = 1;                  ///< mutations in a row (variant: 3)
  double add_probability = 0.3;                      ///< weight of "add"
  double remove_probability = 0.3;                   ///< weight of "remove"
  double move_probability = 0.4;                     ///< weight of "move"
  uint32_t max_tries = 200;                          ///< infeasible redraws before giving up
};
ASG_DECLARE_JSON(BacreSettings);

/// Throws std::invalid_argument "<strategy>: <name> <value> is outside [0, 1]" unless `value`
/// lies in [0, 1].
void CheckUnitInterval(const std::string& strategy, const char* name, double value);

/// Told candidates whose regret is >= max - ratio * (max - min), in the order told.
std::vector<uint64_t> CuratedIds(const History& history, double ratio);

/// The released BACRE search ("bacre"). Not thread-safe.
class BacreStrategy : public Strategy {
 public:
  /// Throws std::invalid_argument for a probability or ratio outside [0, 1], zero counts, or
  /// all mutation weights 0.
  BacreStrategy(const SearchSpace& space, const BacreSettings& settings, uint64_t seed);
  /// Seeds, then children (origin the operators, e.g. "move"; one parent; its generation + 1).
  /// Throws std::runtime_error when neither a seed nor a child can be made feasible.
  std::vector<Candidate> Ask(size_t count) override;
  void Tell(const std::vector<Evaluation>& evaluations) override { history_.Tell(evaluations); }
  std::string name() const override { return "bacre"; }

 private:
  uint64_t SelectParent();

  SearchSpace space_;
  BacreSettings settings_;
  MutationSettings mutation_;
  core::Random random_;
  History history_;
  uint32_t seeds_ = 0;     // seeds proposed
  uint64_t children_ = 0;  // children proposed
};

}  // namespace asg::search
