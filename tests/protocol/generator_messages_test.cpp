// Tests for protocol/generator_messages.h.
#include "protocol/generator_messages.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/messages_json.h"

namespace asg::protocol {
namespace {

template <class T>
T RoundTrip(const T& value) {
  return DecodeMessage<T>(Json(value));
}

template <class T>
std::string DecodeErrorText(const Json& j) {
  try {
    DecodeMessage<T>(j);
  } catch (const DecodeError& error) {
    return error.what();
  }
  return "";
}

Proposal SampleProposal() {
  Proposal proposal;
  proposal.obstacles = {{"tree", 12.5, 30.0, 90.0, 1.0}, {"rock", 40.0, 41.25, 0.0, 2.5}};
  proposal.parents = {3, 17};
  proposal.origin = "mutation";
  return proposal;
}

TEST(GeneratorMessagesTest, EveryMessageRoundTrips) {
  EXPECT_EQ(RoundTrip(GeneratorRegistration{"my-generator", "s3cret"}),
            (GeneratorRegistration{"my-generator", "s3cret"}));
  GeneratorRegistrationResponse registered;
  registered.received = true;
  registered.search = {{"seed", 7}, {"budget_scenarios", 300}, {"settings", {{"k", "v"}}}};
  EXPECT_EQ(RoundTrip(registered), registered);
  EXPECT_EQ(RoundTrip(SampleProposal()), SampleProposal());
  const ProposeScenariosRequest ask{50, 101, 2, {{0, "infeasible"}, {4, "outside the space"}}};
  EXPECT_EQ(RoundTrip(ask), ask);
  ProposeScenariosResponse proposals;
  proposals.scenarios = {SampleProposal(), Proposal{}};
  EXPECT_EQ(RoundTrip(proposals), proposals);
  ScenarioResultsRequest tell;
  tell.results = {{101, 0.75, true, 2, SampleProposal()},
                  {102, 0.0, false, std::nullopt, Proposal{}}};
  EXPECT_EQ(RoundTrip(tell), tell);
  EXPECT_EQ(RoundTrip(ScenarioResultsResponse{true}), ScenarioResultsResponse{true});
  EXPECT_EQ(RoundTrip(SearchEndedMessage{"search finished"}),
            SearchEndedMessage{"search finished"});
}

TEST(GeneratorMessagesTest, EncodesFieldsInDeclarationOrder) {
  const Json j = SampleProposal().obstacles[0];
  std::string keys;
  for (const auto& [key, value] : j.items()) keys += key + " ";
  EXPECT_EQ(keys, "path_name x y yaw scale ");
  EXPECT_EQ(Json(ProposeScenariosRequest{}).dump(),
            R"({"count":0,"first_id":0,"round":0,"rejected":[]})");
  // A candidate without a distinct failure says so: failure_id is always there, null.
  EXPECT_EQ(Json(ScenarioScore{7, 0.5, false, std::nullopt, Proposal{}}).dump(),
            R"({"id":7,"regret":0.5,"failure":false,"failure_id":null,)"
            R"("scenario":{"obstacles":[],"parents":[],"origin":""}})");
  EXPECT_EQ(Json(ScenarioScore{7, 1.5, true, 3, Proposal{}})["failure_id"], 3);
}

TEST(GeneratorMessagesTest, OptionalFieldsTakeTheirDefaults) {
  const Proposal proposal =
      DecodeMessage<Proposal>(Json::parse(R"({"obstacles": [{"path_name": "tree", "x": 1,
                                                              "y": 2}]})"));
  ASSERT_EQ(proposal.obstacles.size(), 1u);
  EXPECT_EQ(proposal.obstacles[0].yaw, 0.0);
  EXPECT_EQ(proposal.obstacles[0].scale, 1.0);
  EXPECT_TRUE(proposal.parents.empty());
  EXPECT_EQ(proposal.origin, "");
  EXPECT_EQ(DecodeMessage<GeneratorRegistration>(Json::parse(R"({"generator_name": "g"})")).token,
            "");
}

TEST(GeneratorMessagesTest, BadProposalsNameThePathAndTheValue) {
  EXPECT_EQ(DecodeErrorText<Proposal>(Json::parse(
                R"({"obstacles": [{"path_name": "tree", "x": 1, "y": 2, "scale": 0}]})")),
            "obstacles[0].scale: must be > 0, got 0");
  EXPECT_EQ(DecodeErrorText<Proposal>(Json::parse(R"({"obstacles": [], "parent": [1]})")),
            "parent: unknown field; did you mean \"parents\"?");
  EXPECT_EQ(
      DecodeErrorText<ScenarioScore>(Json::parse(
          R"({"id": -1, "regret": 0, "failure": false, "failure_id": null, "scenario": {}})")),
      "id: number -1 is out of range for uint64 (0..18446744073709551615)");
  EXPECT_EQ(DecodeErrorText<ProposeScenariosRequest>(
                Json::parse(R"({"count": 1, "first_id": 1, "round": 0})")),
            "rejected: missing required field");
}

}  // namespace
}  // namespace asg::protocol
