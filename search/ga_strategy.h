// The classic genetic-algorithm baseline of the research method. Every candidate holds the same
// fixed number of obstacles in a fixed class layout (slot i always has the same class, the
// classes dealt round-robin within their max_count). Generation 0 is `population` random
// feasible candidates. Once every member of generation g is told, the top `parents` by regret
// are shuffled and paired into families; each family breeds an equal share of generation g+1
// (no elitism): single-point crossover of the two obstacle lists (slots before the cut from the
// first parent, after it from the second, the slot at the cut a uniform blend of both), then
// each x and y re-sampled uniformly with probability mutation_probability; an infeasible child
// is bred again (after max_tries, a random feasible candidate takes its place, origin "random").
//
// Ask returns only members of the current generation: asked for more than it has left, it
// returns fewer (none while the generation waits for its tells); the caller tells and asks
// again, and the next generation is bred then. After `generations` generations it returns none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/random.h"
#include "json/declare.h"
#include "search/history.h"
#include "search/strategy.h"

namespace asg::search {

/// Settings of GaStrategy (JSON keys as named; strategy_settings.h).
struct GaSettings {
  uint32_t population = 200;          ///< candidates per generation
  uint32_t parents = 20;              ///< the best of a generation that breed (pairs: parents / 2)
  uint32_t generations = 25;          ///< generations in all; 0: no limit
  uint32_t obstacle_count = 12;       ///< obstacles in every candidate (research: 6 or 12)
  double mutation_probability = 0.2;  ///< per coordinate (x, y) of each child's obstacle
  uint32_t max_tries = 200;           ///< infeasible draws before a fallback
};
ASG_DECLARE_JSON(GaSettings);

/// The genetic algorithm ("ga"). Not thread-safe.
class GaStrategy : public Strategy {
 public:
  /// Throws std::invalid_argument for a population or parents below 2, parents above the
  /// population, an obstacle count outside the space, or a probability outside [0, 1].
  GaStrategy(const SearchSpace& space, const GaSettings& settings, uint64_t seed);
  /// Members of the current generation (origin "random" in generation 0, else "crossover" with
  /// two parents; Candidate::generation is the GA generation, also for a "random" fallback);
  /// fewer than `count` as the class comment says.
  std::vector<Candidate> Ask(size_t count) override;
  void Tell(const std::vector<Evaluation>& evaluations) override { history_.Tell(evaluations); }
  std::string name() const override { return "ga"; }

 private:
  struct Pending {
    std::vector<Obstacle> obstacles;
    std::vector<uint64_t> parents;
    std::string origin;
  };
  std::vector<Obstacle> RandomMember();
  void Breed();

  SearchSpace space_;
  GaSettings settings_;
  core::Random random_;
  History history_;
  std::vector<uint32_t> layout_;          // class of each slot
  uint32_t generation_ = 0;               // of the members in pending_
  std::vector<Pending> pending_;          // the current generation
  size_t next_pending_ = 0;               // members of pending_ proposed so far
  std::vector<uint64_t> generation_ids_;  // ids of the proposed members
};

}  // namespace asg::search
