// Test helpers for the search strategies: the research workload's search space and a synthetic
// "regret" that needs no simulator. The toy regret is high only when obstacles cluster near a
// fixed hard spot H = (40, 20) m, 14 m off the straight start-goal line (so clusters there stay
// feasible):
//   toy(c) = (1/3) sum over obstacles exp(-0.5 |o - H|^2 / 3^2) + noise,
// noise uniform in [-0.05, 0.05] from the candidate id (scores are noisy, like 3-run means).
// A random obstacle lands within 5 m of H about 2 % of the time; 0.75 needs about three there.
// For the archive's descriptors (search/descriptors.h) a candidate is told as a run would be: at
// or above 0.75 it "fails" at its obstacle nearest H, as a collision (outcome 1) when that is a
// tree and as stuck (outcome 3) when a bush; below, it "reaches the goal" (outcome 0, the goal's
// point). Its obstacles near the path are those near the straight start-goal segment.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/random.h"
#include "search/descriptors.h"
#include "search/novelty_strategy.h"
#include "search/space.h"
#include "search/strategy.h"

namespace asg::search::testing {

/// The research experiment's space: 6 trees and 6 bushes in [0, 60]^2 m; the reference agent on
/// a grid of `resolution` [m] (coarser than the default for speed).
inline SearchSpace ResearchSpace(double resolution = 1.0) {
  SearchSpace space;
  ActorClassSpace tree;
  tree.path_name = "tree";
  ActorClassSpace bush;
  bush.path_name = "bush";
  space.classes = {tree, bush};
  space.reference.resolution = resolution;
  return space;
}

/// The toy regret of a candidate (see the file comment).
inline double ToyRegret(const Candidate& candidate, uint64_t noise_seed) {
  double closeness = 0.0;
  for (const Obstacle& o : candidate.obstacles) {
    const double d2 = (o.x - 40.0) * (o.x - 40.0) + (o.y - 20.0) * (o.y - 20.0);
    closeness += std::exp(-0.5 * d2 / 9.0);
  }
  uint64_t state = noise_seed * 1000003u + candidate.id;
  const double u = static_cast<double>(core::SplitMix64(&state) >> 11) * 0x1.0p-53;
  return closeness / 3.0 + 0.1 * (u - 0.5);
}

/// A described evaluation of candidate `id` told `regret`, at point (x, y) [m] with `outcome` and
/// `near_path` obstacles near its path.
inline Evaluation DescribedAt(uint64_t id, double regret, double x, double y, uint32_t outcome = 0,
                              uint32_t near_path = 0) {
  Evaluation evaluation;
  evaluation.id = id;
  evaluation.regret = regret;
  evaluation.described = true;
  evaluation.outcome = outcome;
  evaluation.x = x;
  evaluation.y = y;
  evaluation.obstacles_near_path = near_path;
  return evaluation;
}

/// The toy's threshold of a "failure" (the failures' default regret threshold).
inline constexpr double kToyFailureRegret = 0.75;

/// The evaluation of a candidate told as a run would be (see the file comment).
inline Evaluation ToyEvaluation(const Candidate& candidate, uint64_t noise_seed) {
  const SearchSpace space = ResearchSpace();
  Evaluation evaluation;
  evaluation.id = candidate.id;
  evaluation.regret = ToyRegret(candidate, noise_seed);
  evaluation.described = true;
  evaluation.x = space.goal.x();
  evaluation.y = space.goal.y();
  evaluation.obstacles_near_path =
      ObstaclesNearPath(space, candidate.obstacles, {space.start, space.goal});
  if (evaluation.regret < kToyFailureRegret || candidate.obstacles.empty()) return evaluation;
  const Obstacle* nearest = &candidate.obstacles.front();
  for (const Obstacle& o : candidate.obstacles) {
    if (std::hypot(o.x - 40.0, o.y - 20.0) < std::hypot(nearest->x - 40.0, nearest->y - 20.0)) {
      nearest = &o;
    }
  }
  evaluation.failure = true;
  evaluation.outcome = nearest->actor_class == 0 ? 1 : 3;
  evaluation.x = nearest->x;
  evaluation.y = nearest->y;
  return evaluation;
}

/// The toy's failure distances: two candidates told as failures (ToyEvaluation) are as far
/// apart as their points over 3 m (the failures' location scale), infinitely far when their
/// outcomes differ; others have none.
class ToyFailures : public FailureDistances {
 public:
  /// Records `evaluation` when it is a failure.
  void Add(const Evaluation& evaluation) {
    if (evaluation.failure) failed_.insert_or_assign(evaluation.id, evaluation);
  }
  std::optional<double> Distance(uint64_t a, uint64_t b) const override {
    const auto first = failed_.find(a);
    const auto second = failed_.find(b);
    if (first == failed_.end() || second == failed_.end()) return std::nullopt;
    if (first->second.outcome != second->second.outcome) {
      return std::numeric_limits<double>::infinity();
    }
    return std::hypot(first->second.x - second->second.x, first->second.y - second->second.y) / 3.0;
  }

