// Candidates by id and their regrets.
#include "search/history.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_set>

#include "core/check.h"
#include "core/number_format.h"

namespace asg::search {

const Candidate& History::Propose(std::vector<Obstacle> obstacles, std::vector<uint64_t> parents,
                                  std::string origin, uint32_t generation) {
  Candidate candidate;
  candidate.id = candidates_.size() + 1;
  candidate.obstacles = std::move(obstacles);
  candidate.parents = std::move(parents);
  candidate.origin = std::move(origin);
  candidate.generation = generation;
  candidates_.push_back(std::move(candidate));
  regrets_.emplace_back();
  return candidates_.back();
}

void History::Tell(const std::vector<Evaluation>& evaluations) {
  std::unordered_set<uint64_t> seen;
  for (const Evaluation& evaluation : evaluations) {
    if (evaluation.id == 0 || evaluation.id > candidates_.size()) {
      throw std::invalid_argument(
          "told candidate id " + std::to_string(evaluation.id) +
          " was never proposed (proposed: " + std::to_string(candidates_.size()) + ")");
    }
    if (!std::isfinite(evaluation.regret)) {
      throw std::invalid_argument("candidate id " + std::to_string(evaluation.id) +
                                  " is told a regret of " + core::FormatNumber(evaluation.regret) +
                                  " (must be finite)");
    }
    if (regrets_[evaluation.id - 1] || !seen.insert(evaluation.id).second) {
      throw std::invalid_argument("candidate id " + std::to_string(evaluation.id) +
                                  " is told a second time");
    }
  }
  for (const Evaluation& evaluation : evaluations) {
    regrets_[evaluation.id - 1] = evaluation.regret;
    told_ids_.push_back(evaluation.id);
    max_regret_ = std::max(max_regret_, evaluation.regret);
    min_regret_ = std::min(min_regret_, evaluation.regret);
  }
}

const Candidate& History::candidate(uint64_t id) const {
  ASG_CHECK(id >= 1 && id <= candidates_.size());
  return candidates_[id - 1];
}

bool History::told(uint64_t id) const {
  return id >= 1 && id <= regrets_.size() && regrets_[id - 1].has_value();
}

double History::regret(uint64_t id) const {
  ASG_CHECK(told(id));
  return *regrets_[id - 1];
}

std::optional<Child> ProposeChild(const SearchSpace& space, const MutationSettings& settings,
                                  core::Random& random,
                                  const std::function<uint64_t()>& pick_parent, History* history) {
  std::optional<Mutant> mutant;
  uint64_t parent = 0;
  for (int attempt = 0; attempt < 100 && !mutant; ++attempt) {
    parent = pick_parent();
    mutant = Mutate(space, history->candidate(parent).obstacles, settings, random);
  }
  if (!mutant) return std::nullopt;
  const uint32_t generation = history->candidate(parent).generation + 1;
  Child child{history->Propose(std::move(mutant->obstacles), {parent}, mutant->origin, generation),
              std::move(mutant->operators)};
  return child;
}

}  // namespace asg::search
