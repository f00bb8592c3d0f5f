// End-to-end tests of external vehicle nodes (docs/vehicle-nodes.md): the real asg-client,
// asg-worker and node executables (asg-node-straight, the Python straight node, the Python test
// node tests/nodes/e2e_test_node.py) over loopback, with real files.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <fstream>
#include <map>
#include <optional>
#include <regex>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

using std::chrono::seconds;

const std::filesystem::path kSource = ASG_SOURCE_DIR;
const std::filesystem::path kPython = ASG_PYTHON3;

/// SmallBatch driven by `count` vehicle nodes per worker (top-level vehicle_nodes).
Json NodeBatch(const std::string& name, int scenarios, int count = 1) {
  Json batch = SmallBatch(name, testing::PlainScenarios(scenarios));
  batch["vehicle_nodes"] = {{"count", count}, {"sync", true}};
  return batch;
}

/// An asg-client running `batch` with one local worker into dir/out; its port is read from its
/// log (out/asg_log.txt) once the worker is launched (the registry accepts nodes for worker 1
/// from then on).
class Farm {
 public:
  Farm(const std::filesystem::path& dir, const Json& batch)
      : out_(dir / "out"), log_(dir / "client.txt") {
    WriteJson(dir / "batch.json", batch);
    client_.emplace(
        Executable("asg-client"),
        std::vector<std::string>{"run", (dir / "batch.json").string(), "--out", out_.string(),
                                 "--workers", "1", "--listen", "127.0.0.1:0"},
        log_);
    const std::filesystem::path farm_log = out_ / "asg_log.txt";
    EXPECT_TRUE(WaitForText(farm_log, "launched worker 1", seconds(20))) << ReadText(log_);
    endpoint_ = testing::ListeningEndpoint(farm_log);
    EXPECT_FALSE(endpoint_.empty()) << ReadText(farm_log);
  }

  const std::string& endpoint() const { return endpoint_; }
  const std::filesystem::path& out() const { return out_; }
  /// The client's console output.
  const std::filesystem::path& log() const { return log_; }
  /// The client's log, out/asg_log.txt.
  std::filesystem::path farm_log() const { return out_ / "asg_log.txt"; }
  /// Waits for the client's exit (at most `timeout`); its exit code, -1 when killed.
  int Wait(std::chrono::milliseconds timeout) { return client_->Wait(timeout); }

 private:
  std::filesystem::path out_;
  std::filesystem::path log_;
  std::optional<Child> client_;
  std::string endpoint_;
};

/// asg-node-straight for worker 1, output in `output`.
Child CppStraightNode(const Farm& farm, const std::string& name,
                      const std::filesystem::path& output) {
  return Child(Executable("asg-node-straight"),
               {"--connect", farm.endpoint(), "--worker-id", "1", "--name", name}, output);
}

/// A Python node script for worker 1 with extra arguments, output in `output`.
Child PythonNode(const std::filesystem::path& script, const Farm& farm, const std::string& name,
                 const std::filesystem::path& output, std::vector<std::string> extra = {}) {
  std::vector<std::string> arguments = {
      script.string(), "--connect", farm.endpoint(), "--worker-id", "1", "--name", name};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  return Child(kPython, arguments, output);
}

const std::filesystem::path kPythonStraight =
    kSource / "nodes" / "python" / "examples" / "straight_node.py";
const std::filesystem::path kTestNode = kSource / "tests" / "nodes" / "e2e_test_node.py";

/// result.json's text without its counters' node_channel (their last field: the one a run with
/// external nodes adds to the built-in driver's, and the one that names the channel).
std::string WithoutNodeChannel(const std::string& text) {
  static const std::regex line(R"(,\n *"node_channel": "[a-z+]*")");
  return std::regex_replace(text, line, "");
}

/// Expects every scenario 1..count to be done with REASON_SUCCESS.
void ExpectAllSucceeded(const std::filesystem::path& out, int count) {
  for (int number = 1; number <= count; ++number) {
    const Json result = Result(out, number);
    EXPECT_EQ(result["status"], "done") << number;
    EXPECT_EQ(result["termination_reason_name"], "REASON_SUCCESS") << number;
  }
}

