// Tests for the vehicle-node paths of worker/scenario_executor.h: node-driven runs, preemption
// and requests for nodes on an executor without a data port.
#include <gtest/gtest.h>

#include "protocol/io_threads.h"
#include "tests/worker/node_fake_node.h"
#include "worker/scenario_executor.h"

namespace asg::worker {
namespace {

protocol::RunScenarioRequest NodeRequest() {
  protocol::RunScenarioRequest request;
  request.scenario_number = 6;
  request.sim_timeout_period = 2.0;
  request.vehicle_start_location = {8.0, 8.0, 0.0};
  request.vehicle_start_yaw = 45.0;
  request.vehicle_goal_location = {32.0, 32.0, 0.0};
  request.scene_description.landscape.nominal_size = 40.0;
  request.scene_description.landscape.subdivisions = 4;
  request.vehicle_nodes.count = 1;
  request.vehicle_nodes.step_deadline = 2.0;
  return request;
}

class NodeExecutorTest : public ::testing::Test {
 protected:
  scene::ActorCatalog catalog_ = scene::ActorCatalog::FromFile(scene::DefaultActorCatalogPath());
  protocol::IoThreads io_{1};
  NodeServer server_{io_.context().get_executor(), NodeServerSettings{}};
};

TEST_F(NodeExecutorTest, ANodeDrivesTheExecutorsRun) {
  ScenarioExecutor executor(catalog_, 3);
  executor.SetNodeServer(&server_);
  protocol::StepResponse go;
  go.has_control = true;
  go.control.longitudinal_velocity = 4.0;
  fake::FakeNode node(server_.endpoint(), "driver", fake::ConstantLaw(go));
  const Execution execution = executor.Execute(NodeRequest(), [] {});
  ASSERT_TRUE(execution.scene_created) << execution.scene_error;
  EXPECT_FALSE(execution.preempted);
  EXPECT_EQ(execution.analysis.worker_id, 3);
  EXPECT_EQ(execution.analysis.scenario_number, 6);
  EXPECT_GT(execution.analysis.counters.distance_travelled, 2.0);
  ASSERT_TRUE(node.WaitForRunEnd());
  EXPECT_EQ(node.steps().size() + 1, execution.analysis.vehicle_trajectory.size());
}

TEST_F(NodeExecutorTest, APreemptedRunHasNoResultAndTheExecutorRunsAgain) {
  ScenarioExecutor executor(catalog_, 3);
  executor.SetNodeServer(&server_);
  {
    fake::FakeNode node(server_.endpoint(), "flaky", fake::ConstantLaw(protocol::StepResponse{}),
                        fake::FakeNode::Fault::kDisconnect, 2);
    const Execution execution = executor.Execute(NodeRequest(), [] {});
    EXPECT_TRUE(execution.preempted);
    EXPECT_NE(execution.preempt_reason.find("flaky"), std::string::npos)
        << execution.preempt_reason;
    EXPECT_TRUE(execution.analysis.vehicle_trajectory.empty());
  }
  fake::FakeNode node(server_.endpoint(), "steady", fake::ConstantLaw(protocol::StepResponse{}));
  const Execution again = executor.Execute(NodeRequest(), [] {});
  EXPECT_FALSE(again.preempted) << again.preempt_reason;
  EXPECT_TRUE(again.scene_created);
}

TEST_F(NodeExecutorTest, NodesWithoutADataPortAreASceneError) {
  ScenarioExecutor executor(catalog_, 3);
  const Execution execution = executor.Execute(NodeRequest(), [] {});
  EXPECT_FALSE(execution.scene_created);
  EXPECT_EQ(execution.scene_error,
            "vehicle_nodes.count is 1 but this worker has no data port for vehicle nodes");
}

}  // namespace
}  // namespace asg::worker
