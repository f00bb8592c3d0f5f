// The JSON Schema of the worker protocol: every frame between asg-client and asg-worker, and the
// named constants of its messages.
#include "protocol/worker_protocol_schema.h"

#include <string>
#include <string_view>

#include "json/schema.h"
#include "protocol/messages_json.h"
#include "protocol/node_messages.h"
#include "protocol/worker_registration.h"

namespace asg::protocol {
namespace {

/// A frame of `T` as one branch of the envelope; `direction` says who sends it.
template <class T>
Json FrameOf(json::SchemaBuilder& builder, const std::string& direction) {
  return FrameSchema(T::kType, json::SchemaRef<T>(builder), direction);
}

/// The named constants of the worker protocol's messages, by definition name.
Json WorkerProtocolConstants() {
  Json reasons = Json::object();
  for (int code = 0; code <= static_cast<int>(TerminationReason::REASON_VEHICLE_OUT_OF_BOUNDS);
       ++code) {
    reasons[std::string(TerminationReasonName(static_cast<TerminationReason>(code)))] = code;
  }
  return {{"StatusCode",
           {{"OFFLINE", StatusCode::OFFLINE},
            {"ONLINE_AND_READY", StatusCode::ONLINE_AND_READY},
            {"ONLINE_AND_RUNNING", StatusCode::ONLINE_AND_RUNNING}}},
          {"AnalyzeScenarioRequest", std::move(reasons)},
          {"WorkerIssueNotificationRequest",
           {{"ISSUE_ROSBRIDGE_INTERRUPTED",
             WorkerIssueNotificationRequest::ISSUE_ROSBRIDGE_INTERRUPTED},
            {"ISSUE_PROBLEM_CREATING_SCENE",
             WorkerIssueNotificationRequest::ISSUE_PROBLEM_CREATING_SCENE}}}};
}

}  // namespace

Json WorkerProtocolSchema() {
  json::SchemaBuilder builder(json::SchemaBuilder::Mode::kStrict);
  const std::string to_worker = "client to worker";
  const std::string to_client = "worker to client";
  Json frames = Json::array({
      FrameOf<RegisterWorkerRequest>(builder, to_client),
      FrameOf<RegisterWorkerResponse>(builder, to_worker),
      FrameOf<StatusCode>(builder, to_client),
      FrameOf<RunScenarioRequest>(builder, to_worker),
      FrameOf<RunScenarioResponse>(builder, to_client),
      FrameOf<AnalyzeScenarioRequest>(builder, to_client),
      FrameOf<AnalyzeScenarioResponse>(builder, to_worker),
      FrameOf<RunPreemptedRequest>(builder, to_client),
      FrameOf<WorkerIssueNotificationRequest>(builder, to_client),
      FrameOf<WorkerIssueNotificationResponse>(builder, to_worker),
  });
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", "ASG Farm worker protocol: the JSON of one frame between client and worker"},
          {"description",
           "docs/batch-reference.md describes RunScenario and docs/conformance.md compares "
           "every message with auto_scene_gen_msgs. \"constants\" gives the named values of "
           "enumerated fields, by definition."},
          {"oneOf", std::move(frames)},
          {"constants", WorkerProtocolConstants()},
          {"$defs", builder.defs()}};
}

}  // namespace asg::protocol
