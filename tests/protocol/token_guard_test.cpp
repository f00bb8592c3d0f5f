// Tests for protocol/token_guard.h.
#include "protocol/token_guard.h"

#include <gtest/gtest.h>

#include <string>

namespace asg::protocol {
namespace {

using Clock = TokenGuard::Clock;

TEST(TokenGuardTest, NoTokenAskedForAcceptsAnything) {
  TokenGuard guard;
  EXPECT_EQ(guard.Check("", "whatever", "10.0.0.1:5000"), TokenCheck::kAccepted);
  EXPECT_EQ(guard.addresses(), 0u);
}

TEST(TokenGuardTest, AnAddressIsRefusedAfterTooManyWrongTokensEvenWithTheRightOne) {
  TokenGuard guard;
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < TokenGuard::kMaxFailures; ++i) {
    EXPECT_EQ(
        guard.Check("s3cret", "guess" + std::to_string(i), "10.0.0.1:" + std::to_string(i), start),
        TokenCheck::kWrong);
  }
  // Every port of the address is refused now, the right token too; other addresses are not.
  EXPECT_EQ(guard.Check("s3cret", "s3cret", "10.0.0.1:6000", start), TokenCheck::kTooManyFailures);
  EXPECT_EQ(guard.Check("s3cret", "s3cret", "10.0.0.2:6000", start), TokenCheck::kAccepted);
  EXPECT_EQ(guard.Check("s3cret", "s3cret", "10.0.0.1:6000", start + TokenGuard::kRefusal),
            TokenCheck::kAccepted);
  EXPECT_EQ(TokenRefusal(TokenCheck::kTooManyFailures, "10.0.0.1:6000"),
            "too many wrong tokens from 10.0.0.1; try again in 10 s");
  EXPECT_EQ(TokenRefusal(TokenCheck::kWrong, "10.0.0.1:6000"), "wrong token");
}

TEST(TokenGuardTest, WrongTokensOutsideTheWindowAreForgotten) {
  TokenGuard guard;
  Clock::time_point now = Clock::now();
  for (int i = 0; i < 3 * TokenGuard::kMaxFailures; ++i) {
    EXPECT_EQ(guard.Check("s3cret", "guess", "10.0.0.3:7000", now), TokenCheck::kWrong) << i;
    now += TokenGuard::kFailureWindow / (TokenGuard::kMaxFailures - 1) + std::chrono::seconds(1);
  }
}

TEST(TokenGuardTest, TheAddressesRememberedAreBounded) {
  TokenGuard guard;
  const Clock::time_point now = Clock::now();
  for (size_t i = 0; i < TokenGuard::kMaxAddresses + 100; ++i) {
    guard.Check("s3cret", "guess",
                "10." + std::to_string(i / 65536) + "." + std::to_string(i / 256 % 256) + "." +
                    std::to_string(i % 256) + ":1",
                now);
  }
  EXPECT_EQ(guard.addresses(), TokenGuard::kMaxAddresses);
}

TEST(TokenGuardTest, ALoopbackAddressIsNeverRefusedForItsWrongTokens) {
  TokenGuard guard;
  const Clock::time_point now = Clock::now();
  for (const char* address : {"127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"}) {
    for (int i = 0; i < 3 * TokenGuard::kMaxFailures; ++i) {
      EXPECT_EQ(guard.Check("s3cret", "guess", std::string(address) + ":7000", now),
                TokenCheck::kWrong)
          << address;
    }
    // The farm's own local peers still register with the right token.
    EXPECT_EQ(guard.Check("s3cret", "s3cret", std::string(address) + ":7001", now),
              TokenCheck::kAccepted)
        << address;
  }
  EXPECT_EQ(guard.addresses(), 0u);
  EXPECT_FALSE(IsLoopbackPeerAddress("::ffff:10.0.0.1"));
  EXPECT_FALSE(IsLoopbackPeerAddress("10.127.0.1"));
}

TEST(TokenGuardTest, PeerAddressDropsThePort) {
  EXPECT_EQ(PeerAddress("127.0.0.1:40000"), "127.0.0.1");
  EXPECT_EQ(PeerAddress("::1:40000"), "::1");
  EXPECT_EQ(PeerAddress("unconnected"), "unconnected");
}

}  // namespace
}  // namespace asg::protocol
