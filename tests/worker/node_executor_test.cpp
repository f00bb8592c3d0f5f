// Tests for the vehicle-node paths of worker/scenario_executor.h: node-driven runs, preemption
// and requests for nodes on an executor without a data port.
#include <gtest/gtest.h>

#include <variant>

#include "protocol/io_threads.h"
#include "tests/source_catalog.h"
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
  scene::ActorCatalog catalog_ = scene::ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
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
  const Execution outcome = executor.Execute(NodeRequest(), [] {});
  const auto* execution = std::get_if<ScenarioCompleted>(&outcome);
  ASSERT_NE(execution, nullptr) << "alternative " << outcome.index();
  EXPECT_EQ(execution->analysis.worker_id, 3);
  EXPECT_EQ(execution->analysis.scenario_number, 6);
  EXPECT_GT(execution->analysis.counters.distance_travelled, 2.0);
  ASSERT_TRUE(node.WaitForRunEnd());
  EXPECT_EQ(node.steps().size() + 1, execution->analysis.vehicle_trajectory.size());
}

TEST_F(NodeExecutorTest, APreemptedRunHasNoResultAndTheExecutorRunsAgain) {
  ScenarioExecutor executor(catalog_, 3);
  executor.SetNodeServer(&server_);
  {
    fake::FakeNode node(server_.endpoint(), "flaky", fake::ConstantLaw(protocol::StepResponse{}),
                        fake::FakeNode::Fault::kDisconnect, 2);
    const Execution execution = executor.Execute(NodeRequest(), [] {});
    const auto* preempted = std::get_if<ScenarioPreempted>(&execution);
    ASSERT_NE(preempted, nullptr) << "alternative " << execution.index();
    EXPECT_NE(preempted->reason.find("flaky"), std::string::npos) << preempted->reason;
  }
  fake::FakeNode node(server_.endpoint(), "steady", fake::ConstantLaw(protocol::StepResponse{}));
  const Execution again = executor.Execute(NodeRequest(), [] {});
  EXPECT_TRUE(std::holds_alternative<ScenarioCompleted>(again)) << "alternative " << again.index();
}

TEST_F(NodeExecutorTest, NodesWithoutADataPortAreASceneError) {
  ScenarioExecutor executor(catalog_, 3);
  const Execution execution = executor.Execute(NodeRequest(), [] {});
  const auto* failed = std::get_if<SceneNotCreated>(&execution);
  ASSERT_NE(failed, nullptr) << "alternative " << execution.index();
  EXPECT_EQ(failed->error,
            "vehicle_nodes.count is 1 but this worker has no data port for vehicle nodes");
}

}  // namespace
}  // namespace asg::worker
