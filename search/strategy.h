// The ask/tell interface of scenario generation: a strategy proposes candidate scenarios (Ask),
// the farm runs them, and their scores come back (Tell); the next proposals use them. A strategy
// is one class behind this interface, made by name with MakeStrategy (strategy_registry.h).
//
// Determinism: a strategy draws every random number from its own generator, seeded once; with
// the same seed and the same sequence of Ask and Tell calls (tells in ascending candidate id) it
// proposes the same candidates. The farm calls it from one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "search/space.h"

namespace asg::search {

/// A proposed scenario: its obstacles (what varies) and where it came from.
struct Candidate {
  uint64_t id = 0;                  ///< 1, 2, 3... in the order proposed; never reused
  std::vector<Obstacle> obstacles;  ///< the scenario's actors, in order
  std::vector<uint64_t> parents;    ///< ids of the candidates it was made from (none: seeded)
  std::string origin;               ///< how it was made: "seed", "random", "add", "remove",
                                    ///< "move", "crossover", ...; for people and search.csv
  uint32_t generation = 0;          ///< 0 for seeds; a child is one past its deepest parent
  bool operator==(const Candidate&) const = default;
};

/// The score of an evaluated candidate.
struct Evaluation {
  uint64_t id = 0;       ///< the candidate's id
  double regret = 0.0;   ///< mean regret over its runs (docs/regret.md); higher is "better"
  bool failure = false;  ///< the stack failed (any termination reason but success) in a run
  /// The distinct failure (docs/failures.md) of its first run that is a failure at the batch's
  /// regret threshold, as the search's clustering so far numbers them; absent when none is (or
  /// failures are not judged).
  std::optional<uint32_t> failure_id;
};

/// A scenario-generation strategy.
class Strategy {
 public:
  virtual ~Strategy() = default;
  /// Proposes `count` new feasible candidates (space.h's Feasible), ids continuing from the last
  /// proposal. May be called again before the earlier candidates are told.
  virtual std::vector<Candidate> Ask(size_t count) = 0;
  /// Scores of candidates proposed earlier, each told once, in ascending id.
  virtual void Tell(const std::vector<Evaluation>& evaluations) = 0;
  /// The strategy's name as MakeStrategy knows it, e.g. "bacre".
  virtual std::string name() const = 0;
};

}  // namespace asg::search
