// The failures of a search's told candidates, for a strategy that measures novelty by failures
// (search::FailureDistances): each candidate whose described run (run_outcome.h) was judged a
// failure keeps that run's signature, and two such candidates are as far apart as
// failures::FailureDistance says. The search adds a generation's candidates before it tells
// them, while no consultation runs; a consultation reads them. Not thread-safe otherwise.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "failures/signature.h"
#include "search/strategy.h"

namespace asg::client {

/// Signatures of told candidates by id, and the distances between them.
class CandidateFailures : public search::FailureDistances {
 public:
  /// Records the signature of candidate `id`'s described run.
  void Add(uint64_t id, const failures::Signature& signature);
  /// FailureDistance(a's, b's).distance when both are recorded (a's first), else nullopt.
  std::optional<double> Distance(uint64_t a, uint64_t b) const override;

 private:
  std::map<uint64_t, failures::Signature> signatures_;
};

}  // namespace asg::client
