// Tests for worker/node_run.h and worker/node_driver.h: runs driven by in-test vehicle nodes over
// real loopback connections.
#include "worker/node_run.h"

#include <gtest/gtest.h>

#include <variant>

#include "protocol/io_threads.h"
#include "scene/actor_catalog.h"
#include "tests/source_catalog.h"
#include "tests/worker/node_fake_node.h"
#include "tests/worker/small_request.h"

namespace asg::worker {
namespace {

using fake::ConstantLaw;
using fake::ControlLaw;
using fake::FakeNode;
using fake::StraightLaw;

/// The small scenario (tests/worker/small_request.h) driven by `nodes` vehicle nodes.
protocol::RunScenarioRequest SmallRequest(uint32_t nodes) {
  protocol::RunScenarioRequest request = testing::SmallRequest(4);
  request.driver.speed = 5.0;
  request.vehicle_nodes.count = nodes;
  request.vehicle_nodes.step_deadline = 5.0;
  return request;
}

/// Always the same control.
class ConstantDriver : public scene::Driver {
 public:
  explicit ConstantDriver(const protocol::PhysXControl& control) : control_(control) {}
  scene::DriverVerdict Tick(const scene::DriverInput&) override { return control_; }

 private:
  protocol::PhysXControl control_;
};

/// The NodeRunCompleted of `outcome`; null, after a test failure naming the preemption.
const NodeRunCompleted* Completed(const NodeRunOutcome& outcome) {
  if (const auto* preempted = std::get_if<NodeRunPreempted>(&outcome)) {
    ADD_FAILURE() << "preempted: " << preempted->reason;
    return nullptr;
  }
  return &std::get<NodeRunCompleted>(outcome);
}

/// The NodeRunPreempted of `outcome`; null, after a test failure, when it completed.
const NodeRunPreempted* Preempted(const NodeRunOutcome& outcome) {
  const auto* preempted = std::get_if<NodeRunPreempted>(&outcome);
  if (preempted == nullptr) ADD_FAILURE() << "the run was not preempted";
  return preempted;
}

class NodeRunTest : public ::testing::Test {
 protected:
  /// What a run with nodes on this host reports for the built-in driver's `run`: the same, with
  /// the channel its nodes took (the server's same-host socket).
  static protocol::AnalyzeScenarioRequest OverUnix(scene::RunResult run) {
    run.analysis.counters.node_channel = "unix";
    return run.analysis;
  }

  /// The built-in driver's run of `request`.
  scene::RunResult BuiltIn(const protocol::RunScenarioRequest& request,
                           scene::Driver* driver = nullptr) {
    runner_.Build(request);
    if (driver == nullptr) return runner_.Run();
    scene::RunOutcome outcome = runner_.Run(*driver);
    EXPECT_TRUE(std::holds_alternative<scene::RunResult>(outcome));
    return std::holds_alternative<scene::RunResult>(outcome) ? std::get<scene::RunResult>(outcome)
                                                             : scene::RunResult{};
  }
  /// The run of `request` with the nodes attached to `server` (default: server_).
  NodeRunOutcome WithNodes(const protocol::RunScenarioRequest& request,
                           NodeServer* server = nullptr) {
    runner_.Build(request);
    return RunWithNodes(runner_, request, server ? *server : server_, &cameras_);
  }
  ControlLaw Straight(const protocol::RunScenarioRequest& request) {
    return StraightLaw(request.vehicle_goal_location, request.driver.speed,
                       request.vehicle.max_steering_angle);
  }

