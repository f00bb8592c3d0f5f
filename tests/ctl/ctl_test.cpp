// Tests for ctl/ctl.h: asg-ctl against a scripted interactive worker, in-process (RunCtl) and as
// the built binary.
#include "ctl/ctl.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "protocol/io_threads.h"
#include "protocol/server.h"
#include "tests/ctl/scripted_worker.h"
#include "tests/temp_dir.h"

namespace asg::ctl {
namespace {

using json::Json;
using protocol::Message;
using testing::ScriptedWorker;
using testing::SharedTextBuffer;

/// What one run of asg-ctl printed and returned.
struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

/// Runs RunCtl in-process with args.
Outcome Ctl(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  Outcome outcome;
  outcome.code = RunCtl(args, out, err);
  outcome.out = out.str();
  outcome.err = err.str();
  return outcome;
}

/// The lines of text, without their newlines.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

/// The whole content of a file, or "" when it cannot be read.
std::string ReadBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// A port on 127.0.0.1 that nothing listens on (a server's, stopped).
uint16_t ClosedPort() {
  protocol::IoThreads io(1);
  protocol::Server server(io.context().get_executor(), "127.0.0.1", 0, {}, [](auto) {});
  const uint16_t port = server.port();
  server.Stop();
  return port;
}

TEST(CtlCall, PrintsTheReplyBodyAsPrettyJsonAndExitsZero) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "GetSimulationState"});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  const Json body = Json::parse(outcome.out);
  EXPECT_EQ(body["result"]["result"], 1);
  EXPECT_EQ(body["state"]["state"], 2);
  EXPECT_EQ(outcome.out, body.dump(2) + "\n");  // two-space indentation
  ASSERT_EQ(worker.Received().size(), 1u);
  EXPECT_EQ(worker.Received()[0].message, Json::object());  // the body defaults to {}
}

TEST(CtlCall, SendsTheJsonArgumentAsTheRequestBody) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "GetEntities", R"({"filters": {"tags": ["x"]}})"});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  EXPECT_EQ(Json::parse(outcome.out)["request"], Json::parse(R"({"filters": {"tags": ["x"]}})"));
}

TEST(CtlCall, AResultOtherThanOkExitsOneNamingTheCode) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "StepSimulation", R"({"steps": 1})"});
  EXPECT_EQ(outcome.code, kCtlExitError);
  EXPECT_EQ(Json::parse(outcome.out)["result"]["result"], 3);
  EXPECT_NE(outcome.err.find("asg-ctl: StepSimulation at " + worker.address() +
                             ": result 3 (RESULT_INCORRECT_STATE): the simulation is not paused"),
            std::string::npos)
      << outcome.err;
}

TEST(CtlCall, SuccessFalseExitsOne) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "StartSimulation"});
  EXPECT_EQ(outcome.code, kCtlExitError);
  EXPECT_EQ(Json::parse(outcome.out)["success"], false);
  EXPECT_NE(outcome.err.find("success false: no scenario loaded"), std::string::npos)
      << outcome.err;
}

TEST(CtlCall, AnUnknownServiceGetsTheErrorReplyAndExitsOne) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "NoSuchService"});
  EXPECT_EQ(outcome.code, kCtlExitError);
  const Json body = Json::parse(outcome.out);
  EXPECT_EQ(body["success"], false);
  EXPECT_NE(body["description"].get<std::string>().find("NoSuchService"), std::string::npos);
  EXPECT_NE(outcome.err.find("asg-ctl: NoSuchService at " + worker.address()), std::string::npos)
      << outcome.err;
}

TEST(CtlList, PrintsAnAlignedTableOfTheServices) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "--list"});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  EXPECT_EQ(Lines(outcome.out), (std::vector<std::string>{
                                    "GetSimulationState  simulation_interfaces  the simulation's "
                                    "state",
                                    "StartSimulation     roadrunner_sse         plays",
                                    "ListServices        farm",
                                }));
  ASSERT_EQ(worker.Received().size(), 1u);
  EXPECT_EQ(worker.Received()[0].type, "ListServices");
}

