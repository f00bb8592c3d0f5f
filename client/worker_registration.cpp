// JSON of the RegisterWorker handshake, decoded as strictly as the AutoSceneGen messages.
#include "client/worker_registration.h"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string_view>

namespace asg::client {

namespace {

using protocol::DecodeError;
using protocol::Json;

/// Throws unless body is an object holding exactly `keys`.
void RequireKeys(const Json& body, std::initializer_list<std::string_view> keys) {
  if (!body.is_object()) throw DecodeError("", "expected an object, got " + body.dump());
  for (std::string_view key : keys) {
    if (!body.contains(key)) throw DecodeError(std::string(key), "missing required field");
  }
  for (const auto& [key, value] : body.items()) {
    bool known = false;
    for (std::string_view expected : keys) known = known || key == expected;
    if (!known) throw DecodeError(key, "unknown field");
  }
}

int64_t ReadInteger(const Json& body, const char* key, int64_t low, int64_t high) {
  const Json& value = body.at(key);
  if (!value.is_number_integer()) {
    throw DecodeError(key, "expected an integer, got " + value.dump());
  }
  const int64_t number = value.get<int64_t>();
  if (number < low || number > high) {
    throw DecodeError(key, std::to_string(number) + " is outside [" + std::to_string(low) + ", " +
                               std::to_string(high) + "]");
  }
  return number;
}

std::string ReadString(const Json& body, const char* key) {
  const Json& value = body.at(key);
  if (!value.is_string()) throw DecodeError(key, "expected a string, got " + value.dump());
  return value.get<std::string>();
}

}  // namespace

Json ToJson(const RegisterWorkerRequest& request) {
  Json body{{"worker_id", request.worker_id}, {"token", request.token}, {"pid", request.pid}};
  if (!request.data_endpoint.empty()) body["data_endpoint"] = request.data_endpoint;
  return body;
}

Json ToJson(const RegisterWorkerResponse& response) {
  return Json{{"accepted", response.accepted}, {"message", response.message}};
}

RegisterWorkerRequest DecodeRegisterWorkerRequest(const Json& body) {
  RegisterWorkerRequest request;
  if (body.is_object() && body.contains("data_endpoint")) {
    request.data_endpoint = ReadString(body, "data_endpoint");
    Json rest = body;
    rest.erase("data_endpoint");
    RequireKeys(rest, {"worker_id", "token", "pid"});
  } else {
    RequireKeys(body, {"worker_id", "token", "pid"});
  }
  request.worker_id = static_cast<uint8_t>(ReadInteger(body, "worker_id", 0, 255));
  request.token = ReadString(body, "token");
  request.pid = ReadInteger(body, "pid", 0, std::numeric_limits<int64_t>::max());
  return request;
}

RegisterWorkerResponse DecodeRegisterWorkerResponse(const Json& body) {
  RequireKeys(body, {"accepted", "message"});
  RegisterWorkerResponse response;
  if (!body.at("accepted").is_boolean()) {
    throw DecodeError("accepted", "expected a boolean, got " + body.at("accepted").dump());
  }
  response.accepted = body.at("accepted").get<bool>();
  response.message = ReadString(body, "message");
  return response;
}

}  // namespace asg::client