 private:
  std::map<uint64_t, Evaluation> failed_;
};

/// A candidate and its toy evaluation.
struct Scored {
  Candidate candidate;
  double regret = 0.0;    ///< evaluation.regret
  Evaluation evaluation;  ///< what the strategy was told
};

/// Runs `strategy` for `budget` evaluations in batches of `batch` (ask, score, tell), stopping
/// early when Ask returns nothing; returns every scored candidate in id order. With `failures`,
/// the strategy is handed them and they record every evaluation before it is told.
inline std::vector<Scored> RunToy(Strategy& strategy, size_t budget, size_t batch,
                                  uint64_t noise_seed, ToyFailures* failures = nullptr) {
  if (failures != nullptr) strategy.UseFailureDistances(failures);
  std::vector<Scored> out;
  while (out.size() < budget) {
    const std::vector<Candidate> asked = strategy.Ask(std::min(batch, budget - out.size()));
    if (asked.empty()) break;
    std::vector<Evaluation> evaluations;
    for (const Candidate& candidate : asked) {
      evaluations.push_back(ToyEvaluation(candidate, noise_seed));
      out.push_back({candidate, evaluations.back().regret, evaluations.back()});
      if (failures != nullptr) failures->Add(evaluations.back());
    }
    strategy.Tell(evaluations);
  }
  return out;
}

/// Candidates at or above `threshold`.
inline size_t CountAbove(const std::vector<Scored>& scored, double threshold) {
  size_t n = 0;
  for (const Scored& s : scored) n += s.regret >= threshold ? 1 : 0;
  return n;
}

/// Candidates at or above `threshold` whose layout is at least `radius` [m] (LayoutDistance)
/// from every such candidate counted before it, in id order.
inline size_t CountDistinctAbove(const std::vector<Scored>& scored, double threshold,
                                 double radius) {
  std::vector<const Candidate*> kept;
  for (const Scored& s : scored) {
    if (s.regret < threshold) continue;
    bool distinct = true;
    for (const Candidate* other : kept) {
      if (LayoutDistance(s.candidate.obstacles, other->obstacles) < radius) {
        distinct = false;
        break;
      }
    }
    if (distinct) kept.push_back(&s.candidate);
  }
  return kept.size();
}

/// The archive cells on `grid` (search/descriptors.h) of the candidates at or above `threshold`.
inline size_t CountCellsAbove(const std::vector<Scored>& scored, double threshold,
                              const DescriptorGrid& grid = {}) {
  const SearchSpace space = ResearchSpace();
  std::set<ArchiveCell> cells;
  for (const Scored& s : scored) {
    if (s.regret < threshold) continue;
    if (const std::optional<ArchiveCell> cell = CellOf(space, grid, s.evaluation)) {
      cells.insert(*cell);
    }
  }
  return cells.size();
}

}  // namespace asg::search::testing
