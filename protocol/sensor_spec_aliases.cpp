// The scenario_simulator_v2 aliases of the sensor fields: each is converted, then compared with
// the farm's field when both are given.
#include "protocol/sensor_spec_aliases.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/number_format.h"

namespace asg::json {
namespace {

using core::FormatNumber;

/// Whether two values of one field are the same up to floating-point rounding.
bool Agree(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({std::abs(a), std::abs(b), 1.0});
}

/// Stores `converted` in `*field`, or, when `key` is given too, checks that the two agree.
void Fold(const FieldReader& reader, std::string_view key, double* field, std::string_view alias,
          double given, double converted) {
  if (!reader.Has(key)) {
    *field = converted;
    return;
  }
  if (Agree(*field, converted)) return;
  std::string meaning = FormatNumber(given);
  if (converted != given) meaning += " (" + std::string(key) + " " + FormatNumber(converted) + ")";
  throw DecodeError(reader.Child(alias), meaning + " disagrees with " + std::string(key) + " = " +
                                             FormatNumber(*field) + "; give one of them");
}

}  // namespace

void ReadRadianLidarAngles(FieldReader& reader, protocol::LidarSpec* lidar) {
  constexpr double kPi = std::numbers::pi;
  std::optional<double> step;      // [rad] between neighbouring rays
  std::vector<double> angles_rad;  // [rad] beam elevations
  reader.Optional("horizontal_resolution", step, kPositive);
  reader.Optional("vertical_angles", angles_rad, Between(-kPi / 2, kPi / 2));
  if (step) {
    const double rays = 2 * kPi / *step;
    const double whole = std::round(rays);
    if (whole < 1 || whole > 4294967295.0 || std::abs(rays - whole) > 1e-6 * whole) {
      throw DecodeError(reader.Child("horizontal_resolution"),
                        FormatNumber(*step) + " rad gives " + FormatNumber(rays) +
                            " rays per revolution, not a whole number");
    }
    lidar->horizontal_resolution = static_cast<uint32_t>(whole);
  }
  if (reader.Has("vertical_angles")) {
    lidar->vertical_angles.clear();
    for (const double angle : angles_rad) lidar->vertical_angles.push_back(angle * 180.0 / kPi);
  }
}

void FoldDuration(const FieldReader& reader, std::string_view duration_key,
                  const std::optional<double>& duration, double* rate) {
  if (duration) Fold(reader, "rate", rate, duration_key, *duration, 1.0 / *duration);
}

void FoldSame(const FieldReader& reader, std::string_view key, double* field,
              std::string_view alias, const std::optional<double>& value) {
  if (value) Fold(reader, key, field, alias, *value, *value);
}

void FoldSeed(const FieldReader& reader, std::string_view alias,
              const std::optional<uint32_t>& value, uint64_t* seed) {
  if (!value) return;
  if (reader.Has("seed") && *seed != *value) {
    throw DecodeError(reader.Child(alias), std::to_string(*value) + " disagrees with seed = " +
                                               std::to_string(*seed) + "; give one of them");
  }
  *seed = *value;
}

void CheckUseSeed(const FieldReader& reader, const std::optional<bool>& use_seed, uint64_t seed) {
  if (use_seed == false && seed != 0) {
    throw DecodeError(reader.Child("use_seed"),
                      "false disagrees with seed = " + std::to_string(seed) +
                          " (use_seed false leaves the seed unused); give one of them");
  }
}

}  // namespace asg::json
