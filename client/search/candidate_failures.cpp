// Failure distances between told candidates from their signatures.
#include "client/search/candidate_failures.h"

#include "failures/distance.h"

namespace asg::client {

void CandidateFailures::Add(uint64_t id, const failures::Signature& signature) {
  signatures_.insert_or_assign(id, signature);
}

std::optional<double> CandidateFailures::Distance(uint64_t a, uint64_t b) const {
  const auto first = signatures_.find(a);
  if (first == signatures_.end()) return std::nullopt;
  const auto second = signatures_.find(b);
  if (second == signatures_.end()) return std::nullopt;
  return failures::FailureDistance(first->second, second->second).distance;
}

}  // namespace asg::client
