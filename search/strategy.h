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

/// The outcome categories of Evaluation::outcome: 0 for a run that is no failure and touched
/// nothing, 1 + the index of failures::FailureKind (docs/failures.md) otherwise. A strategy reads
/// them as opaque categories below this bound.
inline constexpr uint32_t kOutcomeCount = 8;

/// The score of an evaluated candidate, and what the farm saw of its described run: the run of
/// highest regret among its runs (the first of equals). Plain values; a caller that knows only
/// the regret (a toy objective, an external generator's tells) leaves `described` false.
struct Evaluation {
  uint64_t id = 0;         ///< the candidate's id
  double regret = 0.0;     ///< mean regret over its runs (docs/regret.md); higher is "better"
  bool failure = false;    ///< the stack failed (any termination reason but success) in a run
  bool described = false;  ///< whether the fields below are set: the described run was done
  uint32_t outcome = 0;    ///< how it ended, below kOutcomeCount (see there)
  /// [m] north: its failure point (docs/failures.md); the goal for a run that reached it and is
  /// no failure; else where it ended.
  double x = 0.0;
  double y = 0.0;  ///< [m] west: as x
  /// Non-traversable obstacles within kNearPathRadius of its reference path (descriptors.h).
  uint32_t obstacles_near_path = 0;
  /// The distinct failure (docs/failures.md) of its first run that is a failure at the batch's
  /// regret threshold, as the search's clustering so far numbers them; absent when none is (or
  /// failures are not judged).
  std::optional<uint32_t> failure_id = std::nullopt;
};

/// A cell of a quality-diversity archive (map_elites_strategy.h): one bin per descriptor.
struct ArchiveCell {
  uint32_t x = 0;          ///< column of the point on the landscape grid, 0 at landscape_min
  uint32_t y = 0;          ///< row of the point on the landscape grid, 0 at landscape_min
  uint32_t outcome = 0;    ///< Evaluation::outcome
  uint32_t near_path = 0;  ///< obstacles near the reference path, the last bin holding the rest
  auto operator<=>(const ArchiveCell&) const = default;
};

/// An occupied archive cell and its elite, the told candidate of highest regret placed in it.
struct ArchiveEntry {
  ArchiveCell cell;     ///< the cell
  uint64_t elite = 0;   ///< the elite's candidate id
  double regret = 0.0;  ///< the elite's regret
  bool operator==(const ArchiveEntry&) const = default;
};

/// The failure distances between told candidates, measured outside this module: client/search
/// answers with failures/distance.h on the signatures of the candidates' described runs. The
/// answer for two told candidates never changes; it is read while the strategy is consulted,
/// never at the same time as it grows.
class FailureDistances {
 public:
  virtual ~FailureDistances() = default;
  /// The failure distance between told candidates `a` and `b` (docs/failures.md: at most 1 is
  /// the same failure), or nullopt unless both described runs failed.
  virtual std::optional<double> Distance(uint64_t a, uint64_t b) const = 0;
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
  /// The archive of a quality-diversity strategy, its occupied cells in ascending cell order
  /// after the tells so far; nullopt for a strategy that keeps none.
  virtual std::optional<std::vector<ArchiveEntry>> archive() const { return std::nullopt; }
  /// Hands a strategy that can measure novelty by failures (bacre-novelty) the distances to use,
  /// owned by the caller and outliving the strategy; others ignore it.
  virtual void UseFailureDistances(const FailureDistances* /*distances*/) {}
};

}  // namespace asg::search