TEST(CtlAttachments, ImagesAreSavedAsSlicesWithSanitizedNames) {
  ScriptedWorker worker;
  testutil::TempDir dir;
  const std::filesystem::path out_dir = dir.path() / "captures" / "now";  // created on demand
  const Outcome outcome = Ctl({worker.address(), "CaptureScene", "--out", out_dir.string()});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  EXPECT_EQ(ReadBytes(out_dir / "a.png"), "ABC");
  EXPECT_EQ(ReadBytes(out_dir / "b_.._c.png"), "DE");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(out_dir), {}), 2);
  const Json body = Json::parse(outcome.out);
  EXPECT_EQ(body["images"][0]["saved"], (out_dir / "a.png").string());
  EXPECT_EQ(body["images"][1]["saved"], (out_dir / "b_.._c.png").string());
  EXPECT_EQ(body["images"][1]["name"], "b/../c");
  EXPECT_NE(outcome.err.find((out_dir / "a.png").string()), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find((out_dir / "b_.._c.png").string()), std::string::npos);
}

TEST(CtlAttachments, ReadingsAreSavedAsBinFilesByteForByte) {
  ScriptedWorker worker;
  testutil::TempDir dir;
  const Outcome outcome =
      Ctl({worker.address(), "SampleSensorsCommand_ID", "--out", dir.path().string()});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  EXPECT_EQ(ReadBytes(dir.path() / "lidar_front.bin"), testing::kReadingBytes.substr(0, 4));
  EXPECT_EQ(ReadBytes(dir.path() / "imu.bin"), testing::kReadingBytes.substr(4, 2));
  EXPECT_EQ(Json::parse(outcome.out)["readings"][0]["saved"],
            (dir.path() / "lidar_front.bin").string());
}

TEST(CtlAttachments, AnAttachmentNoItemDescribesIsSavedWholeUnderTheServiceName) {
  ScriptedWorker worker;
  testutil::TempDir dir;
  const Outcome outcome = Ctl({worker.address(), "GetResult", "-o", dir.path().string()});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  EXPECT_EQ(ReadBytes(dir.path() / "GetResult.bin"), testing::kResultBytes);
  EXPECT_EQ(Json::parse(outcome.out)["saved"], (dir.path() / "GetResult.bin").string());
}

TEST(CtlAttachments, TheDefaultFolderIsTheCurrentDirectory) {
  ScriptedWorker worker;
  testutil::TempDir dir;
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  const Outcome outcome = Ctl({worker.address(), "CaptureScene"});
  std::filesystem::current_path(before);
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  EXPECT_EQ(ReadBytes(dir.path() / "a.png"), "ABC");
  EXPECT_EQ(Json::parse(outcome.out)["images"][0]["saved"], "a.png");
}

TEST(CtlAction, PrintsEachFeedbackOfItsGoalOnErrAndTheResultOnOut) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "SimulateSteps", R"({"steps": 3})"});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  // The reply, then the result, both pretty.
  const std::string reply = Json{{"accepted", true}, {"goal_id", 7}}.dump(2) + "\n";
  ASSERT_EQ(outcome.out.substr(0, reply.size()), reply);
  const Json result = Json::parse(outcome.out.substr(reply.size()));
  EXPECT_EQ(result["goal_id"], 7);
  EXPECT_EQ(result["result"]["result"], 1);
  // Three compact feedback lines of goal 7; goal 99's is not printed.
  std::vector<std::string> feedback;
  for (const std::string& line : Lines(outcome.err)) {
    if (line.starts_with("{")) feedback.push_back(line);
  }
  ASSERT_EQ(feedback.size(), 3u) << outcome.err;
  EXPECT_EQ(feedback[0], R"({"goal_id":7,"completed_steps":1,"remaining_steps":2})");
  EXPECT_EQ(Json::parse(feedback[2])["remaining_steps"], 0);
}

TEST(CtlAction, PrintsTheFeedbackOfALongGoalOncePerPercent) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "SimulateSteps", R"({"steps": 400})"});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  std::vector<int64_t> printed;
  for (const std::string& line : Lines(outcome.err)) {
    if (line.starts_with("{")) printed.push_back(Json::parse(line)["completed_steps"]);
  }
  // 400 feedback frames: the first, then one every 4 steps (each further percent).
  ASSERT_EQ(printed.size(), 101u) << outcome.err;
  EXPECT_EQ(printed[0], 1);
  EXPECT_EQ(printed[1], 4);
  EXPECT_EQ(printed[100], 400);
}

TEST(CtlAction, NotAcceptedExitsOne) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "SimulateSteps", R"({"steps": 0})"});
  EXPECT_EQ(outcome.code, kCtlExitError);
  EXPECT_EQ(Json::parse(outcome.out)["accepted"], false);
  EXPECT_NE(outcome.err.find("not accepted: steps must be positive"), std::string::npos)
      << outcome.err;
}