TEST(NodesEndToEnd, CppStraightNodeDrivesToTheGoal) {
  TempDir dir;
  Farm farm(dir.path(), NodeBatch("cpp_node", 2));
  ASSERT_FALSE(farm.endpoint().empty());
  Child node = CppStraightNode(farm, "straight", dir.path() / "node.txt");
  ASSERT_EQ(farm.Wait(seconds(60)), 0) << ReadText(farm.farm_log()) << node.Output();
  ExpectAllSucceeded(farm.out(), 2);
  EXPECT_EQ(Json::parse(
                ReadText(farm.out() / "scenario_0001" / "request.json"))["vehicle_nodes"]["count"],
            1);
  EXPECT_NE(ReadText(farm.farm_log()).find("node 'straight' registered for worker 1"),
            std::string::npos);
  EXPECT_EQ(node.Wait(seconds(10)), 0) << node.Output();  // it stops when the client closes
}

TEST(NodesEndToEnd, PythonStraightNodeDrivesToTheGoal) {
  TempDir dir;
  Farm farm(dir.path(), NodeBatch("python_node", 2));
  ASSERT_FALSE(farm.endpoint().empty());
  Child node = PythonNode(kPythonStraight, farm, "straight", dir.path() / "node.txt");
  ASSERT_EQ(farm.Wait(seconds(60)), 0) << ReadText(farm.farm_log()) << node.Output();
  ExpectAllSucceeded(farm.out(), 2);
  EXPECT_NE(ReadText(farm.farm_log()).find("node 'straight' registered for worker 1"),
            std::string::npos);
  EXPECT_EQ(node.Wait(seconds(10)), 0) << node.Output();
}

TEST(NodesEndToEnd, ExternalStraightNodeMatchesTheBuiltInDriverByteForByte) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "builtin");
  std::filesystem::create_directories(dir.path() / "node");
  Farm builtin(dir.path() / "builtin", SmallBatch("same", testing::PlainScenarios(2)));
  ASSERT_FALSE(builtin.endpoint().empty());
  ASSERT_EQ(builtin.Wait(seconds(60)), 0) << ReadText(builtin.farm_log());
  Json node_batch = NodeBatch("same", 2);
  Farm farm(dir.path() / "node", node_batch);
  ASSERT_FALSE(farm.endpoint().empty());
  Child node = CppStraightNode(farm, "straight", dir.path() / "node.txt");
  ASSERT_EQ(farm.Wait(seconds(60)), 0) << ReadText(farm.farm_log()) << node.Output();
  ExpectAllSucceeded(farm.out(), 2);
  for (const char* folder : {"scenario_0001", "scenario_0002"}) {
    const std::string trajectory = ReadText(builtin.out() / folder / "trajectory.csv");
    EXPECT_FALSE(trajectory.empty()) << folder;
    EXPECT_EQ(ReadText(farm.out() / folder / "trajectory.csv"), trajectory) << folder;
    // result.json: the same but for the node's channel, which the built-in driver's lacks.
    const std::string expected = ReadText(builtin.out() / folder / "result.json");
    EXPECT_EQ(expected.find("node_channel"), std::string::npos) << folder;
    EXPECT_EQ(WithoutNodeChannel(ReadText(farm.out() / folder / "result.json")), expected)
        << folder;
  }
  node.Wait(seconds(10));
}

TEST(NodesEndToEnd, TheSameHostSocketAndTcpGiveIdenticalResults) {
  TempDir dir;
  std::map<std::string, std::filesystem::path> outs;
  // The node connects to its worker's loopback endpoint: the same-host socket by default, TCP
  // with ASG_LOCAL_CHANNEL=off.
  for (const std::string channel : {"unix", "tcp"}) {
    std::filesystem::create_directories(dir.path() / channel);
    Farm farm(dir.path() / channel, NodeBatch("channel", 2));
    ASSERT_FALSE(farm.endpoint().empty());
    Child node("/usr/bin/env",
               {"ASG_LOCAL_CHANNEL=" + std::string(channel == "unix" ? "on" : "off"),
                Executable("asg-node-straight").string(), "--connect", farm.endpoint(),
                "--worker-id", "1", "--name", "straight"},
               dir.path() / (channel + "_node.txt"));
    ASSERT_EQ(farm.Wait(seconds(60)), 0) << ReadText(farm.farm_log()) << node.Output();
    ExpectAllSucceeded(farm.out(), 2);
    EXPECT_EQ(Result(farm.out(), 1)["counters"]["node_channel"], channel);
    outs[channel] = farm.out();
    node.Wait(seconds(10));
  }
  for (const char* folder : {"scenario_0001", "scenario_0002"}) {
    EXPECT_EQ(ReadText(outs["unix"] / folder / "trajectory.csv"),
              ReadText(outs["tcp"] / folder / "trajectory.csv"))
        << folder;
    EXPECT_EQ(WithoutNodeChannel(ReadText(outs["unix"] / folder / "result.json")),
              WithoutNodeChannel(ReadText(outs["tcp"] / folder / "result.json")))
        << folder;
  }
}

