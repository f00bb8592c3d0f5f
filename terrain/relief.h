// Relief features of a landscape: their heights and the validation of their fields.
//
// hill:  height * (0.5 cos(pi r / radius) + 0.5) for r < radius, 0 beyond, r being the distance to
//        (x, y). A negative height digs a pit.
// ramp:  a wedge. With p0 = (x0, y0) the foot, p1 = (x1, y1) the top, L = |p1 - p0|, u the
//        distance along the axis p0 -> p1 and d the distance across it, the height is
//        height * (u / L) * s(d) for 0 < u <= L and 0 for u <= 0 or u > L: the ground rises
//        linearly from the foot to the top edge and drops back to 0 past it (the top edge is a
//        cliff; put a hill or a second ramp beyond it for a plateau). Across the axis,
//        s(d) = 1 for d <= width / 2, 0.5 cos(pi (d - width / 2) / 2) + 0.5 over the next 2 m
//        (kRampSideFalloff), and 0 beyond.
// noise: FractalNoise (terrain/noise.h) with the feature's amplitude, wavelength, octaves, seed.
#pragma once

#include <string>
#include <vector>

#include "protocol/messages.h"

namespace asg::terrain {

/// [m] width of the smooth cosine falloff on each side of a ramp's band.
inline constexpr double kRampSideFalloff = 2.0;
/// Largest number of octaves a noise feature may have.
inline constexpr int kMaxNoiseOctaves = 12;

/// [m] height of a hill feature at (x, y) [m]. Pure, thread-safe.
double HillHeight(const protocol::ReliefFeature& hill, double x, double y);
/// [m] height of a ramp feature at (x, y) [m]; 0 when its foot and top coincide. Pure.
double RampHeight(const protocol::ReliefFeature& ramp, double x, double y);
/// [m] height of a noise feature at (x, y) [m]. Pure, thread-safe.
double NoiseHeight(const protocol::ReliefFeature& noise, double x, double y);
/// [m] height of any feature at (x, y) [m], dispatching on its type. Pure, thread-safe.
double FeatureHeight(const protocol::ReliefFeature& feature, double x, double y);

/// Throws std::invalid_argument naming `name` + the field and its value when a field used by the
/// feature's type is not finite or out of range (radius, width, wavelength <= 0; octaves outside
/// 1..kMaxNoiseOctaves; a ramp whose foot and top coincide). `name` is e.g. "landscape.relief[2]".
void ValidateReliefFeature(const protocol::ReliefFeature& feature, const std::string& name);

}  // namespace asg::terrain
