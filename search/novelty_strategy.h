// "bacre-novelty": BACRE (bacre_strategy.h) tuned to find many distinct high-regret scenarios
// rather than many copies of the best one, and to find the first ones sooner. Four changes to
// the released method:
//
// 0. Cluttered seeds. Seeds hold as many obstacles as the space allows (seed_obstacles 0), not
//    one: a stack is hardest to trap in an empty field, and children of a cluttered seed reach
//    hard layouts by removing and moving obstacles rather than by adding them one at a time.
// 1. Novelty pressure on parents. Each parent pick is recorded; a told candidate's "crowd" is
//    the number of picks so far whose parent layout lay within novelty_radius of its own
//    (LayoutDistance). A curated parent is picked with weight 1 / (1 + novelty_weight * crowd),
//    so the search spreads over the curated set instead of hammering one layout. The curated
//    set is wider than BACRE's (curation_ratio 0.15) for the pressure to have room. With
//    failure_novelty (the default) and the failure distances handed to it, two candidates whose
//    described runs both failed crowd each other when they are the same failure
//    (FailureDistances, at most 1) instead of by their layouts.
// 2. A local operator. Besides add / remove / move, "nudge" shifts one obstacle's x and y by a
//    Gaussian step of nudge_sigma: small moves explore the neighbourhood of a hard scene, where
//    other hard scenes are likely.
// 3. Adaptive operator mix. Each operator's quality is a moving average (rate credit_rate) of
//    the regret gains max(0, child - parent) of its own children; an operator's probability is
//    operator_floor + (1 - 4 operator_floor) * its share of the total quality (the initial
//    weights until some child has gained).
//
// The seed count, the random-parent probability and the ask-before-tell behaviour are BACRE's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/random.h"
#include "json/declare.h"
#include "search/history.h"
#include "search/sampling.h"
#include "search/strategy.h"

namespace asg::search {

/// Settings of NoveltyStrategy (JSON keys as named; strategy_settings.h).
struct NoveltySettings {
  uint32_t seed_count = 200;               ///< seeds proposed first
  uint32_t seed_obstacles = 0;             ///< obstacles in each seed; 0: MaxObstacles(space)
  double random_parent_probability = 0.1;  ///< chance of a uniformly random parent
  double curation_ratio = 0.15;            ///< curated: regret >= max - ratio (max - min)
  double novelty_radius = 3.0;             ///< [m] layouts closer than this crowd each other
  double novelty_weight = 1.0;             ///< curated pick weight 1 / (1 + weight * crowd)
  bool failure_novelty = true;             ///< two failures crowd when they are the same failure
  double add_probability = 0.25;           ///< initial weight of "add"
  double remove_probability = 0.15;        ///< initial weight of "remove"
  double move_probability = 0.3;           ///< initial weight of "move"
  double nudge_probability = 0.3;          ///< initial weight of "nudge"
  double nudge_sigma = 2.0;                ///< [m] standard deviation of a nudge step
  double operator_floor = 0.05;            ///< least probability of each operator (< 0.25)
  double credit_rate = 0.05;               ///< moving-average rate of operator quality
  uint32_t max_tries = 200;                ///< infeasible redraws before giving up
};
ASG_DECLARE_JSON(NoveltySettings);

/// [m] how far apart two obstacle layouts are: the mean, over the obstacles of each, of the
/// distance to the nearest obstacle of the other, averaged both ways (classes ignored; 0 for
/// two empty layouts, infinity when exactly one is empty).
double LayoutDistance(const std::vector<Obstacle>& a, const std::vector<Obstacle>& b);

/// BACRE with novelty pressure, a nudge operator and an adaptive operator mix
/// ("bacre-novelty"). Not thread-safe.
class NoveltyStrategy : public Strategy {
 public:
  /// Throws std::invalid_argument for a probability or ratio outside [0, 1], negative weights
  /// or radius, a floor of 0.25 or more, or zero counts.
  NoveltyStrategy(const SearchSpace& space, const NoveltySettings& settings, uint64_t seed);
  /// Seeds, then children (origin the operator; one parent; its generation + 1).
  std::vector<Candidate> Ask(size_t count) override;
  /// Records the regrets, the crowd of each new candidate and its operator's gain.
  void Tell(const std::vector<Evaluation>& evaluations) override;
  std::string name() const override { return "bacre-novelty"; }
  /// Keeps `distances` for failure_novelty (without them, layouts decide alone).
  void UseFailureDistances(const FailureDistances* distances) override {
    failure_distances_ = distances;
  }
  /// The current operator probabilities (add, remove, move, nudge), summing to 1.
  OperatorWeights operator_probabilities() const;

 private:
  uint64_t SelectParent();
  // Whether told candidates `a` and `b` crowd each other.
  bool Crowds(uint64_t a, uint64_t b) const;

  SearchSpace space_;
  NoveltySettings settings_;
  core::Random random_;
  History history_;
  uint32_t seeds_ = 0;
  std::vector<double> crowd_;           // by id - 1, for told candidates
  std::vector<int> operator_of_;        // by id - 1; -1 for seeds
  std::map<uint64_t, uint32_t> picks_;  // parent id -> times picked
  OperatorWeights quality_{0.0, 0.0, 0.0, 0.0};
  const FailureDistances* failure_distances_ = nullptr;  // not owned
};

}  // namespace asg::search
