// Tests for client/worker_registration.h.
#include "client/worker_registration.h"

#include <gtest/gtest.h>

namespace asg::client {
namespace {

TEST(WorkerRegistration, RequestAndResponseRoundTrip) {
  const RegisterWorkerRequest request{17, "secret", 4242, ""};
  EXPECT_EQ(DecodeRegisterWorkerRequest(ToJson(request)), request);
  const RegisterWorkerResponse response{true, "registered as worker 17"};
  EXPECT_EQ(DecodeRegisterWorkerResponse(ToJson(response)), response);
  EXPECT_EQ(ToJson(request).dump(), R"({"pid":4242,"token":"secret","worker_id":17})");
}

TEST(WorkerRegistration, DecodingNamesTheBadField) {
  const auto error_of = [](const protocol::Json& body) {
    try {
      DecodeRegisterWorkerRequest(body);
    } catch (const protocol::DecodeError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of({{"worker_id", 1}, {"token", ""}}), "pid: missing required field");
  EXPECT_EQ(error_of({{"worker_id", 256}, {"token", ""}, {"pid", 1}}),
            "worker_id: 256 is outside [0, 255]");
  EXPECT_EQ(error_of({{"worker_id", 1}, {"token", 5}, {"pid", 1}}),
            "token: expected a string, got 5");
  EXPECT_EQ(error_of({{"worker_id", 1}, {"token", ""}, {"pid", 1}, {"host", "x"}}),
            "host: unknown field");
}

}  // namespace
}  // namespace asg::client

namespace asg::client {
namespace {

TEST(WorkerRegistrationDataEndpointTest, DataEndpointIsOptionalAndRoundTrips) {
  RegisterWorkerRequest request{3, "t", 42, "10.0.0.3:7100"};
  EXPECT_EQ(ToJson(request).at("data_endpoint"), "10.0.0.3:7100");
  EXPECT_EQ(DecodeRegisterWorkerRequest(ToJson(request)), request);
  request.data_endpoint.clear();
  EXPECT_FALSE(ToJson(request).contains("data_endpoint"));
  EXPECT_EQ(DecodeRegisterWorkerRequest(ToJson(request)), request);
  protocol::Json bad = ToJson(request);
  bad["data_endpoint"] = 5;
  EXPECT_THROW(DecodeRegisterWorkerRequest(bad), protocol::DecodeError);
  bad.erase("data_endpoint");
  bad["extra"] = 1;
  EXPECT_THROW(DecodeRegisterWorkerRequest(bad), protocol::DecodeError);
}

}  // namespace
}  // namespace asg::client
