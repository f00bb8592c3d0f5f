// Tests for client/nodes/node_control.h and client/nodes/node_links.h over real loopback
// connections.
#include "client/nodes/node_control.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/messages_json.h"
#include "protocol/server.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using namespace std::chrono_literals;
using json::Json;

/// The owner side: a server whose node events are answered by a NodeControl on a thread that
/// also plays the farm's part of the gate: it hands worker 1 scenario 1 once the gate opens.
class ControlPlane {
 public:
  /// `reruns_possible`: what the farm says of every rerun request (NodeControl::RerunPossible).
  explicit ControlPlane(const std::filesystem::path& dir, bool reruns_possible = true)
      : files_(dir), reruns_possible_(reruns_possible) {
    NodeRegistrySettings settings;
    settings.nodes_per_worker = 1;
    settings.token = "s3cret";
    settings.out_dir = dir;
    control_ = std::make_unique<NodeControl>(settings, &files_, nullptr);
    control_->registry().AddWorker(1, "127.0.0.1:5555");
    server_ = std::make_unique<protocol::Server>(
        io_.context().get_executor(), "127.0.0.1", 0, protocol::ConnectionSettings{},
        [this](std::shared_ptr<protocol::Connection> connection) {
          const uint64_t link = ++links_;
          SetNodeHandlers(
              connection, link, [this](NodeEvent e) { Push(std::move(e)); }, [] { return true; });
          connection->SetCloseHandler(
              [this, link](const std::string& reason) { Push(NodeClosed(link, reason)); });
          connection->Start();
        });
    thread_ = std::thread([this] { Loop(); });
  }
  ~ControlPlane() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
    server_->Stop();
    io_.Stop();
  }
  uint16_t port() const { return server_->port(); }
  size_t nodes() const { return nodes_.load(); }
  boost::asio::any_io_executor executor() { return io_.context().get_executor(); }

 private:
  void Push(NodeEvent event) {
    {
      std::lock_guard lock(mutex_);
      events_.push_back(std::move(event));
    }
    changed_.notify_all();
  }
  void Loop() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      changed_.wait_for(lock, 20ms, [this] { return stop_ || !events_.empty(); });
      while (!events_.empty()) {
        NodeEvent event = std::move(events_.front());
        events_.pop_front();
        lock.unlock();
        control_->Handle(event, [this](uint32_t) { return reruns_possible_; });
        NodeRegistry& registry = control_->registry();
        if (!started_ && registry.GateOpen(1)) {
          registry.StartScenario(1, 1);
          started_ = true;
        }
        nodes_ = registry.NodeCount(1);
        control_->PublishIfChanged();
        lock.lock();
      }
    }
  }

  protocol::IoThreads io_{1};
  NodeFileStore files_;
  bool reruns_possible_;
  std::unique_ptr<NodeControl> control_;
  std::unique_ptr<protocol::Server> server_;
  std::atomic<uint64_t> links_{0};
  std::atomic<size_t> nodes_{0};
  bool started_ = false;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<NodeEvent> events_;
  bool stop_ = false;
  std::thread thread_;
};

/// A raw node connection that keeps every operating info it receives.
class RawNode {
 public:
  explicit RawNode(ControlPlane& plane) {
    connection_ =
        protocol::Connect(plane.executor(), "127.0.0.1:" + std::to_string(plane.port()), 2s);
    // The handler shares the inbox: an info may still arrive while the connection closes, after
    // this RawNode is gone.
    connection_->SetHandler(
        "VehicleNodeOperatingInfo", [inbox = inbox_](const protocol::Message& m) {
          std::lock_guard lock(inbox->mutex);
          inbox->infos.push_back(protocol::DecodeMessage<protocol::NodeOperatingInfo>(m.message));
          inbox->arrived.notify_all();
        });
    connection_->Start();
  }
  ~RawNode() { connection_->Close("test over"); }
  protocol::Connection& connection() { return *connection_; }

  /// Waits up to `timeout` for an info satisfying `wanted`; returns whether one arrived.
  template <class Predicate>
  bool WaitInfo(Predicate wanted, std::chrono::milliseconds timeout) {
    std::unique_lock lock(inbox_->mutex);
    return inbox_->arrived.wait_for(lock, timeout, [&] {
      for (const auto& info : inbox_->infos) {
        if (wanted(info)) return true;
      }
      return false;
    });
  }
  protocol::NodeOperatingInfo First() {
    std::lock_guard lock(inbox_->mutex);
    return inbox_->infos.at(0);
  }

 private:
  struct Inbox {
    std::mutex mutex;
    std::condition_variable arrived;
    std::vector<protocol::NodeOperatingInfo> infos;
  };
  std::shared_ptr<Inbox> inbox_ = std::make_shared<Inbox>();
  std::shared_ptr<protocol::Connection> connection_;
};

bool RunsScenario1(const protocol::NodeOperatingInfo& info) {
  return info.info.scenario_numbers == std::vector<uint32_t>{1} &&
         info.info.ok_to_run == std::vector<bool>{true};
}

