// Deterministic random numbers for batches: per-scenario seeds and a small generator whose
// output is the same on every platform and standard library (no std::*_distribution, whose
// algorithms are implementation-defined).
#pragma once

#include <cstdint>

#include "core/random.h"

namespace asg::client {

using core::Random;
using core::SplitMix64;

/// The seed of scenario `scenario_number` of a batch seeded with `batch_seed`: two splitmix64
/// steps over (batch_seed, scenario_number). Stable across versions and platforms; written into
/// RunScenarioRequest::seed and into the scenario's result so a run can be replayed alone.
uint64_t ScenarioSeed(uint64_t batch_seed, uint32_t scenario_number);

}  // namespace asg::client
