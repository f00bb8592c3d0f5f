#include "terrain/relief.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "core/number_format.h"
#include "terrain/landscape.h"
#include "terrain/noise.h"

namespace asg::terrain {
namespace {

using core::FormatNumber;
using protocol::ReliefFeature;

void RequireFinite(double value, const std::string& field) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument(field + ": " + FormatNumber(value) + " must be finite");
  }
}

void RequirePositive(double value, const std::string& field) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(field + ": " + FormatNumber(value) + " must be > 0");
  }
}

}  // namespace

double HillHeight(const ReliefFeature& hill, double x, double y) {
  const double r = std::hypot(x - hill.x, y - hill.y);
  if (!(r < hill.radius)) return 0.0;
  return hill.height * (0.5 * std::cos(std::numbers::pi * r / hill.radius) + 0.5);
}

double RampHeight(const ReliefFeature& ramp, double x, double y) {
  const double axis_x = ramp.x1 - ramp.x0;
  const double axis_y = ramp.y1 - ramp.y0;
  const double length = std::hypot(axis_x, axis_y);
  if (!(length > 0.0)) return 0.0;
  // u: distance along the axis from the foot; d: distance from the axis line.
  const double px = x - ramp.x0;
  const double py = y - ramp.y0;
  const double u = (px * axis_x + py * axis_y) / length;
  if (u <= 0.0 || u > length) return 0.0;
  const double d = std::abs(px * axis_y - py * axis_x) / length;
  const double half_width = 0.5 * ramp.width;
  double side = 1.0;
  if (d >= half_width + kRampSideFalloff) {
    return 0.0;
  } else if (d > half_width) {
    side = 0.5 * std::cos(std::numbers::pi * (d - half_width) / kRampSideFalloff) + 0.5;
  }
  return ramp.height * (u / length) * side;
}

double NoiseHeight(const ReliefFeature& noise, double x, double y) {
  return FractalNoise(x, y, noise.amplitude, noise.wavelength, noise.octaves, noise.seed);
}

double FeatureHeight(const ReliefFeature& feature, double x, double y) {
  switch (feature.type) {
    case ReliefFeature::Type::kHill:
      return HillHeight(feature, x, y);
    case ReliefFeature::Type::kRamp:
      return RampHeight(feature, x, y);
    case ReliefFeature::Type::kNoise:
      return NoiseHeight(feature, x, y);
  }
  throw std::invalid_argument("relief feature type " +
                              std::to_string(static_cast<int>(feature.type)) + " is unknown");
}

double EvaluateRelief(const std::vector<ReliefFeature>& relief, double x, double y) {
  double height = 0.0;
  for (const ReliefFeature& feature : relief) height += FeatureHeight(feature, x, y);
  return height;
}

void ValidateReliefFeature(const ReliefFeature& feature, const std::string& name) {
  switch (feature.type) {
    case ReliefFeature::Type::kHill:
      RequireFinite(feature.x, name + ".x");
      RequireFinite(feature.y, name + ".y");
      RequirePositive(feature.radius, name + ".radius");
      RequireFinite(feature.height, name + ".height");
      return;
    case ReliefFeature::Type::kRamp:
      RequireFinite(feature.x0, name + ".x0");
      RequireFinite(feature.y0, name + ".y0");
      RequireFinite(feature.x1, name + ".x1");
      RequireFinite(feature.y1, name + ".y1");
      RequirePositive(feature.width, name + ".width");
      RequireFinite(feature.height, name + ".height");
      if (!(std::hypot(feature.x1 - feature.x0, feature.y1 - feature.y0) > 0.0)) {
        throw std::invalid_argument(name + ": ramp foot (x0, y0) and top (x1, y1) coincide at (" +
                                    FormatNumber(feature.x0) + ", " + FormatNumber(feature.y0) +
                                    ")");
      }
      return;
    case ReliefFeature::Type::kNoise:
      RequireFinite(feature.amplitude, name + ".amplitude");
      RequirePositive(feature.wavelength, name + ".wavelength");
      if (feature.octaves < 1 || feature.octaves > kMaxNoiseOctaves) {
        throw std::invalid_argument(name + ".octaves: " + std::to_string(feature.octaves) +
                                    " is outside 1.." + std::to_string(kMaxNoiseOctaves));
      }
      return;
  }
  throw std::invalid_argument(name + ".type: " + std::to_string(static_cast<int>(feature.type)) +
                              " is not hill, ramp or noise");
}

}  // namespace asg::terrain
