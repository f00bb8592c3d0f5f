// Per-scenario seeds of a batch.
#include "client/batch/batch_seed.h"

namespace asg::client {

uint64_t ScenarioSeed(uint64_t batch_seed, uint32_t scenario_number) {
  // Hash the batch seed first so that nearby batch seeds give unrelated streams, then fold in
  // the scenario number and hash again.
  uint64_t state = batch_seed;
  state = SplitMix64(&state) ^ scenario_number;
  return SplitMix64(&state);
}

}  // namespace asg::client
