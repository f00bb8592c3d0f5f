// Tests for protocol/worker_protocol_schema.h.
#include "protocol/worker_protocol_schema.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace asg::protocol {
namespace {

using json::Json;

TEST(WorkerProtocolSchemaTest, EveryFrameOfTheWorkerProtocolIsABranch) {
  const Json schema = WorkerProtocolSchema();
  std::set<std::string> types;
  for (const Json& frame : schema.at("oneOf")) {
    const Json& message = frame.at("properties").at("message");
    const std::string ref = message.at("$ref");
    EXPECT_TRUE(schema.at("$defs").contains(ref.substr(std::string("#/$defs/").size()))) << ref;
    types.insert(frame.at("properties").at("type").at("const").get<std::string>());
  }
  EXPECT_EQ(types,
            (std::set<std::string>{"RegisterWorker", "RegisterWorkerResponse", "StatusCode",
                                   "RunScenario", "RunScenarioResponse", "AnalyzeScenario",
                                   "AnalyzeScenarioResponse", "RunPreempted",
                                   "WorkerIssueNotification", "WorkerIssueNotificationResponse"}));
  EXPECT_TRUE(schema.at("$defs")
                  .at("AnalyzeScenarioRequest")
                  .at("properties")
                  .contains("num_vehicle_control_messages"));
}

TEST(WorkerProtocolSchemaTest, TheConstantsAreTheMessagesNamedValues) {
  const Json constants = WorkerProtocolSchema().at("constants");
  EXPECT_EQ(constants.at("StatusCode"),
            (Json{{"OFFLINE", 0}, {"ONLINE_AND_READY", 1}, {"ONLINE_AND_RUNNING", 2}}));
  const Json& reasons = constants.at("AnalyzeScenarioRequest");
  EXPECT_EQ(reasons.size(), 7u);
  EXPECT_EQ(reasons.at("REASON_SUCCESS"), 0);
  EXPECT_EQ(reasons.at("REASON_VEHICLE_STUCK_TIMEOUT"), 5);
  EXPECT_EQ(reasons.at("REASON_VEHICLE_OUT_OF_BOUNDS"), 6);
  EXPECT_EQ(constants.at("WorkerIssueNotificationRequest"),
            (Json{{"ISSUE_ROSBRIDGE_INTERRUPTED", 0}, {"ISSUE_PROBLEM_CREATING_SCENE", 1}}));
}

}  // namespace
}  // namespace asg::protocol