TEST(CtlAction, SigintCancelsTheGoalAndTheCancelledResultExitsOne) {
  ScriptedWorker worker;
  SharedTextBuffer out_text;
  SharedTextBuffer err_text;
  std::ostream out(&out_text);
  std::ostream err(&err_text);
  int code = -1;
  std::thread ctl([&] {
    code = RunCtl({worker.address(), "SimulateSteps", R"({"steps": 1000})"}, out, err);
  });
  ASSERT_TRUE(err_text.WaitFor(R"("goal_id":7,"completed_steps":1)")) << err_text.str();
  ::kill(::getpid(), SIGINT);
  ctl.join();
  EXPECT_EQ(code, kCtlExitError);
  EXPECT_NE(err_text.str().find("cancelling goal 7"), std::string::npos) << err_text.str();
  EXPECT_NE(err_text.str().find("result 4 (RESULT_OPERATION_FAILED): cancelled"),
            std::string::npos);
  const std::vector<Message> received = worker.Received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[1].type, "CancelSimulateSteps");
  EXPECT_EQ(received[1].message, (Json{{"goal_id", 7}}));
}

TEST(CtlFollow, PrintsEveryEventAsOneLineUntilTheConnectionCloses) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "SubscribeEvents", "--follow"});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  const std::string reply = Json{{"success", true}}.dump(2) + "\n";
  EXPECT_EQ(outcome.out, reply + "{\"seq\":1}\n{\"seq\":2}\n");
}

TEST(CtlFollow, SigtermEndsFollowingWithExitZero) {
  ScriptedWorker worker;
  SharedTextBuffer out_text;
  std::ostream out(&out_text);
  std::ostringstream err;
  int code = -1;
  std::thread ctl([&] {
    code = RunCtl({worker.address(), "SubscribeEvents", R"({"keep_open": true})", "-f"}, out, err);
  });
  ASSERT_TRUE(out_text.WaitFor("{\"seq\":2}\n")) << out_text.str();
  ::kill(::getpid(), SIGTERM);
  ctl.join();
  EXPECT_EQ(code, kCtlExitOk) << err.str();
}

TEST(CtlToken, TheRightTokenIsPresentedFirst) {
  ScriptedWorker worker("s3cret");
  const Outcome outcome = Ctl({worker.address(), "GetSimulationState", "--token", "s3cret"});
  ASSERT_EQ(outcome.code, kCtlExitOk) << outcome.err;
  const std::vector<Message> received = worker.Received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].type, "Hello");
  EXPECT_EQ(received[0].message, (Json{{"token", "s3cret"}}));
  EXPECT_EQ(received[1].type, "GetSimulationState");
}

TEST(CtlToken, TheTokenComesFromAsgTokenWithoutTokenOption) {
  ScriptedWorker worker("from-env");
  ::setenv("ASG_TOKEN", "from-env", 1);
  const Outcome outcome = Ctl({worker.address(), "GetSimulationState"});
  ::unsetenv("ASG_TOKEN");
  EXPECT_EQ(outcome.code, kCtlExitOk) << outcome.err;
}

TEST(CtlToken, AWrongTokenExitsOne) {
  ScriptedWorker worker("s3cret");
  const Outcome outcome = Ctl({worker.address(), "GetSimulationState", "--token", "wrong"});
  EXPECT_EQ(outcome.code, kCtlExitError);
  EXPECT_NE(outcome.err.find(worker.address() + " refused the token: token refused"),
            std::string::npos)
      << outcome.err;
  EXPECT_EQ(worker.Received().size(), 1u);  // the service was never called
}

TEST(CtlToken, NoTokenForAWorkerThatWantsOneIsAConnectionFailure) {
  ScriptedWorker worker("s3cret");
  const Outcome outcome = Ctl({worker.address(), "GetSimulationState"});
  EXPECT_EQ(outcome.code, kCtlExitConnection);
  EXPECT_NE(outcome.err.find("ASG_TOKEN"), std::string::npos) << outcome.err;
}

