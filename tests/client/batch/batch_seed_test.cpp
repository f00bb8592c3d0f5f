// Tests for client/batch/batch_seed.h.
#include "client/batch/batch_seed.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace asg::client {
namespace {

TEST(ScenarioSeedTest, ValuesAreStable) {
  // Computed once from this implementation; a change here changes every batch's scenarios.
  EXPECT_EQ(ScenarioSeed(7, 1), 4414019431610648415ULL);
  EXPECT_EQ(ScenarioSeed(7, 2), 5090977316425868581ULL);
}

TEST(ScenarioSeedTest, DiffersPerScenarioAndPerBatch) {
  std::set<uint64_t> seeds;
  for (uint64_t batch : {0u, 1u, 7u}) {
    for (uint32_t number = 1; number <= 1000; ++number) seeds.insert(ScenarioSeed(batch, number));
  }
  EXPECT_EQ(seeds.size(), 3000u);
}

}  // namespace
}  // namespace asg::client
