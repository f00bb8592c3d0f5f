// Tests for nodes/vehicle_node.h: the node's whole life over loopback against a minimal client
// and worker (node_peer.h).
#include "nodes/vehicle_node.h"

#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include "node_peer.h"

namespace asg::nodes {
namespace {

using testing::FakeClient;
using testing::FakeWorker;
using testing::kWait;

constexpr char kToken[] = "secret-7";

/// Records every callback; controls depend on the tick; saves a file at the end of a run and
/// asks for a rerun.
class RecordingNode : public VehicleNode {
 public:
  using VehicleNode::VehicleNode;

  std::mutex mutex;
  std::vector<uint32_t> run_starts;
  std::vector<uint32_t> ticks;
  std::vector<std::pair<protocol::RunEndMessage, bool>> run_ends;
  std::vector<std::string> saved_paths;
  std::vector<std::string> save_errors;
  std::vector<std::pair<uint32_t, bool>> answers;  // (scenario, rerun accepted)
  int resets = 0;

 protected:
  void OnRunStart(const RunStart& run) override {
    std::lock_guard lock(mutex);
    run_starts.push_back(run.scenario_number);
  }
  std::optional<Control> OnStep(const Step& step) override {
    {
      std::lock_guard lock(mutex);
      ticks.push_back(step.tick());
    }
    if (step.Has("lidar")) step.Lidar("lidar");  // throws on a bad reading
    if (step.tick() == 3) return std::nullopt;
    if (step.tick() % 2 == 1) {
      protocol::EgoControl ego;
      ego.forward_amount = 0.5;
      ego.right_amount = -0.25;
      return ego;
    }
    protocol::PhysXControl control;
    control.longitudinal_velocity = 1.0 + step.tick();
    control.steering_angle = step.odometry().pose.position.x;
    return control;
  }
  RerunDecision OnRunEnd(const RunEnd& end, bool preempted) override {
    std::string path, error;
    try {
      path = SaveFile("logs/run.txt",
                      "bytes of scenario " + std::to_string(end.message.scenario_number));
    } catch (const NodeError& e) {
      error = e.what();
    }
    std::lock_guard lock(mutex);
    run_ends.emplace_back(end.message, preempted);
    if (!path.empty()) saved_paths.push_back(path);
    if (!error.empty()) save_errors.push_back(error);
    return {true, "flaky run"};
  }
  void OnReset() override {
    std::lock_guard lock(mutex);
    ++resets;
  }
  void OnReadyAnswer(uint32_t scenario, const protocol::NotifyReadyResponse& answer) override {
    std::lock_guard lock(mutex);
    answers.emplace_back(scenario, answer.accepted);
  }
};

NodeSettings Settings(const std::string& client) {
  NodeSettings settings;
  settings.client_endpoint = client;
  settings.worker_id = 3;
  settings.node_name = "planner";
  settings.token = kToken;
  settings.connect_timeout = std::chrono::seconds(5);
  settings.retry_period = std::chrono::milliseconds(50);
  settings.handle_signals = false;
  settings.log = false;
  return settings;
}

protocol::NodeOperatingInfo Info(const std::string& endpoint, uint32_t scenario) {
  protocol::NodeOperatingInfo info;
  info.info.worker_ids = {2, 3};
  info.info.scenario_numbers = {1, scenario};
  info.info.ok_to_run = {false, true};
  info.info.save_dirs = {"/out/w2", "/out/w3"};
  info.info.save_minimal = {false, true};
  info.data_endpoints = {"127.0.0.1:1", endpoint};
  return info;
}

json::Json RunStartBody(uint32_t scenario, bool sync) {
  RunStart start;
  start.scenario_number = scenario;
  start.vehicle_goal_location = {50, 50, 0};
  start.sync = sync;
  return start;
}

json::Json StepBody(uint32_t scenario, uint32_t tick) {
  protocol::StepRequest step;
  step.scenario_number = scenario;
  step.tick = tick;
  step.time = tick * 0.05;
  step.odometry.pose.position.x = 10.0 + tick;
  return step;
}

/// Starts the node on a thread and waits until it has registered and sent NotifyReady(0).
class NodeRun {
 public:
  NodeRun(RecordingNode& node, FakeClient& client) : node_(node) {
    thread_ = std::thread([this] {
      try {
        node_.Run();
      } catch (const std::exception& e) {
        error_ = e.what();
      }
    });
    ready_ = client.inbox().Wait("NotifyReady").size() == 1;
  }
  ~NodeRun() { Join(); }
  bool ready() const { return ready_; }
  /// Joins the Run thread; returns what it threw ("" when nothing).
  std::string Join() {
    if (thread_.joinable()) thread_.join();
    return error_;
  }