TEST(NodeControlTest, ANodeRegistersGetsTheDataEndpointAndGatesTheScenario) {
  testutil::TempDir temp;
  ControlPlane plane(temp.path());
  {
    // A wrong token closes the connection: the right one cannot follow on it.
    RawNode guessing(plane);
    EXPECT_THROW(guessing.connection().Request(
                     "RegisterVehicleNode", Json(protocol::NodeRegistration{1, "stack", "wrong"})),
                 protocol::RequestError);
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (guessing.connection().IsOpen() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(5ms);
    }
    EXPECT_FALSE(guessing.connection().IsOpen());
  }
  RawNode node(plane);
  const protocol::Message reply = node.connection().Request(
      "RegisterVehicleNode", Json(protocol::NodeRegistration{1, "stack", "s3cret"}));
  EXPECT_EQ(reply.message.at("received"), true);
  ASSERT_TRUE(node.WaitInfo([](const auto&) { return true; }, 2s));
  const protocol::NodeOperatingInfo first = node.First();
  EXPECT_EQ(first.info.worker_ids, std::vector<uint16_t>{1});
  EXPECT_EQ(first.data_endpoints, std::vector<std::string>{"127.0.0.1:5555"});
  EXPECT_EQ(first.info.scenario_numbers, std::vector<uint32_t>{0});
  EXPECT_EQ(first.info.ok_to_run, std::vector<bool>{false});

  // No scenario before NotifyReady(0).
  EXPECT_FALSE(node.WaitInfo(RunsScenario1, 300ms));
  EXPECT_THROW(
      node.connection().Request("SaveNodeFile",
                                Json(protocol::SaveNodeFileRequest{1, "stack", 1, "a.txt"}), "x"),
      protocol::RequestError)
      << "worker 1 has not run scenario 1 yet";
  const protocol::Message ready = node.connection().Request(
      "NotifyReady", Json(protocol::NotifyReadyRequest{1, "stack", 0, false, ""}));
  EXPECT_EQ(ready.message.at("received"), true);
  EXPECT_EQ(ready.message.at("accepted"), false);
  ASSERT_TRUE(node.WaitInfo(RunsScenario1, 2s));

  // Uploads: an escaping path is refused, a safe one is written (staged until published).
  EXPECT_THROW(
      node.connection().Request(
          "SaveNodeFile", Json(protocol::SaveNodeFileRequest{1, "stack", 1, "../../x"}), "bad"),
      protocol::RequestError);
  const protocol::Message saved = node.connection().Request(
      "SaveNodeFile", Json(protocol::SaveNodeFileRequest{1, "stack", 1, "maps/grid.csv"}), "1,2");
  EXPECT_EQ(saved.message.at("path"), "scenario_0001/nodes/stack/maps/grid.csv");
  std::ifstream file(NodeStagingFolder(temp.path(), 1) / "stack" / "maps" / "grid.csv");
  std::stringstream content;
  content << file.rdbuf();
  EXPECT_EQ(content.str(), "1,2");

  // worker_id and node_name may be left out (they are the connection's node's), but not be
  // another node's.
  const protocol::Message short_form = node.connection().Request(
      "SaveNodeFile", Json{{"scenario_number", 1}, {"relative_path", "log.txt"}}, "log");
  EXPECT_EQ(short_form.message.at("path"), "scenario_0001/nodes/stack/log.txt");
  try {
    node.connection().Request(
        "SaveNodeFile",
        Json{{"node_name", "other"}, {"scenario_number", 1}, {"relative_path", "x.txt"}}, "x");
    ADD_FAILURE() << "another node's name was accepted";
  } catch (const protocol::RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("is not the node registered on this connection"),
              std::string::npos)
        << error.what();
  }
}

TEST(NodeControlTest, ARerunTheFarmCannotHonourIsAnsweredNotAccepted) {
  for (const bool possible : {true, false}) {
    testutil::TempDir temp;
    ControlPlane plane(temp.path(), possible);
    RawNode node(plane);
    node.connection().Request("RegisterVehicleNode",
                              Json(protocol::NodeRegistration{1, "stack", "s3cret"}));
    node.connection().Request("NotifyReady",
                              Json(protocol::NotifyReadyRequest{1, "stack", 0, false, ""}));
    ASSERT_TRUE(node.WaitInfo(RunsScenario1, 2s));
    const protocol::Message answer = node.connection().Request(
        "NotifyReady", Json(protocol::NotifyReadyRequest{1, "stack", 1, true, "bad data"}));
    EXPECT_EQ(answer.message.at("accepted"), possible);
  }
}

TEST(NodeControlTest, AClosedNodeConnectionUnregistersTheNode) {
  testutil::TempDir temp;
  ControlPlane plane(temp.path());
  {
    RawNode node(plane);
    node.connection().Request("RegisterVehicleNode",
                              Json(protocol::NodeRegistration{1, "stack", "s3cret"}));
    for (int i = 0; i < 100 && plane.nodes() != 1; ++i) std::this_thread::sleep_for(20ms);
    EXPECT_EQ(plane.nodes(), 1u);
    EXPECT_THROW(node.connection().Request(
                     "NotifyReady", Json(protocol::NotifyReadyRequest{1, "other", 0, false, ""})),
                 protocol::RequestError)
        << "another node's name on this connection";
  }
  for (int i = 0; i < 100 && plane.nodes() != 0; ++i) std::this_thread::sleep_for(20ms);
  EXPECT_EQ(plane.nodes(), 0u);
  // The name is free again.
  RawNode again(plane);
  EXPECT_NO_THROW(again.connection().Request(
      "RegisterVehicleNode", Json(protocol::NodeRegistration{1, "stack", "s3cret"})));
}

}  // namespace
}  // namespace asg::client
