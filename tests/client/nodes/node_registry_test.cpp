// Tests for client/nodes/node_registry.h.
#include "client/nodes/node_registry.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace asg::client {
namespace {

NodeRegistrySettings Settings(uint32_t count, std::string token = "") {
  NodeRegistrySettings settings;
  settings.nodes_per_worker = count;
  settings.token = std::move(token);
  settings.out_dir = "/batch/out";
  return settings;
}

protocol::NotifyReadyRequest Ready(uint8_t worker, const std::string& node, uint32_t last,
                                   bool rerun = false) {
  return {worker, node, last, rerun, rerun ? "bad data" : ""};
}

TEST(NodeRegistryTest, GateOpensOnlyWhenEveryNodeIsReadyForTheLastScenario) {
  NodeRegistry registry(Settings(2));
  registry.AddWorker(1, "127.0.0.1:4000");
  EXPECT_FALSE(registry.GateOpen(1));
  ASSERT_TRUE(registry.Register({1, "planner", ""}).ok);
  ASSERT_TRUE(registry.NotifyReady(Ready(1, "planner", 0)).verdict.ok);
  EXPECT_FALSE(registry.GateOpen(1)) << "one of two nodes";
  ASSERT_TRUE(registry.Register({1, "mapper", ""}).ok);
  EXPECT_FALSE(registry.GateOpen(1)) << "mapper has not sent NotifyReady";
  ASSERT_TRUE(registry.NotifyReady(Ready(1, "mapper", 0)).verdict.ok);
  EXPECT_TRUE(registry.GateOpen(1));

  registry.StartScenario(1, 7);
  EXPECT_FALSE(registry.GateOpen(1)) << "the worker holds a scenario";
  registry.EndScenario(1);
  EXPECT_FALSE(registry.GateOpen(1)) << "nodes are ready for 0, not 7";
  registry.NotifyReady(Ready(1, "planner", 7));
  registry.NotifyReady(Ready(1, "mapper", 6));
  EXPECT_FALSE(registry.GateOpen(1)) << "mapper is ready after another scenario";
  registry.NotifyReady(Ready(1, "mapper", 7));
  EXPECT_TRUE(registry.GateOpen(1));
}

TEST(NodeRegistryTest, UnregisteringANodeClosesTheGate) {
  NodeRegistry registry(Settings(1));
  registry.AddWorker(2, "");
  ASSERT_TRUE(registry.Register({2, "stack", ""}).ok);
  registry.NotifyReady(Ready(2, "stack", 0));
  ASSERT_TRUE(registry.GateOpen(2));
  EXPECT_TRUE(registry.Unregister(2, "stack"));
  EXPECT_FALSE(registry.GateOpen(2));
  EXPECT_FALSE(registry.Unregister(2, "stack"));
  // Registering again needs a new NotifyReady.
  ASSERT_TRUE(registry.Register({2, "stack", ""}).ok);
  EXPECT_FALSE(registry.GateOpen(2));
}

TEST(NodeRegistryTest, AReplacementNodeIsReadyFromItsStart) {
  NodeRegistry registry(Settings(1));
  registry.AddWorker(1, "");
  ASSERT_TRUE(registry.Register({1, "first", ""}).ok);
  registry.NotifyReady(Ready(1, "first", 0));
  registry.StartScenario(1, 3);
  EXPECT_TRUE(registry.Unregister(1, "first"));  // killed mid-run: the run is preempted
  registry.EndScenario(1);
  ASSERT_TRUE(registry.Register({1, "second", ""}).ok);
  EXPECT_FALSE(registry.GateOpen(1)) << "no NotifyReady yet";
  registry.NotifyReady(Ready(1, "second", 0));
  EXPECT_TRUE(registry.GateOpen(1)) << "joined after scenario 3 was handed out";
  // A node that was there before scenario 4 must be ready for 4, not for 0.
  registry.StartScenario(1, 4);
  registry.EndScenario(1);
  registry.NotifyReady(Ready(1, "second", 0));
  EXPECT_FALSE(registry.GateOpen(1));
  registry.NotifyReady(Ready(1, "second", 4));
  EXPECT_TRUE(registry.GateOpen(1));
}

TEST(NodeRegistryTest, AwaitsReadyFromTheNodesOfAFinishedScenario) {
  NodeRegistry registry(Settings(1));
  registry.AddWorker(1, "");
  EXPECT_FALSE(registry.AwaitingReady()) << "no scenario ran";
  ASSERT_TRUE(registry.Register({1, "stack", ""}).ok);
  registry.NotifyReady(Ready(1, "stack", 0));
  EXPECT_FALSE(registry.AwaitingReady());
  registry.StartScenario(1, 2);
  EXPECT_FALSE(registry.AwaitingReady()) << "the worker still runs it";
  registry.EndScenario(1);
  EXPECT_TRUE(registry.AwaitingReady()) << "the node may still ask for a rerun";
  registry.NotifyReady(Ready(1, "stack", 2));
  EXPECT_FALSE(registry.AwaitingReady());
  registry.StartScenario(1, 3);
  registry.EndScenario(1);
  EXPECT_TRUE(registry.Unregister(1, "stack"));
  EXPECT_FALSE(registry.AwaitingReady()) << "a node that left is not waited for";
}

TEST(NodeRegistryTest, WithoutNodesTheGateIsAlwaysOpenAndNoNodeMayRegister) {
  NodeRegistry registry(Settings(0));
  registry.AddWorker(1, "");
  EXPECT_TRUE(registry.GateOpen(1));
  EXPECT_FALSE(registry.Register({1, "stack", ""}).ok);
}

TEST(NodeRegistryTest, RefusesWrongTokenUnknownWorkerTakenNameFullWorkerAndUnsafeName) {
  NodeRegistry registry(Settings(1, "s3cret"));
  registry.AddWorker(1, "");
  const NodeVerdict wrong = registry.Register({1, "stack", "guess"});
  EXPECT_FALSE(wrong.ok);
  EXPECT_NE(wrong.error.find("wrong token"), std::string::npos) << wrong.error;
  EXPECT_FALSE(registry.Register({1, "stack", ""}).ok) << "missing token";
  const NodeVerdict unknown = registry.Register({9, "stack", "s3cret"});
  EXPECT_NE(unknown.error.find("unknown worker id 9"), std::string::npos) << unknown.error;
  ASSERT_TRUE(registry.Register({1, "stack", "s3cret"}).ok);
  const NodeVerdict taken = registry.Register({1, "stack", "s3cret"});
  EXPECT_NE(taken.error.find("taken"), std::string::npos) << taken.error;
  const NodeVerdict full = registry.Register({1, "other", "s3cret"});
  EXPECT_NE(full.error.find("already has 1"), std::string::npos) << full.error;
  EXPECT_EQ(registry.NodeCount(1), 1u);
  registry.AddWorker(2, "");
  EXPECT_FALSE(registry.Register({2, "../etc", "s3cret"}).ok);
  EXPECT_FALSE(registry.Register({2, ".hidden", "s3cret"}).ok);
  EXPECT_FALSE(registry.Register({2, "", "s3cret"}).ok);
  EXPECT_FALSE(registry.Register({2, std::string("a\0b", 3), "s3cret"}).ok);
  EXPECT_TRUE(registry.Register({2, "mapper-2.v1", "s3cret"}).ok);
}

TEST(NodeRegistryTest, NotifyReadyFromAnUnregisteredNodeIsRefused) {
  NodeRegistry registry(Settings(1));
  registry.AddWorker(1, "");
  const NotifyReadyOutcome outcome = registry.NotifyReady(Ready(1, "ghost", 0));
  EXPECT_FALSE(outcome.verdict.ok);
  EXPECT_FALSE(outcome.response.received);
}

TEST(NodeRegistryTest, FirstRerunRequestOfARunIsAcceptedTheSecondIsNot) {
  NodeRegistry registry(Settings(2));
  registry.AddWorker(1, "");
  registry.Register({1, "a", ""});
  registry.Register({1, "b", ""});
  registry.StartScenario(1, 4);
  registry.EndScenario(1);

  const NotifyReadyOutcome first = registry.NotifyReady(Ready(1, "a", 4, true));
  EXPECT_TRUE(first.response.received);
  EXPECT_TRUE(first.response.accepted);
  ASSERT_TRUE(first.rerun.has_value());
  EXPECT_EQ(first.rerun->scenario_number, 4u);
  EXPECT_EQ(first.rerun->node_name, "a");
  EXPECT_EQ(first.rerun->reason, "bad data");

  const NotifyReadyOutcome second = registry.NotifyReady(Ready(1, "b", 4, true));
  EXPECT_TRUE(second.response.received);
  EXPECT_FALSE(second.response.accepted);
  EXPECT_FALSE(second.rerun.has_value());
  EXPECT_EQ(registry.Reruns(4), 1u);

  // The scenario runs again: a request for the new run is accepted.
  registry.StartScenario(1, 4);
  registry.EndScenario(1);
  const NotifyReadyOutcome third = registry.NotifyReady(Ready(1, "b", 4, true));
  EXPECT_TRUE(third.response.accepted);
  ASSERT_TRUE(third.rerun.has_value());
  EXPECT_EQ(third.rerun->node_name, "b");
  EXPECT_EQ(registry.Reruns(4), 2u);
}

TEST(NodeRegistryTest, RerunsStopAtTheLimitAndNeedAScenarioTheWorkerRan) {
  NodeRegistrySettings settings = Settings(1);
  settings.max_reruns = 2;
  NodeRegistry registry(settings);
  registry.AddWorker(1, "");
  registry.AddWorker(2, "");
  registry.Register({1, "a", ""});
  registry.Register({2, "b", ""});
  EXPECT_FALSE(registry.NotifyReady(Ready(1, "a", 0, true)).response.accepted);
  EXPECT_FALSE(registry.NotifyReady(Ready(1, "a", 5, true)).response.accepted) << "never ran";
  registry.StartScenario(1, 5);
  registry.EndScenario(1);
  EXPECT_FALSE(registry.NotifyReady(Ready(2, "b", 5, true)).response.accepted)
      << "worker 2 did not run scenario 5";
  uint32_t accepted = 0;
  for (int run = 0; run < 4; ++run) {
    if (registry.NotifyReady(Ready(1, "a", 5, true)).response.accepted) ++accepted;
    registry.StartScenario(1, 5);
    registry.EndScenario(1);
  }
  EXPECT_EQ(accepted, 2u);
  EXPECT_EQ(registry.Reruns(5), 2u);
}

TEST(NodeRegistryTest, OperatingInfoArraysAreConsistentAndInWorkerIdOrder) {
  NodeRegistrySettings settings = Settings(1);
  settings.save_minimal = true;
  NodeRegistry registry(settings);
  EXPECT_TRUE(registry.AddWorker(3, "10.0.0.3:7001"));
  EXPECT_TRUE(registry.AddWorker(1, ""));
  EXPECT_FALSE(registry.AddWorker(3, "10.0.0.3:7001")) << "unchanged";
  EXPECT_TRUE(registry.AddWorker(1, "10.0.0.1:7000"));
  EXPECT_FALSE(registry.AddWorker(1, "")) << "an empty endpoint keeps the known one";
  registry.StartScenario(3, 12);

  const protocol::NodeOperatingInfo info = registry.OperatingInfo();
  ASSERT_EQ(info.info.worker_ids, (std::vector<uint16_t>{1, 3}));
  EXPECT_EQ(info.info.scenario_numbers, (std::vector<uint32_t>{0, 12}));
  EXPECT_EQ(info.info.ok_to_run, (std::vector<bool>{false, true}));
  ASSERT_EQ(info.info.save_dirs.size(), 2u);
  EXPECT_EQ(info.info.save_dirs[0], "");
  EXPECT_EQ(info.info.save_dirs[1], "/batch/out/scenario_0012/nodes");
  EXPECT_EQ(info.info.save_minimal, (std::vector<bool>{true, true}));
  EXPECT_EQ(info.data_endpoints, (std::vector<std::string>{"10.0.0.1:7000", "10.0.0.3:7001"}));

  registry.EndScenario(3);
  EXPECT_EQ(registry.OperatingInfo().info.ok_to_run, (std::vector<bool>{false, false}));
  EXPECT_EQ(registry.OperatingInfo().info.scenario_numbers, (std::vector<uint32_t>{0, 12}));
}

TEST(NodeRegistryTest, UploadsNeedARegisteredNodeAndAScenarioItsWorkerRan) {
  NodeRegistry registry(Settings(1));
  registry.AddWorker(1, "");
  registry.Register({1, "a", ""});
  EXPECT_FALSE(registry.MayUpload(1, "a", 3));
  registry.StartScenario(1, 3);
  EXPECT_TRUE(registry.MayUpload(1, "a", 3));
  EXPECT_FALSE(registry.MayUpload(1, "b", 3));
  EXPECT_FALSE(registry.MayUpload(1, "a", 4));
  EXPECT_FALSE(registry.MayUpload(2, "a", 3));
}

TEST(NodeRegistryTest, SafeNodeNames) {
  EXPECT_TRUE(IsSafeNodeName("mapper"));
  EXPECT_TRUE(IsSafeNodeName("Node_1-b.x"));
  EXPECT_FALSE(IsSafeNodeName(""));
  EXPECT_FALSE(IsSafeNodeName(".."));
  EXPECT_FALSE(IsSafeNodeName("a/b"));
  EXPECT_FALSE(IsSafeNodeName("a b"));
  EXPECT_FALSE(IsSafeNodeName(std::string(65, 'a')));
}

}  // namespace
}  // namespace asg::client