 private:
  RecordingNode& node_;
  std::thread thread_;
  std::string error_;
  bool ready_ = false;
};

/// Attaches the node to the worker through an operating info.
void Attach(FakeClient& client, FakeWorker& worker, uint32_t scenario) {
  client.SendOperatingInfo(Info(worker.address(), scenario));
  ASSERT_EQ(worker.inbox().Wait("AttachNode").size(), 1u);
}

TEST(VehicleNodeTest, LivesThroughARunAndUnregistersOnStop) {
  FakeClient client(kToken);
  FakeWorker worker(kToken);
  RecordingNode node(Settings(client.address()));
  NodeRun run(node, client);
  ASSERT_TRUE(run.ready());

  const json::Json registration = client.inbox().Of("RegisterVehicleNode").at(0).message;
  EXPECT_EQ(registration, json::Json(protocol::NodeRegistration{3, "planner", kToken}));
  EXPECT_EQ(client.inbox().Of("NotifyReady").at(0).message,
            json::Json(protocol::NotifyReadyRequest{3, "planner", 0, false, ""}));

  Attach(client, worker, 7);
  EXPECT_EQ(worker.inbox().Of("AttachNode").at(0).message,
            json::Json(protocol::AttachNodeRequest{"planner", kToken}));
  const auto data = worker.node();
  const protocol::Message ready = data->Request("RunStart", RunStartBody(7, true), {}, kWait);
  EXPECT_EQ(ready.message, json::Json(protocol::RunStartResponse{true}));
  data->Send("VehicleStatus", protocol::VehicleStatus{true, false});

  std::vector<protocol::StepResponse> answers;
  for (uint32_t tick = 0; tick < 4; ++tick) {
    const protocol::Message reply = data->Request("Step", StepBody(7, tick), {}, kWait);
    answers.push_back(protocol::DecodeMessage<protocol::StepResponse>(reply.message));
  }
  ASSERT_EQ(answers.size(), 4u);
  EXPECT_TRUE(answers[0].has_control);
  EXPECT_EQ(answers[0].control.longitudinal_velocity, 1.0);
  EXPECT_EQ(answers[0].control.steering_angle, 10.0);
  EXPECT_TRUE(answers[1].has_ego_control);
  EXPECT_EQ(answers[1].ego_control.forward_amount, 0.5);
  EXPECT_EQ(answers[1].ego_control.right_amount, -0.25);
  EXPECT_EQ(answers[2].control.longitudinal_velocity, 3.0);
  EXPECT_EQ(answers[2].control.steering_angle, 12.0);
  EXPECT_FALSE(answers[3].has_control || answers[3].has_ego_control);

  data->Send("VehicleStatus", protocol::VehicleStatus{false, false});
  protocol::RunEndMessage end{
      7, protocol::TerminationReason::REASON_SUCCESS, "REASON_SUCCESS", 3.25, false, ""};
  data->Send("RunEnd", end);

  const auto saves = client.inbox().Wait("SaveNodeFile");
  ASSERT_EQ(saves.size(), 1u);
  EXPECT_EQ(saves[0].message,
            json::Json(protocol::SaveNodeFileRequest{3, "planner", 7, "logs/run.txt"}));
  EXPECT_EQ(saves[0].attachment, "bytes of scenario 7");
  const auto readies = client.inbox().Wait("NotifyReady", 2);
  ASSERT_EQ(readies.size(), 2u);
  EXPECT_EQ(readies[1].message,
            json::Json(protocol::NotifyReadyRequest{3, "planner", 7, true, "flaky run"}));

  node.Stop();
  EXPECT_EQ(run.Join(), "");
  EXPECT_EQ(node.stop_reason(), "stopped");
  ASSERT_EQ(client.inbox().Of("UnregisterVehicleNode").size(), 1u);
  EXPECT_EQ(client.inbox().Of("UnregisterVehicleNode")[0].message,
            json::Json(protocol::UnregisterVehicleNodeRequest{3, "planner"}));

  std::lock_guard lock(node.mutex);
  EXPECT_EQ(node.run_starts, std::vector<uint32_t>({7}));
  EXPECT_EQ(node.ticks, std::vector<uint32_t>({0, 1, 2, 3}));
  ASSERT_EQ(node.run_ends.size(), 1u);
  EXPECT_EQ(node.run_ends[0].first, end);
  EXPECT_FALSE(node.run_ends[0].second);
  EXPECT_EQ(node.saved_paths,
            std::vector<std::string>({"scenario_0007/nodes/planner/logs/run.txt"}));
  EXPECT_EQ(node.resets, 1);
  // NotifyReady(0) is answered too; the rerun after scenario 7 is the first, so accepted.
  EXPECT_EQ(node.answers, (std::vector<std::pair<uint32_t, bool>>{{0, false}, {7, true}}));
}

TEST(VehicleNodeTest, PreemptedRunSavesNothingAndAsksNoRerun) {
  FakeClient client(kToken);
  FakeWorker worker(kToken);
  RecordingNode node(Settings(client.address()));
  NodeRun run(node, client);
  ASSERT_TRUE(run.ready());
  Attach(client, worker, 4);
  const auto data = worker.node();
  data->Request("RunStart", RunStartBody(4, true), {}, kWait);
  data->Request("Step", StepBody(4, 0), {}, kWait);
  data->Send("VehicleStatus", protocol::VehicleStatus{false, true});
  data->Send("RunEnd", protocol::RunEndMessage{4, protocol::TerminationReason::REASON_SUCCESS, "",
                                               0.05, true, "node 'mapper' missed"});

  const auto readies = client.inbox().Wait("NotifyReady", 2);
  ASSERT_EQ(readies.size(), 2u);
  EXPECT_EQ(readies[1].message,
            json::Json(protocol::NotifyReadyRequest{3, "planner", 4, false, ""}));
  node.Stop();
  EXPECT_EQ(run.Join(), "");
  EXPECT_TRUE(client.inbox().Of("SaveNodeFile").empty());
  std::lock_guard lock(node.mutex);
  ASSERT_EQ(node.run_ends.size(), 1u);
  EXPECT_TRUE(node.run_ends[0].second);
  EXPECT_EQ(node.run_ends[0].first.reason, "node 'mapper' missed");
  ASSERT_EQ(node.save_errors.size(), 1u);
  EXPECT_NE(node.save_errors[0].find("preempted"), std::string::npos) << node.save_errors[0];
  EXPECT_EQ(node.resets, 1);
}

TEST(VehicleNodeTest, ARunPreemptedBeforeItStartedStillGetsTheNodeReady) {
  // Fewer nodes attached than the batch needs: no RunStart, only the preemption.
  FakeClient client(kToken);
  FakeWorker worker(kToken);
  RecordingNode node(Settings(client.address()));
  NodeRun run(node, client);
  ASSERT_TRUE(run.ready());
  Attach(client, worker, 6);
  const auto data = worker.node();
  data->Send("VehicleStatus", protocol::VehicleStatus{false, true});
  data->Send("RunEnd",
             protocol::RunEndMessage{6, protocol::TerminationReason::REASON_SUCCESS, "", 0.0, true,
                                     "1 of 2 vehicle nodes attached within the step "
                                     "deadline"});
  const auto readies = client.inbox().Wait("NotifyReady", 2);
  ASSERT_EQ(readies.size(), 2u);
  EXPECT_EQ(readies[1].message,
            json::Json(protocol::NotifyReadyRequest{3, "planner", 6, false, ""}));
  node.Stop();
  EXPECT_EQ(run.Join(), "");
  std::lock_guard lock(node.mutex);
  EXPECT_TRUE(node.run_ends.empty());  // no run: OnRunEnd is not called
}

TEST(VehicleNodeTest, AsynchronousRunSendsControlMessages) {
  FakeClient client(kToken);
  FakeWorker worker(kToken);
  RecordingNode node(Settings(client.address()));
  NodeRun run(node, client);
  ASSERT_TRUE(run.ready());
  Attach(client, worker, 5);
  const auto data = worker.node();
  data->Request("RunStart", RunStartBody(5, false), {}, kWait);
  data->Send("Step", StepBody(5, 0));
  data->Send("Step", StepBody(5, 1));
  const auto controls = worker.inbox().Wait("Control", 2);
  ASSERT_EQ(controls.size(), 2u);
  const auto first = protocol::DecodeMessage<protocol::StepResponse>(controls[0].message);
  EXPECT_TRUE(first.has_control);
  EXPECT_EQ(first.control.longitudinal_velocity, 1.0);
  EXPECT_TRUE(protocol::DecodeMessage<protocol::StepResponse>(controls[1].message).has_ego_control);
  // An explicit control from another thread.
  protocol::PhysXControl stop;
  stop.handbrake = true;
  EXPECT_TRUE(node.SendControl(stop));
  const auto all = worker.inbox().Wait("Control", 3);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_TRUE(protocol::DecodeMessage<protocol::StepResponse>(all[2].message).control.handbrake);
  node.Stop();
  EXPECT_EQ(run.Join(), "");
}

TEST(VehicleNodeTest, BadReadingIsAnErrorReplyAndTheNodeCarriesOn) {
  FakeClient client(kToken);
  FakeWorker worker(kToken);
  RecordingNode node(Settings(client.address()));
  NodeRun run(node, client);
  ASSERT_TRUE(run.ready());
  Attach(client, worker, 2);
  const auto data = worker.node();
  data->Request("RunStart", RunStartBody(2, true), {}, kWait);
  json::Json step = StepBody(2, 0);
  step["readings"] = json::Json::array({{{"name", "lidar"},
                                         {"type", "lidar"},
                                         {"encoding", "xyz32f"},
                                         {"count", 2},
                                         {"offset", 4},
                                         {"size", 24}}});
  try {
    data->Request("Step", step, std::string(16, '\0'), kWait);
    ADD_FAILURE() << "a Step with a reading past the attachment was answered";
  } catch (const protocol::RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("reaches past the attachment of 16 bytes"),
              std::string::npos)
        << error.what();
  }
  const protocol::Message next = data->Request("Step", StepBody(2, 1), {}, kWait);
  EXPECT_TRUE(protocol::DecodeMessage<protocol::StepResponse>(next.message).has_ego_control);
  node.Stop();
  EXPECT_EQ(run.Join(), "");
}

TEST(VehicleNodeTest, ReattachesWhenTheDataEndpointChanges) {
  FakeClient client(kToken);
  FakeWorker first(kToken);
  FakeWorker second(kToken);
  RecordingNode node(Settings(client.address()));
  NodeRun run(node, client);
  ASSERT_TRUE(run.ready());
  Attach(client, first, 1);
  client.SendOperatingInfo(Info(second.address(), 1));
  ASSERT_EQ(second.inbox().Wait("AttachNode").size(), 1u);
  const protocol::Message reply =
      second.node()->Request("RunStart", RunStartBody(9, true), {}, kWait);
  EXPECT_EQ(reply.message, json::Json(protocol::RunStartResponse{true}));
  node.Stop();
  EXPECT_EQ(run.Join(), "");
}

TEST(VehicleNodeTest, SigtermUnregistersAndReturns) {
  FakeClient client(kToken);
  NodeSettings settings = Settings(client.address());
  settings.handle_signals = true;
  RecordingNode node(settings);
  NodeRun run(node, client);
  ASSERT_TRUE(run.ready());
  std::raise(SIGTERM);
  EXPECT_EQ(run.Join(), "");
  EXPECT_EQ(node.stop_reason(), "signal " + std::to_string(SIGTERM));
  EXPECT_EQ(client.inbox().Wait("UnregisterVehicleNode").size(), 1u);
}

TEST(VehicleNodeTest, ClientClosingEndsRun) {
  FakeClient client(kToken);
  RecordingNode node(Settings(client.address()));
  NodeRun run(node, client);
  ASSERT_TRUE(run.ready());
  client.CloseAll();
  EXPECT_EQ(run.Join(), "");
  EXPECT_NE(node.stop_reason().find("client closed the connection"), std::string::npos)
      << node.stop_reason();
}

TEST(VehicleNodeTest, WrongTokenIsRefused) {
  FakeClient client("another secret");
  RecordingNode node(Settings(client.address()));
  try {
    node.Run();
    ADD_FAILURE() << "Run returned with a wrong token";
  } catch (const NodeError& error) {
    EXPECT_NE(std::string(error.what()).find("wrong token"), std::string::npos) << error.what();
  }
}

TEST(VehicleNodeTest, UnreachableClientFailsAfterTheTimeout) {
  NodeSettings settings = Settings("127.0.0.1:1");
  settings.connect_timeout = std::chrono::milliseconds(300);
  RecordingNode node(settings);
  EXPECT_THROW(node.Run(), NodeError);
}

}  // namespace
}  // namespace asg::nodes
