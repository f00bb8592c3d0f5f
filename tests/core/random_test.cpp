// Tests for core/random.h.
#include "core/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace asg::core {
namespace {

TEST(SplitMix64Test, MatchesReferenceOutput) {
  // First outputs of splitmix64 seeded with 0, as published with the algorithm.
  uint64_t state = 0;
  EXPECT_EQ(SplitMix64(&state), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(SplitMix64(&state), 0x6E789E6AA1B965F4ULL);
}

TEST(RandomTest, SameSeedSameStreamOtherSeedOtherStream) {
  Random a(42);
  Random b(42);
  Random c(43);
  int differences = 0;
  for (int i = 0; i < 100; ++i) {
    const uint64_t value = a.NextU64();
    EXPECT_EQ(value, b.NextU64());
    differences += value != c.NextU64();
  }
  EXPECT_GT(differences, 95);
}

TEST(RandomTest, FirstOutputIsStable) {
  Random random(7);
  EXPECT_EQ(random.NextU64(), 12923355070828475994ULL);
}

TEST(RandomTest, UniformStaysInRangeAndCoversIt) {
  Random random(1);
  double lowest = 1e9;
  double highest = -1e9;
  double sum = 0.0;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) {
    const double value = random.Uniform(-2.0, 6.0);
    ASSERT_GE(value, -2.0);
    ASSERT_LE(value, 6.0);
    lowest = std::min(lowest, value);
    highest = std::max(highest, value);
    sum += value;
  }
  EXPECT_LT(lowest, -1.99);
  EXPECT_GT(highest, 5.99);
  EXPECT_NEAR(sum / kDraws, 2.0, 0.05);
  EXPECT_EQ(random.Uniform(3.5, 3.5), 3.5);
}

TEST(RandomTest, UniformIntHitsEveryValueInclusive) {
  Random random(5);
  std::set<int64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const int64_t value = random.UniformInt(-2, 3);
    ASSERT_GE(value, -2);
    ASSERT_LE(value, 3);
    seen.insert(value);
  }
  EXPECT_EQ(seen.size(), 6u);
  EXPECT_EQ(random.UniformInt(9, 9), 9);
}

}  // namespace
}  // namespace asg::core