  scene::ActorCatalog catalog_ = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  scene::ScenarioRunner runner_{catalog_};
  protocol::IoThreads io_{1};
  NodeServer server_{io_.context().get_executor(), NodeServerSettings{}};
  std::unique_ptr<capture::CameraSensorRenderer> cameras_;
};

TEST_F(NodeRunTest, LockStepWithOneNodeReproducesTheBuiltInStraightDriver) {
  const protocol::RunScenarioRequest request = SmallRequest(1);
  const scene::RunResult reference = BuiltIn(request);
  FakeNode node(server_.endpoint(), "solo", Straight(request));
  const NodeRunOutcome run = WithNodes(request);
  const NodeRunCompleted* outcome = Completed(run);
  ASSERT_NE(outcome, nullptr);
  ASSERT_TRUE(node.WaitForRunEnd());

  // Bit for bit: trajectory, counters, reason and time; the counters name the channel.
  EXPECT_EQ(outcome->result.analysis, OverUnix(reference));
  EXPECT_EQ(outcome->result.reason(), protocol::TerminationReason::REASON_SUCCESS);

  const auto steps = node.steps();
  const auto& trajectory = reference.analysis.vehicle_trajectory;
  ASSERT_EQ(steps.size() + 1, trajectory.size());  // no Step at the final state
  EXPECT_EQ(outcome->ticks, steps.size());
  for (size_t k = 0; k < steps.size(); ++k) {
    EXPECT_EQ(steps[k].tick, k);
    EXPECT_EQ(steps[k].scenario_number, 4u);
    EXPECT_DOUBLE_EQ(steps[k].time, k * 0.05);
    EXPECT_EQ(steps[k].odometry, trajectory[k]);
    EXPECT_TRUE(steps[k].readings.empty());
  }
  const auto events = node.events();
  ASSERT_GE(events.size(), 5u);
  EXPECT_EQ(events[0], "RunStart");
  EXPECT_EQ(events[1], "VehicleStatus enabled");
  EXPECT_EQ(events[2], "Step");
  EXPECT_EQ(events[events.size() - 2], "VehicleStatus disabled");
  EXPECT_EQ(events.back(), "RunEnd");
  EXPECT_FALSE(node.statuses().back().preempted);
  const auto start = node.start();
  ASSERT_TRUE(start.has_value());
  EXPECT_EQ(start->scenario_number, 4u);
  EXPECT_DOUBLE_EQ(start->control_period, 0.05);
  EXPECT_TRUE(start->sync);
  EXPECT_EQ(start->vehicle_goal_location.x, 32.0);
  const auto end = node.run_end();
  EXPECT_FALSE(end->preempted);
  EXPECT_EQ(end->scenario_number, 4u);
  EXPECT_EQ(end->termination_reason, reference.analysis.termination_reason);
  EXPECT_EQ(end->termination_reason_name, "REASON_SUCCESS");
  EXPECT_EQ(end->vehicle_sim_time, reference.analysis.vehicle_sim_time);
}

TEST_F(NodeRunTest, OverTcpTheRunIsTheSameAndItsCountersSaySo) {
  const protocol::RunScenarioRequest request = SmallRequest(1);
  const scene::RunResult reference = BuiltIn(request);
  NodeServerSettings tcp_only;
  tcp_only.local_channel = false;
  NodeServer tcp_server(io_.context().get_executor(), tcp_only);
  EXPECT_EQ(tcp_server.local_endpoint(), "");
  EXPECT_NE(server_.local_endpoint(), "");
  FakeNode node(tcp_server.endpoint(), "solo", Straight(request));
  const NodeRunOutcome run = WithNodes(request, &tcp_server);
  const NodeRunCompleted* outcome = Completed(run);
  ASSERT_NE(outcome, nullptr);
  protocol::AnalyzeScenarioRequest expected = reference.analysis;
  expected.counters.node_channel = "tcp";
  EXPECT_EQ(outcome->result.analysis, expected);
  ASSERT_TRUE(node.WaitForRunEnd());
}

TEST_F(NodeRunTest, TheFirstNameAmongNodesThatSentAControlIsApplied) {
  const protocol::RunScenarioRequest request = SmallRequest(3);
  const scene::RunResult reference = BuiltIn(request);
  protocol::StepResponse stop;
  stop.has_control = true;
  stop.control.handbrake = true;
  // "a" sends no control, "b" the straight law, "c" a handbrake stop: "b" drives.
  FakeNode a(server_.endpoint(), "a", ConstantLaw(protocol::StepResponse{}));
  FakeNode c(server_.endpoint(), "c", ConstantLaw(stop));
  FakeNode b(server_.endpoint(), "b", Straight(request));
  const NodeRunOutcome run = WithNodes(request);
  const NodeRunCompleted* outcome = Completed(run);
  ASSERT_NE(outcome, nullptr);
  EXPECT_EQ(outcome->result.analysis, OverUnix(reference));
  for (FakeNode* node : {&a, &b, &c}) {
    ASSERT_TRUE(node->WaitForRunEnd());
    EXPECT_EQ(node->steps().size(), outcome->ticks);
  }
}

TEST_F(NodeRunTest, TwoNodesTheFirstNameDrives) {
  protocol::RunScenarioRequest request = SmallRequest(2);
  request.sim_timeout_period = 3.0;
  protocol::StepResponse slow;
  slow.has_control = true;
  slow.control.longitudinal_velocity = 2.0;
  slow.control.steering_angle = 10.0;
  protocol::StepResponse fast = slow;
  fast.control.longitudinal_velocity = 6.0;
  ConstantDriver constant(slow.control);
  const scene::RunResult reference = BuiltIn(request, &constant);
  FakeNode second(server_.endpoint(), "zeta", ConstantLaw(fast));
  FakeNode first(server_.endpoint(), "alpha", ConstantLaw(slow));
  const NodeRunOutcome run = WithNodes(request);
  const NodeRunCompleted* outcome = Completed(run);
  ASSERT_NE(outcome, nullptr);
  EXPECT_EQ(outcome->result.analysis.vehicle_trajectory, reference.analysis.vehicle_trajectory);
}

TEST_F(NodeRunTest, EgoControlIsMappedWithTheRunsVehicle) {
  protocol::RunScenarioRequest request = SmallRequest(1);
  request.sim_timeout_period = 3.0;
  request.vehicle.max_speed = 8.0;
  protocol::StepResponse ego;
  ego.has_ego_control = true;
  ego.ego_control = {0.5, -0.25, 0.0, 1};
  const protocol::PhysXControl mapped = protocol::ToPhysXControl(ego.ego_control, request.vehicle);
  ASSERT_EQ(mapped.longitudinal_velocity, 4.0);
  ConstantDriver constant(mapped);
  const scene::RunResult reference = BuiltIn(request, &constant);
  FakeNode node(server_.endpoint(), "ego", ConstantLaw(ego));
  const NodeRunOutcome run = WithNodes(request);
  const NodeRunCompleted* outcome = Completed(run);
  ASSERT_NE(outcome, nullptr);
  EXPECT_EQ(outcome->result.analysis.vehicle_trajectory, reference.analysis.vehicle_trajectory);
  // A different mapping would have driven elsewhere.
  ConstantDriver idle(protocol::PhysXControl{});
  EXPECT_NE(BuiltIn(request, &idle).analysis.vehicle_trajectory,
            outcome->result.analysis.vehicle_trajectory);
}

TEST_F(NodeRunTest, ASilentNodePreemptsWithinTheDeadlineAndTheOthersAreTold) {
  protocol::RunScenarioRequest request = SmallRequest(2);
  request.vehicle_nodes.step_deadline = 0.3;
  FakeNode quiet(server_.endpoint(), "quiet", Straight(request), FakeNode::Fault::kSilent, 5);
  FakeNode other(server_.endpoint(), "other", Straight(request));
  const NodeRunOutcome run = WithNodes(request);
  const NodeRunPreempted* outcome = Preempted(run);
  ASSERT_NE(outcome, nullptr);
  EXPECT_NE(outcome->reason.find("quiet"), std::string::npos) << outcome->reason;
  EXPECT_NE(outcome->reason.find("no reply"), std::string::npos) << outcome->reason;
  EXPECT_EQ(outcome->ticks, 5u);
  ASSERT_TRUE(other.WaitForRunEnd());
  EXPECT_TRUE(other.run_end()->preempted);
  EXPECT_EQ(other.run_end()->reason, outcome->reason);
  const auto statuses = other.statuses();
  ASSERT_EQ(statuses.size(), 2u);
  EXPECT_TRUE(statuses[0].enabled);
  EXPECT_FALSE(statuses[1].enabled);
  EXPECT_TRUE(statuses[1].preempted);
  EXPECT_EQ(other.steps().size(), 6u);  // ticks 0..5; tick 5 went unanswered by "quiet"
}

TEST_F(NodeRunTest, ADisconnectingNodePreemptsTheRun) {
  const protocol::RunScenarioRequest request = SmallRequest(2);
  FakeNode leaving(server_.endpoint(), "leaving", Straight(request), FakeNode::Fault::kDisconnect,
                   3);
  FakeNode other(server_.endpoint(), "other", Straight(request));
  const NodeRunOutcome run = WithNodes(request);
  const NodeRunPreempted* outcome = Preempted(run);
  ASSERT_NE(outcome, nullptr);
  EXPECT_NE(outcome->reason.find("leaving"), std::string::npos) << outcome->reason;
  // The failure is noticed at a tick after the third Step: no complete run.
  EXPECT_GE(outcome->ticks, 3u);
  ASSERT_TRUE(other.WaitForRunEnd());
  EXPECT_TRUE(other.run_end()->preempted);
  EXPECT_EQ(other.run_end()->reason, outcome->reason);
  // The worker stays ready: the remaining node and a newcomer run the scenario again.
  FakeNode newcomer(server_.endpoint(), "newcomer", Straight(request));
  const NodeRunOutcome again = WithNodes(request);
  ASSERT_NE(Completed(again), nullptr);
  EXPECT_EQ(Completed(again)->result.analysis, OverUnix(BuiltIn(request)));
}

TEST_F(NodeRunTest, TooFewNodesPreemptWithoutStartingAnyAndTellTheAttachedOnes) {
  protocol::RunScenarioRequest request = SmallRequest(2);
  request.vehicle_nodes.step_deadline = 0.2;
  FakeNode lonely(server_.endpoint(), "lonely", Straight(request));
  const NodeRunOutcome run = WithNodes(request);
  const NodeRunPreempted* outcome = Preempted(run);
  ASSERT_NE(outcome, nullptr);
  EXPECT_EQ(outcome->reason, "1 of 2 vehicle nodes attached within the step deadline");
  EXPECT_EQ(outcome->ticks, 0u);
  // The attached node gets the preemption without a RunStart, so it can get ready again.
  ASSERT_TRUE(lonely.WaitForRunEnd());
  EXPECT_EQ(lonely.events(), (std::vector<std::string>{"VehicleStatus disabled", "RunEnd"}));
  EXPECT_TRUE(lonely.run_end()->preempted);
  EXPECT_EQ(lonely.run_end()->reason, outcome->reason);
  ASSERT_EQ(lonely.statuses().size(), 1u);
  EXPECT_TRUE(lonely.statuses()[0].preempted);
}

TEST_F(NodeRunTest, AsyncModeSendsEveryTickAndAppliesControlMessages) {
  protocol::RunScenarioRequest request = SmallRequest(1);
  request.sim_timeout_period = 2.0;
  request.vehicle_nodes.sync = false;
  request.vehicle_nodes.realtime_factor = 4.0;
  protocol::StepResponse go;
  go.has_control = true;
  go.control.longitudinal_velocity = 5.0;
  FakeNode node(server_.endpoint(), "async", ConstantLaw(go), FakeNode::Fault::kNone, 0, {},
                /*async=*/true);
  const NodeRunOutcome run = WithNodes(request);
  const NodeRunCompleted* outcome = Completed(run);
  ASSERT_NE(outcome, nullptr);
  EXPECT_EQ(outcome->result.reason(), protocol::TerminationReason::REASON_SIM_TIMEOUT);
  ASSERT_TRUE(node.WaitForRunEnd());
  const auto steps = node.steps();
  ASSERT_EQ(steps.size(), outcome->ticks);
  for (size_t k = 0; k < steps.size(); ++k) EXPECT_EQ(steps[k].tick, k);
  EXPECT_FALSE(node.start()->sync);
  // The node's Control messages moved the vehicle.
  EXPECT_GT(outcome->result.analysis.counters.distance_travelled, 3.0);
}

}  // namespace
}  // namespace asg::worker