TEST(NodesEndToEnd, PythonNodeTakesTheSameHostSocket) {
  TempDir dir;
  Farm farm(dir.path(), NodeBatch("python_unix", 1));
  ASSERT_FALSE(farm.endpoint().empty());
  Child node = PythonNode(kPythonStraight, farm, "straight", dir.path() / "node.txt");
  ASSERT_EQ(farm.Wait(seconds(60)), 0) << ReadText(farm.farm_log()) << node.Output();
  ExpectAllSucceeded(farm.out(), 1);
  EXPECT_EQ(Result(farm.out(), 1)["counters"]["node_channel"], "unix");
  node.Wait(seconds(10));
}

/// A loopback port that was free a moment ago.
std::string FreeLoopbackEndpoint() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(
      io, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  return "127.0.0.1:" + std::to_string(acceptor.local_endpoint().port());
}

/// The stack demo batch (camera-driven asg-node-stack) with 3 layouts and `count` nodes.
Json StackBatch(int count) {
  std::ifstream file(kSource / "configs" / "batches" / "stack_demo.json");
  Json batch = Json::parse(file);
  batch["generate"]["count"] = 3;
  batch["vehicle_nodes"]["count"] = count;
  return batch;
}

TEST(NodesEndToEnd, TheStackAsThreeNodeProcessesDrivesExactlyAsTheOneProcessStack) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "one");
  std::filesystem::create_directories(dir.path() / "three");
  Farm one(dir.path() / "one", StackBatch(1));
  ASSERT_FALSE(one.endpoint().empty());
  Child stack(Executable("asg-node-stack"),
              {"--connect", one.endpoint(), "--worker-id", "1", "--name", "stack"},
              dir.path() / "stack.txt");
  ASSERT_EQ(one.Wait(seconds(90)), 0) << ReadText(one.farm_log()) << stack.Output();

  Farm three(dir.path() / "three", StackBatch(3));
  ASSERT_FALSE(three.endpoint().empty());
  const std::string mapper_port = FreeLoopbackEndpoint(), planner_port = FreeLoopbackEndpoint();
  const auto role = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> arguments = {
        "--connect", three.endpoint(), "--worker-id", "1", "--name", name, "--role", name};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return Child(Executable("asg-node-stack"), arguments, dir.path() / (name + ".txt"));
  };
  Child mapper = role("mapper", {"--listen", mapper_port});
  Child planner = role("planner", {"--listen", planner_port, "--mapper", mapper_port});
  Child follower = role("follower", {"--planner", planner_port});
  ASSERT_EQ(three.Wait(seconds(90)), 0)
      << ReadText(three.farm_log()) << mapper.Output() << planner.Output() << follower.Output();

  ExpectAllSucceeded(three.out(), 3);
  for (const char* folder : {"scenario_0001", "scenario_0002", "scenario_0003"}) {
    for (const char* file : {"result.json", "trajectory.csv"}) {
      const std::string expected = ReadText(one.out() / folder / file);
      EXPECT_FALSE(expected.empty()) << folder << "/" << file;
      EXPECT_EQ(ReadText(three.out() / folder / file), expected) << folder << "/" << file;
    }
    // The follower's path and the mapper's votes are the one-process stack's.
    EXPECT_EQ(ReadText(three.out() / folder / "nodes" / "follower" / "last_path.csv"),
              ReadText(one.out() / folder / "nodes" / "stack" / "last_path.csv"));
    EXPECT_EQ(ReadText(three.out() / folder / "nodes" / "mapper" / "votes.pgm"),
              ReadText(one.out() / folder / "nodes" / "stack" / "votes.pgm"));
  }
  EXPECT_EQ(Json::parse(
                ReadText(three.out() / "scenario_0001" / "request.json"))["vehicle_nodes"]["count"],
            3);
}

