// The record a strategy keeps of what it proposed and what was told back: candidates by id, the
// regret of each told one, and the running maximum and minimum. Owned by one strategy; not
// thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/random.h"
#include "search/sampling.h"
#include "search/strategy.h"

namespace asg::search {

/// Proposed candidates and their told regrets.
class History {
 public:
  /// Records a new candidate with the next id (1, 2, 3...) and returns it.
  const Candidate& Propose(std::vector<Obstacle> obstacles, std::vector<uint64_t> parents,
                           std::string origin, uint32_t generation);
  /// Records the regrets; throws std::invalid_argument naming an id that was never proposed, is
  /// told a second time, or has a non-finite regret (nothing of the call is recorded then).
  void Tell(const std::vector<Evaluation>& evaluations);

  /// Candidates proposed so far.
  size_t proposed() const { return candidates_.size(); }
  /// The candidate of `id` (1 <= id <= proposed()).
  const Candidate& candidate(uint64_t id) const;
  /// Whether `id` has been told.
  bool told(uint64_t id) const;
  /// The told regret of `id` (told(id) must hold).
  double regret(uint64_t id) const;
  /// Ids of the told candidates, in the order told.
  const std::vector<uint64_t>& told_ids() const { return told_ids_; }
  /// The largest told regret (-infinity before any tell).
  double max_regret() const { return max_regret_; }
  /// The smallest told regret (+infinity before any tell).
  double min_regret() const { return min_regret_; }

 private:
  std::vector<Candidate> candidates_;
  std::vector<std::optional<double>> regrets_;
  std::vector<uint64_t> told_ids_;
  double max_regret_ = -std::numeric_limits<double>::infinity();
  double min_regret_ = std::numeric_limits<double>::infinity();
};

/// A child proposed by ProposeChild and the operators that made it.
struct Child {
  Candidate candidate;                      ///< as proposed (a copy)
  std::vector<MutationOperator> operators;  ///< in the order applied
};

/// Proposes in `history` a child of the told candidate `pick_parent` returns: the parent mutated
/// by `settings` (Mutate), one parent, origin the operators, generation the parent's + 1. A
/// parent whose mutations stay infeasible is given up for another pick, up to 100 picks; nullopt
/// (nothing proposed) when none gives a feasible child.
std::optional<Child> ProposeChild(const SearchSpace& space, const MutationSettings& settings,
                                  core::Random& random,
                                  const std::function<uint64_t()>& pick_parent, History* history);

}  // namespace asg::search
