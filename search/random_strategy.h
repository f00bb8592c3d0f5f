// The random-sampling baseline of the research method: every candidate is an independent random
// feasible scenario whose number of obstacles is uniform in [min, max] (the research baseline:
// 1 to 12). Tells are recorded and checked but do not steer anything.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/random.h"
#include "json/declare.h"
#include "search/history.h"
#include "search/strategy.h"

namespace asg::search {

/// Settings of RandomStrategy (JSON keys as named; strategy_settings.h).
struct RandomSettings {
  uint32_t min_obstacles = 0;  ///< fewest obstacles; 0: the space's min_obstacles
  uint32_t max_obstacles = 0;  ///< most obstacles; 0: the sum of the classes' max_count
  uint32_t max_tries = 200;    ///< infeasible draws before another count is drawn
};
ASG_DECLARE_JSON(RandomSettings);

/// Independent random feasible candidates ("random"). Not thread-safe.
class RandomStrategy : public Strategy {
 public:
  /// Throws std::invalid_argument when the obstacle range is empty or outside the space's.
  RandomStrategy(const SearchSpace& space, const RandomSettings& settings, uint64_t seed);
  /// Candidates with origin "random", generation 0, no parents. Throws std::runtime_error when
  /// no feasible candidate is found in 100 counts x max_tries draws.
  std::vector<Candidate> Ask(size_t count) override;
  void Tell(const std::vector<Evaluation>& evaluations) override { history_.Tell(evaluations); }
  std::string name() const override { return "random"; }

 private:
  SearchSpace space_;
  RandomSettings settings_;
  core::Random random_;
  History history_;
};

}  // namespace asg::search
