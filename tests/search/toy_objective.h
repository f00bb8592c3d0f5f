// Test helpers for the search strategies: the research workload's search space and a synthetic
// "regret" that needs no simulator. The toy regret is high only when obstacles cluster near a
// fixed hard spot H = (40, 20) m, 14 m off the straight start-goal line (so clusters there stay
// feasible):
//   toy(c) = (1/3) sum over obstacles exp(-0.5 |o - H|^2 / 3^2) + noise,
// noise uniform in [-0.05, 0.05] from the candidate id (scores are noisy, like 3-run means).
// A random obstacle lands within 5 m of H about 2 % of the time; 0.75 needs about three there.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/random.h"
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

/// A candidate and its toy regret.
struct Scored {
  Candidate candidate;
  double regret = 0.0;
};

/// Runs `strategy` for `budget` evaluations in batches of `batch` (ask, score, tell), stopping
/// early when Ask returns nothing; returns every scored candidate in id order.
inline std::vector<Scored> RunToy(Strategy& strategy, size_t budget, size_t batch,
                                  uint64_t noise_seed) {
  std::vector<Scored> out;
  while (out.size() < budget) {
    const std::vector<Candidate> asked = strategy.Ask(std::min(batch, budget - out.size()));
    if (asked.empty()) break;
    std::vector<Evaluation> evaluations;
    for (const Candidate& candidate : asked) {
      const double regret = ToyRegret(candidate, noise_seed);
      evaluations.push_back({candidate.id, regret, false});
      out.push_back({candidate, regret});
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

}  // namespace asg::search::testing
