// BACRE with crowd-weighted parent picks, a nudge operator and an adaptive operator mix.
#include "search/novelty_strategy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/number_format.h"
#include "search/bacre_strategy.h"

namespace asg::search {
namespace {

void CheckUnit(const char* name, double value) { CheckUnitInterval("bacre-novelty", name, value); }

// Mean distance from each obstacle of `from` to its nearest one in `to` (both non-empty).
double MeanNearest(const std::vector<Obstacle>& from, const std::vector<Obstacle>& to) {
  double sum = 0.0;
  for (const Obstacle& a : from) {
    double best = std::numeric_limits<double>::infinity();
    for (const Obstacle& b : to) best = std::min(best, std::hypot(a.x - b.x, a.y - b.y));
    sum += best;
  }
  return sum / from.size();
}

}  // namespace

double LayoutDistance(const std::vector<Obstacle>& a, const std::vector<Obstacle>& b) {
  if (a.empty() && b.empty()) return 0.0;
  if (a.empty() || b.empty()) return std::numeric_limits<double>::infinity();
  return 0.5 * (MeanNearest(a, b) + MeanNearest(b, a));
}

NoveltyStrategy::NoveltyStrategy(const SearchSpace& space, const NoveltySettings& settings,
                                 uint64_t seed)
    : space_(space), settings_(settings), random_(seed) {
  CheckUnit("random_parent_probability", settings_.random_parent_probability);
  CheckUnit("curation_ratio", settings_.curation_ratio);
  CheckUnit("credit_rate", settings_.credit_rate);
  if (!(settings_.operator_floor >= 0.0 && settings_.operator_floor < 0.25)) {
    throw std::invalid_argument("bacre-novelty: operator_floor " +
                                core::FormatNumber(settings_.operator_floor) +
                                " is outside [0, 0.25)");
  }
  for (double w : {settings_.add_probability, settings_.remove_probability,
                   settings_.move_probability, settings_.nudge_probability,
                   settings_.novelty_weight, settings_.novelty_radius, settings_.nudge_sigma}) {
    if (!(w >= 0.0)) {
      throw std::invalid_argument("bacre-novelty: a weight, radius or sigma is negative (" +
                                  core::FormatNumber(w) + ")");
    }
  }
  if (settings_.add_probability + settings_.remove_probability + settings_.move_probability +
          settings_.nudge_probability <=
      0.0) {
    throw std::invalid_argument("bacre-novelty: every operator probability is 0");
  }
  if (settings_.seed_obstacles == 0) settings_.seed_obstacles = MaxObstacles(space_);
  if (settings_.seed_obstacles < std::max(1u, space_.min_obstacles) ||
      settings_.seed_obstacles > MaxObstacles(space_) || settings_.max_tries == 0) {
    throw std::invalid_argument("bacre-novelty: seed_obstacles " +
                                std::to_string(settings_.seed_obstacles) +
                                " is outside the space or max_tries is 0");
  }
}

OperatorWeights NoveltyStrategy::operator_probabilities() const {
  OperatorWeights weights{settings_.add_probability, settings_.remove_probability,
                          settings_.move_probability, settings_.nudge_probability};
  double total_quality = 0.0;
  for (double q : quality_) total_quality += q;
  if (total_quality > 0.0) {
    for (size_t i = 0; i < kOperatorCount; ++i) {
      weights[i] = settings_.operator_floor +
                   (1.0 - kOperatorCount * settings_.operator_floor) * quality_[i] / total_quality;
    }
  }
  double total = 0.0;
  for (double w : weights) total += w;
  for (double& w : weights) w /= total;
  return weights;
}

bool NoveltyStrategy::Crowds(uint64_t a, uint64_t b) const {
  if (settings_.failure_novelty && failure_distances_ != nullptr) {
    if (const std::optional<double> distance = failure_distances_->Distance(a, b)) {
      return *distance <= 1.0;
    }
  }
  return LayoutDistance(history_.candidate(a).obstacles, history_.candidate(b).obstacles) <
         settings_.novelty_radius;
}

uint64_t NoveltyStrategy::SelectParent() {
  const std::vector<uint64_t>& told = history_.told_ids();
  uint64_t parent = 0;
  if (random_.Uniform01() < settings_.random_parent_probability) {
    parent = told[random_.UniformInt(0, static_cast<int64_t>(told.size()) - 1)];
  } else {
    // A curated candidate, weighted against its crowd.
    const std::vector<uint64_t> curated = CuratedIds(history_, settings_.curation_ratio);
    std::vector<double> weights(curated.size());
    double total = 0.0;
    for (size_t i = 0; i < curated.size(); ++i) {
      weights[i] = 1.0 / (1.0 + settings_.novelty_weight * crowd_[curated[i] - 1]);
      total += weights[i];
    }
    double u = random_.Uniform01() * total;
    parent = curated.back();
    for (size_t i = 0; i < curated.size(); ++i) {
      if (u < weights[i]) {
        parent = curated[i];
        break;
      }
      u -= weights[i];
    }
  }
  // The pick crowds every told layout near the parent's.
  ++picks_[parent];
  for (uint64_t id : told) {
    if (Crowds(parent, id)) crowd_[id - 1] += 1.0;
  }
  return parent;
}

std::vector<Candidate> NoveltyStrategy::Ask(size_t count) {
  std::vector<Candidate> out;
  while (out.size() < count) {
    if (seeds_ < settings_.seed_count || history_.told_ids().empty()) {
      auto obstacles =
          SampleFeasible(space_, settings_.seed_obstacles, random_, settings_.max_tries);
      if (!obstacles) throw std::runtime_error("bacre-novelty: no feasible seed found");
      ++seeds_;
      out.push_back(history_.Propose(std::move(*obstacles), {}, "seed", 0));
      operator_of_.push_back(-1);
      crowd_.push_back(0.0);
      continue;
    }
    MutationSettings mutation;
    mutation.weights = operator_probabilities();
    mutation.nudge_sigma = settings_.nudge_sigma;
    mutation.max_tries = settings_.max_tries;
    std::optional<Child> child = ProposeChild(
        space_, mutation, random_, [this] { return SelectParent(); }, &history_);
    if (!child) throw std::runtime_error("bacre-novelty: no feasible child found");
    out.push_back(std::move(child->candidate));
    operator_of_.push_back(static_cast<int>(child->operators.front()));
    crowd_.push_back(0.0);
  }
  return out;
}

void NoveltyStrategy::Tell(const std::vector<Evaluation>& evaluations) {
  history_.Tell(evaluations);
  for (const Evaluation& evaluation : evaluations) {
    const Candidate& candidate = history_.candidate(evaluation.id);
    // The crowd of a new candidate: the picks so far near it.
    double crowd = 0.0;
    for (const auto& [parent, picks] : picks_) {
      if (Crowds(evaluation.id, parent)) crowd += picks;
    }
    crowd_[evaluation.id - 1] = crowd;
    // The operator's quality moves toward this child's gain over its parent.
    const int op = operator_of_[evaluation.id - 1];
    if (op >= 0 && history_.told(candidate.parents.front())) {
      const double gain =
          std::max(0.0, evaluation.regret - history_.regret(candidate.parents.front()));
      quality_[op] += settings_.credit_rate * (gain - quality_[op]);
    }
  }
}

}  // namespace asg::search