TEST(CtlConnection, APortNothingListensOnExitsThree) {
  const std::string address = "127.0.0.1:" + std::to_string(ClosedPort());
  const Outcome outcome = Ctl({address, "GetSimulationState"});
  EXPECT_EQ(outcome.code, kCtlExitConnection);
  EXPECT_NE(outcome.err.find("asg-ctl: connecting to " + address), std::string::npos)
      << outcome.err;
  EXPECT_EQ(outcome.out, "");
}

TEST(CtlConnection, AConnectionClosedBeforeTheReplyExitsThree) {
  ScriptedWorker worker;
  const Outcome outcome = Ctl({worker.address(), "Drop"});
  EXPECT_EQ(outcome.code, kCtlExitConnection);
  EXPECT_NE(outcome.err.find("asg-ctl: Drop at " + worker.address()), std::string::npos)
      << outcome.err;
}

TEST(CtlConnection, NoReplyWithinTheTimeoutExitsThree) {
  ScriptedWorker worker;
  const auto start = std::chrono::steady_clock::now();
  const Outcome outcome = Ctl({worker.address(), "Silent", "--timeout", "0.2"});
  EXPECT_EQ(outcome.code, kCtlExitConnection);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_NE(outcome.err.find("no reply within 200 ms"), std::string::npos) << outcome.err;
}

TEST(CtlUsage, AMalformedJsonArgumentExitsTwoNamingIt) {
  const Outcome outcome = Ctl({"127.0.0.1:1", "GetEntities", "{\"a\": "});
  EXPECT_EQ(outcome.code, kCtlExitUsage);
  EXPECT_NE(outcome.err.find("asg-ctl: the JSON argument '{\"a\": ' does not parse"),
            std::string::npos)
      << outcome.err;
}

TEST(CtlUsage, AJsonArgumentThatIsNotAnObjectExitsTwo) {
  const Outcome outcome = Ctl({"127.0.0.1:1", "GetEntities", "[1, 2]"});
  EXPECT_EQ(outcome.code, kCtlExitUsage);
  EXPECT_NE(outcome.err.find("'[1, 2]' is array, expected an object"), std::string::npos)
      << outcome.err;
}

TEST(CtlUsage, MissingArgumentsExitTwo) {
  EXPECT_EQ(Ctl({}).code, kCtlExitUsage);
  const Outcome outcome = Ctl({"127.0.0.1:7000"});
  EXPECT_EQ(outcome.code, kCtlExitUsage);
  EXPECT_NE(outcome.err.find("no SERVICE given after 127.0.0.1:7000"), std::string::npos)
      << outcome.err;
  EXPECT_EQ(Ctl({"no-port", "GetSimulationState"}).code, kCtlExitUsage);
  EXPECT_EQ(Ctl({"127.0.0.1:7000", "A", "{}", "extra"}).code, kCtlExitUsage);
}

TEST(CtlUsage, HelpExitsZeroAndNamesEveryOptionAndExitCode) {
  const Outcome outcome = Ctl({"--help"});
  EXPECT_EQ(outcome.code, kCtlExitOk);
  for (const char* text : {"--help", "--list", "--token", "ASG_TOKEN", "--out", "--timeout",
                           "--follow", "HOST:PORT SERVICE", "Exit codes: 0 success",
                           "1 an error result", "2 usage", "3 connection"}) {
    EXPECT_NE(outcome.out.find(text), std::string::npos) << text;
  }
}

/// Runs the built asg-ctl with a shell command line; its exit code, or -1.
int RunBinary(const std::string& arguments, const std::filesystem::path& out_file) {
  const std::string command = std::string("'") + ASG_BINARY_DIR + "/bin/asg-ctl' " + arguments +
                              " > '" + out_file.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CtlBinary, ExitCodesOfTheBuiltExecutable) {
  ScriptedWorker worker;
  testutil::TempDir dir;
  const std::filesystem::path out = dir.path() / "out.txt";
  EXPECT_EQ(RunBinary(worker.address() + " GetSimulationState", out), kCtlExitOk);
  EXPECT_EQ(Json::parse(ReadBytes(out))["state"]["state"], 2);
  EXPECT_EQ(RunBinary(worker.address() + " StepSimulation '{\"steps\": 1}'", out), kCtlExitError);
  EXPECT_EQ(RunBinary(worker.address() + " GetEntities '{oops'", out), kCtlExitUsage);
  EXPECT_EQ(RunBinary("127.0.0.1:" + std::to_string(ClosedPort()) + " GetSimulationState", out),
            kCtlExitConnection);
}

}  // namespace
}  // namespace asg::ctl