TEST(NodesEndToEnd, KilledNodePreemptsAndTheScenarioCompletesWithTheNextNode) {
  TempDir dir;
  Farm farm(dir.path(), NodeBatch("killed", 1));
  ASSERT_FALSE(farm.endpoint().empty());
  // A slow node (20 ms per tick) so that the run is still going when it is killed.
  std::optional<Child> slow;
  slow.emplace(PythonNode(kTestNode, farm, "n", dir.path() / "slow.txt", {"--step-delay", "0.02"}));
  ASSERT_TRUE(WaitForText(farm.farm_log(), "scenario 1 started", seconds(30)))
      << ReadText(farm.farm_log());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  slow->Signal(SIGKILL);
  slow->Wait(seconds(5));
  ASSERT_TRUE(WaitForText(farm.farm_log(), "node 'n' of worker 1 left", seconds(10)))
      << ReadText(farm.farm_log());
  Child next = CppStraightNode(farm, "n", dir.path() / "next.txt");
  ASSERT_EQ(farm.Wait(seconds(60)), 0) << ReadText(farm.farm_log()) << next.Output();
  const Json result = Result(farm.out(), 1);
  EXPECT_EQ(result["status"], "done");
  EXPECT_EQ(result["termination_reason_name"], "REASON_SUCCESS");
  // The preemption is one attempt, counted in timing.json only; result.json has no rerun.
  const std::vector<std::string> outcomes = testing::AttemptOutcomes(farm.out(), 1);
  ASSERT_GE(outcomes.size(), 2u);
  EXPECT_EQ(outcomes.front(), "preempted");
  EXPECT_EQ(outcomes.back(), "done");
  EXPECT_FALSE(result.contains("attempts"));
  EXPECT_TRUE(result["reruns"].empty());
  next.Wait(seconds(10));
}

TEST(NodesEndToEnd, ARerunRequestIsHonouredOnce) {
  TempDir dir;
  Farm farm(dir.path(), NodeBatch("rerun", 1));
  ASSERT_FALSE(farm.endpoint().empty());
  Child node =
      PythonNode(kTestNode, farm, "asker", dir.path() / "node.txt", {"--request-rerun-once"});
  ASSERT_EQ(farm.Wait(seconds(60)), 0) << ReadText(farm.farm_log()) << node.Output();
  const Json result = Result(farm.out(), 1);
  EXPECT_EQ(result["status"], "done");
  EXPECT_EQ(result["termination_reason_name"], "REASON_SUCCESS");
  ASSERT_EQ(result["reruns"].size(), 1u) << result.dump();
  EXPECT_EQ(result["reruns"][0]["node_name"], "asker");
  EXPECT_EQ(result["reruns"][0]["reason"], "test rerun of scenario 1");
  // The rerun ran attempt 1 again: two attempts in timing.json, numbered as the rerun says.
  EXPECT_EQ(result["reruns"][0]["attempt"], 1);
  EXPECT_EQ(testing::AttemptOutcomes(farm.out(), 1),
            (std::vector<std::string>{"rerun requested", "done"}));
  const Json summary = Json::parse(ReadText(farm.out() / "summary.json"));
  EXPECT_EQ(summary["scenarios"][0]["attempts"], 2);
  node.Wait(seconds(10));
}

TEST(NodesEndToEnd, NodeFilesLandInTheScenarioFolderAndEscapesAreRefused) {
  TempDir dir;
  Farm farm(dir.path(), NodeBatch("files", 1));
  ASSERT_FALSE(farm.endpoint().empty());
  Child node = PythonNode(kTestNode, farm, "saver", dir.path() / "node.txt",
                          {"--upload", "logs/run.txt", "--upload", "../../x"});
  ASSERT_EQ(farm.Wait(seconds(60)), 0) << ReadText(farm.farm_log()) << node.Output();
  EXPECT_EQ(ReadText(farm.out() / "scenario_0001" / "nodes" / "saver" / "logs" / "run.txt"),
            "scenario 1\n");
  node.Wait(seconds(10));
  const std::string output = node.Output();
  EXPECT_NE(output.find("upload ../../x refused"), std::string::npos) << output;
  EXPECT_FALSE(std::filesystem::exists(farm.out() / "scenario_0001" / "x"));
  EXPECT_FALSE(std::filesystem::exists(farm.out() / "x"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "x"));
}

}  // namespace
}  // namespace asg::client::testing
