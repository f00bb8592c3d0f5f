#include "failures/distance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/check.h"
#include "failures/approach.h"

namespace asg::failures {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// A candidate pair of causes: its length, then the indices that break ties.
struct CausePair {
  double distance = 0.0;
  size_t a = 0, b = 0;
};

/// The mean distance between the approach points of a and b taken in order.
double MeanApproachDistance(const Signature& a, const Signature& b) {
  ASG_CHECK(a.approach.size() == b.approach.size());
  if (a.approach.empty()) return 0.0;
  double sum = 0.0;
  for (size_t k = 0; k < a.approach.size(); ++k) sum += (a.approach[k] - b.approach[k]).norm();
  return sum / static_cast<double>(a.approach.size());
}

}  // namespace

double UnmatchedCauseWeight(const std::vector<Cause>& a, const std::vector<Cause>& b,
                            double match_radius) {
  std::vector<CausePair> pairs;
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t j = 0; j < b.size(); ++j) {
      const double distance = (a[i].position - b[j].position).norm();
      if (a[i].class_name == b[j].class_name && distance <= match_radius) {
        pairs.push_back({distance, i, j});
      }
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const CausePair& p, const CausePair& q) {
    return std::tie(p.distance, p.a, p.b) < std::tie(q.distance, q.a, q.b);
  });
  std::vector<bool> matched_a(a.size(), false), matched_b(b.size(), false);
  for (const CausePair& pair : pairs) {
    if (matched_a[pair.a] || matched_b[pair.b]) continue;
    matched_a[pair.a] = matched_b[pair.b] = true;
  }
  double unmatched = 0.0;
  for (size_t i = 0; i < a.size(); ++i) unmatched += matched_a[i] ? 0.0 : a[i].weight;
  for (size_t j = 0; j < b.size(); ++j) unmatched += matched_b[j] ? 0.0 : b[j].weight;
  return unmatched;
}

DistanceTerms FailureDistance(const Signature& a, const Signature& b,
                              const DistanceSettings& settings) {
  DistanceTerms terms;
  terms.kind = a.kind == b.kind ? 0.0 : kInfinity;
  terms.location = (a.point - b.point).norm() / settings.location_scale;
  terms.cause =
      UnmatchedCauseWeight(a.causes, b.causes, settings.match_radius) / settings.cause_weight_scale;
  terms.hit = a.hit && b.hit && a.hit->class_name != b.hit->class_name ? kInfinity : 0.0;
  terms.heading = std::abs(WrapDegrees(a.heading - b.heading)) / settings.heading_scale;
  terms.slope = std::abs(a.slope - b.slope) / settings.slope_scale;
  terms.shape = MeanApproachDistance(a, b) / settings.shape_scale;
  terms.distance = std::max({terms.kind, terms.location, terms.cause, terms.hit, terms.heading,
                             terms.slope, terms.shape});
  return terms;
}

bool SameFailure(const Signature& a, const Signature& b, const DistanceSettings& settings) {
  return FailureDistance(a, b, settings).Same();
}

}  // namespace asg::failures
