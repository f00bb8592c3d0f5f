// Tests for protocol/endpoint.h: listening addresses with host names, and HOST:PORT text.
#include "protocol/endpoint.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace asg::protocol {
namespace {

TEST(EndpointTest, ResolveListenAddressResolvesNamesAndNamesTheOnesItCannot) {
  const HostPort local = ResolveListenAddress("localhost:0");
  EXPECT_EQ(local.host, "127.0.0.1");
  EXPECT_EQ(local.port, 0);
  EXPECT_EQ(ResolveListenAddress("0.0.0.0:7419").host, "0.0.0.0");
  EXPECT_EQ(ResolveListenAddress("[::1]:0").host, "::1");
  try {
    ResolveListenAddress("nosuch.invalid:0");
    ADD_FAILURE() << "an unknown name resolved";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what())
                  .rfind("\"nosuch.invalid:0\": host \"nosuch.invalid\" does not resolve", 0),
              0u)
        << error.what();
  }
  EXPECT_THROW(ResolveListenAddress("localhost:99999"), std::invalid_argument);
}

TEST(EndpointTest, HostPortTextBracketsIpv6) {
  EXPECT_EQ(HostPortText({"127.0.0.1", 7419}), "127.0.0.1:7419");
  EXPECT_EQ(HostPortText({"::1", 0}), "[::1]:0");
}

}  // namespace
}  // namespace asg::protocol
