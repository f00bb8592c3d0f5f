// Tests for protocol/token.h.
#include "protocol/token.h"

#include <gtest/gtest.h>

#include <string>

namespace asg::protocol {
namespace {

TEST(TokensEqualTest, EqualTokensMatch) {
  EXPECT_TRUE(TokensEqual("s3cret-token", "s3cret-token"));
  EXPECT_TRUE(TokensEqual("", ""));
}

TEST(TokensEqualTest, ADifferenceAnywhereIsFound) {
  const std::string expected = "abcdefgh";
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string given = expected;
    given[i] ^= 0x01;
    EXPECT_FALSE(TokensEqual(expected, given)) << "difference at byte " << i;
  }
}

TEST(TokensEqualTest, LengthsMustMatchEvenWhenOneIsAPrefix) {
  EXPECT_FALSE(TokensEqual("abcdef", "abc"));
  EXPECT_FALSE(TokensEqual("abc", "abcdef"));
  EXPECT_FALSE(TokensEqual("abc", ""));
  EXPECT_FALSE(TokensEqual("", "abc"));
  // Bytes past the end of the expected token are compared against zero, never skipped.
  EXPECT_FALSE(TokensEqual("abc", std::string("abc\0", 4)));
}

TEST(TokensEqualTest, NulBytesAreComparedLikeAnyOther) {
  EXPECT_TRUE(TokensEqual(std::string("a\0b", 3), std::string("a\0b", 3)));
  EXPECT_FALSE(TokensEqual(std::string("a\0b", 3), std::string("a\0c", 3)));
}

}  // namespace
}  // namespace asg::protocol
