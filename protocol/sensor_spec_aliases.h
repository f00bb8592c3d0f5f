// scenario_simulator_v2's sensor configuration fields (simulation_api_schema.proto:
// LidarConfiguration, DetectionSensorConfiguration, OccupancyGridSensorConfiguration,
// ImuSensorConfiguration) read as aliases of the farm's sensor_specs.h fields, converted exactly:
// a duration [s] is the farm's rate 1/duration [Hz]; a lidar marked
// `"units": "scenario_simulator_v2"` gives horizontal_resolution as the angle between rays [rad]
// (the farm's rays per revolution is 2 pi / it, which must be whole) and vertical_angles [rad].
// An alias alone sets the farm's field; both given must agree, else DecodeError names the alias.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "json/fields.h"
#include "protocol/sensor_specs.h"

namespace asg::json {

/// The lidar "units" value that makes horizontal_resolution and vertical_angles radians.
inline constexpr std::string_view kScenarioSimulatorUnits = "scenario_simulator_v2";

/// Reads a lidar's horizontal_resolution [rad between rays] and vertical_angles [rad] into
/// `lidar`'s rays per revolution and degrees; throws DecodeError naming the path when 2 pi /
/// horizontal_resolution is not a whole number of rays.
void ReadRadianLidarAngles(FieldReader& reader, protocol::LidarSpec* lidar);

/// Sets `*rate` [Hz] from `duration_key`'s value [s] when given; with "rate" given too, the two
/// must agree.
void FoldDuration(const FieldReader& reader, std::string_view duration_key,
                  const std::optional<double>& duration, double* rate);

/// Sets `*field` from `alias`'s value (same unit) when given; with `key` given too, the two must
/// agree.
void FoldSame(const FieldReader& reader, std::string_view key, double* field,
              std::string_view alias, const std::optional<double>& value);

/// Sets `*seed` from `alias` (scenario_simulator_v2's random_seed) when given; with "seed"
/// given too, the two must be equal.
void FoldSeed(const FieldReader& reader, std::string_view alias,
              const std::optional<uint32_t>& value, uint64_t* seed);

/// scenario_simulator_v2's use_seed: false (its seed unused, its noise unseeded) is the farm's
/// seed 0, mixed with the run's seed as always; throws when "seed" is also given and not 0.
void CheckUseSeed(const FieldReader& reader, const std::optional<bool>& use_seed, uint64_t seed);

}  // namespace asg::json
