// Tests for protocol/worker_registration.h.
#include "protocol/worker_registration.h"

#include <gtest/gtest.h>

#include <string>

namespace asg::protocol {
namespace {

std::string ErrorOf(const Json& body) {
  try {
    DecodeMessage<RegisterWorkerRequest>(body);
  } catch (const DecodeError& error) {
    return error.what();
  }
  return "no error";
}

TEST(WorkerRegistration, RequestAndResponseRoundTripInDeclarationOrder) {
  const RegisterWorkerRequest request{17, "secret", 4242, "10.0.0.3:7100"};
  EXPECT_EQ(DecodeMessage<RegisterWorkerRequest>(Json(request)), request);
  EXPECT_EQ(Json(request).dump(),
            R"({"worker_id":17,"token":"secret","pid":4242,"data_endpoint":"10.0.0.3:7100"})");
  const RegisterWorkerResponse response{true, "registered as worker 17"};
  EXPECT_EQ(DecodeMessage<RegisterWorkerResponse>(Json(response)), response);
  EXPECT_EQ(Json(response).dump(), R"({"accepted":true,"message":"registered as worker 17"})");
}

TEST(WorkerRegistration, DataEndpointIsOptional) {
  const Json body = {{"worker_id", 3}, {"token", "t"}, {"pid", 42}};
  const auto request = DecodeMessage<RegisterWorkerRequest>(body);
  EXPECT_EQ(request.worker_id, 3);
  EXPECT_EQ(request.data_endpoint, "");
}

TEST(WorkerRegistration, DecodingNamesTheBadFieldAndValue) {
  EXPECT_EQ(ErrorOf({{"worker_id", 1}, {"token", ""}}), "pid: missing required field");
  EXPECT_EQ(
      DecodeMessage<RegisterWorkerRequest>(Json{{"worker_id", 65535}, {"token", ""}, {"pid", 1}})
          .worker_id,
      65535);
  const std::string range = ErrorOf({{"worker_id", 65536}, {"token", ""}, {"pid", 1}});
  EXPECT_TRUE(range.starts_with("worker_id: ")) << range;
  EXPECT_NE(range.find("65536"), std::string::npos) << range;
  const std::string type = ErrorOf({{"worker_id", 1}, {"token", 5}, {"pid", 1}});
  EXPECT_TRUE(type.starts_with("token: ")) << type;
  EXPECT_NE(type.find("5"), std::string::npos) << type;
  const std::string unknown = ErrorOf({{"worker_id", 1}, {"token", ""}, {"pid", 1}, {"host", 1}});
  EXPECT_TRUE(unknown.starts_with("host: ")) << unknown;
  const std::string negative = ErrorOf({{"worker_id", 1}, {"token", ""}, {"pid", -4}});
  EXPECT_TRUE(negative.starts_with("pid: ")) << negative;
  EXPECT_NE(ErrorOf({{"worker_id", 1}, {"token", ""}, {"pid", 1}, {"data_endpoint", 5}}),
            "no error");
}

}  // namespace
}  // namespace asg::protocol
