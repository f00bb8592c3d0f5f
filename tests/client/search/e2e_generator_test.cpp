// End-to-end tests of the "external" search strategy (docs/generator-protocol.md): the real
// asg-client and asg-worker run a small search whose scenarios a Python generator proposes
// (nodes/python/examples/random_generator.py, and tests/nodes/e2e_test_generator.py for the
// misbehaving kinds).
#include <gtest/gtest.h>

#include <optional>

#include "tests/client/e2e_test.h"

namespace asg::client::testing {
namespace {

using std::chrono::seconds;

const std::filesystem::path kSource = ASG_SOURCE_DIR;
const std::filesystem::path kPython = ASG_PYTHON3;
const std::filesystem::path kRandomGenerator =
    kSource / "nodes" / "python" / "examples" / "random_generator.py";
const std::filesystem::path kTestGenerator = kSource / "tests" / "nodes" / "e2e_test_generator.py";

// The small test batch with an external search of `budget` candidates, `generation_size` per
// generation, over up to 3 trees and 3 bushes.
Json ExternalBatch(int budget, double connect_timeout = 30.0, int generation_size = 8) {
  Json batch = testing::SmallBatch("external", Json::array());
  batch.erase("scenarios");
  batch["search"] = {
      {"strategy", "external"},
      {"budget", {{"scenarios", budget}}},
      {"generation_size", generation_size},
      {"strategy_settings", {{"connect_timeout", connect_timeout}, {"reply_timeout", 30}}},
      {"space",
       {{"classes",
         {{{"path_name", testing::kTree}, {"max_count", 3}, {"x", {0, 40}}, {"y", {0, 40}}},
          {{"path_name", testing::kBush}, {"max_count", 3}, {"x", {0, 40}}, {"y", {0, 40}}}}},
        {"start_clearance", 6},
        {"goal_clearance", 6},
        {"path_clearance", 2}}}};
  return batch;
}

// asg-client running `batch` into dir/<name> with `workers` local workers; its port is read
// from its log.
class Client {
 public:
  Client(const std::filesystem::path& dir, const std::string& name, const Json& batch, int workers)
      : out_(dir / name), output_(dir / (name + ".txt")) {
    WriteJson(dir / (name + ".json"), batch);
    child_.emplace(
        Executable("asg-client"),
        std::vector<std::string>{"run", (dir / (name + ".json")).string(), "--out", out_.string(),
                                 "--workers", std::to_string(workers), "--listen", "127.0.0.1:0"},
        output_);
    endpoint_ = testing::ListeningEndpoint(out_ / "asg_log.txt");
    EXPECT_FALSE(endpoint_.empty()) << ReadText(out_ / "asg_log.txt");
  }
  const std::string& endpoint() const { return endpoint_; }
  const std::filesystem::path& out() const { return out_; }
  std::string Output() const { return ReadText(output_) + ReadText(out_ / "asg_log.txt"); }
  int Wait() { return child_->Wait(seconds(90)); }

 private:
  std::filesystem::path out_;
  std::filesystem::path output_;
  std::optional<Child> child_;
  std::string endpoint_;
};

Child Generator(const std::filesystem::path& script, const Client& client,
                const std::filesystem::path& output, std::vector<std::string> extra = {}) {
  std::vector<std::string> arguments = {script.string(), "--connect", client.endpoint()};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  return Child(kPython, arguments, output);
}

std::string Folder(int number) {
  char folder[32];
  std::snprintf(folder, sizeof folder, "scenario_%04d", number);
  return folder;
}

TEST(ExternalGenerator, PythonRandomSearchCompletesASmallSearchTheSameWithOneAndTwoWorkers) {
  TempDir dir;
  std::filesystem::path outs[2];
  for (const int workers : {2, 1}) {
    Client client(dir.path(), "w" + std::to_string(workers), ExternalBatch(24), workers);
    Child generator =
        Generator(kRandomGenerator, client, dir.path() / ("g" + std::to_string(workers) + ".txt"));
    ASSERT_EQ(client.Wait(), 0) << client.Output() << generator.Output();
    EXPECT_EQ(generator.Wait(seconds(10)), 0) << generator.Output();
    EXPECT_NE(generator.Output().find("random_generator: search finished"), std::string::npos)
        << generator.Output();
    EXPECT_NE(client.Output().find("scenario generator 'random' registered"), std::string::npos);
    outs[workers - 1] = client.out();
  }
  const std::filesystem::path& out = outs[0];
  EXPECT_EQ(Json::parse(ReadText(out / "summary.json"))["total"], 24);
  for (int number = 1; number <= 24; ++number) {
    EXPECT_TRUE(testing::Result(out, number).contains("regret")) << number;
    const Json record = Json::parse(ReadText(out / Folder(number) / "search.json"));
    EXPECT_EQ(record["origin"], "random") << number;
    EXPECT_EQ(record["candidate_id"], number) << number;
    EXPECT_FALSE(record["obstacles"].empty()) << number;
  }
  // Three generations of 8, each told to the generator and logged.
  const std::string csv = ReadText(out / "search.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;
  testing::ExpectSameResults(outs[0], outs[1]);
  for (const char* file : {"search.csv", "search.json", "search_candidates.csv"}) {
    EXPECT_EQ(ReadText(outs[0] / file), ReadText(outs[1] / file)) << file;
  }
}

TEST(ExternalGenerator, RefusedProposalsAreReportedAndDrawnAgain) {
  TempDir dir;
  Client client(dir.path(), "out", ExternalBatch(16), 2);
  Child generator =
      Generator(kTestGenerator, client, dir.path() / "generator.txt", {"--mode", "outside-first"});
  ASSERT_EQ(client.Wait(), 0) << client.Output() << generator.Output();
  EXPECT_EQ(generator.Wait(seconds(10)), 0) << generator.Output();
  // Each ask's first proposal had a tree at x = 1000: refused with the reason, then drawn again.
  EXPECT_NE(generator.Output().find("refused: 0: obstacles["), std::string::npos)
      << generator.Output();
  EXPECT_NE(generator.Output().find(".x: 1000 is outside [0, 40] of class"), std::string::npos)
      << generator.Output();
  EXPECT_EQ(Json::parse(ReadText(client.out() / "summary.json"))["total"], 16);
  for (int number = 1; number <= 16; ++number) {
    const Json record = Json::parse(ReadText(client.out() / Folder(number) / "search.json"));
    for (const Json& obstacle : record["obstacles"]) EXPECT_LE(obstacle["x"], 40.0) << number;
  }
}

TEST(ExternalGenerator, EachCandidateIsToldTheDistinctFailureItsRunIsInFailuresCsv) {
  TempDir dir;
  Client client(dir.path(), "out", ExternalBatch(24), 2);
  Child generator =
      Generator(kTestGenerator, client, dir.path() / "generator.txt", {"--mode", "print-told"});
  ASSERT_EQ(client.Wait(), 0) << client.Output() << generator.Output();
  EXPECT_EQ(generator.Wait(seconds(10)), 0) << generator.Output();
  // One run per candidate and no listed scenarios: candidate n is scenario n, and the id told
  // during the search is the one the final pass wrote into its result.json.
  const std::string told = generator.Output();
  int failing = 0;
  for (int number = 1; number <= 24; ++number) {
    const Json result = testing::Result(client.out(), number);
    const std::string id =
        result.contains("failure_id") ? std::to_string(result["failure_id"].get<int>()) : "None";
    failing += result.contains("failure_id") ? 1 : 0;
    EXPECT_NE(told.find("told: " + std::to_string(number) + " " + id + "\n"), std::string::npos)
        << number << "\n"
        << told;
  }
  EXPECT_GT(failing, 0) << "a search without failures tells only nulls";
}

TEST(ExternalGenerator, AFailingGeneratorStopsTheSearchAndWhatRanIsKept) {
  TempDir dir;
  Client client(dir.path(), "out", ExternalBatch(40), 2);
  Child generator = Generator(kTestGenerator, client, dir.path() / "generator.txt",
                              {"--mode", "fail-second-ask"});
  EXPECT_EQ(client.Wait(), 1) << client.Output();
  generator.Wait(seconds(10));
  const std::string output = client.Output();
  EXPECT_NE(output.find("error: search stopped: scenario generator: ProposeScenarios"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("deliberate failure in the second ask"), std::string::npos) << output;
  // The first generation was proposed before the failure: it ran and was recorded.
  EXPECT_EQ(Json::parse(ReadText(client.out() / "summary.json"))["total"], 8);
  for (int number = 1; number <= 8; ++number) {
    EXPECT_EQ(testing::Result(client.out(), number)["status"], "done") << number;
  }
  EXPECT_FALSE(std::filesystem::exists(client.out() / Folder(9)));
}

TEST(ExternalGenerator, CandidatesAcceptedBeforeTheGeneratorLeftMidAskStillRun) {
  TempDir dir;
  Client client(dir.path(), "out", ExternalBatch(24, 30.0, 12), 2);
  Child generator = Generator(kTestGenerator, client, dir.path() / "generator.txt",
                              {"--mode", "exit-third-round"});
  EXPECT_EQ(client.Wait(), 1) << client.Output();
  generator.Wait(seconds(10));
  ASSERT_NE(generator.Output().find("exiting in round 2"), std::string::npos) << generator.Output();
  const std::string output = client.Output();
  EXPECT_NE(output.find("error: search stopped: scenario generator: "), std::string::npos)
      << output;
  // Rounds 0 and 1 of the first ask proposed 4 valid scenarios each: the 8 accepted run.
  EXPECT_EQ(Json::parse(ReadText(client.out() / "summary.json"))["total"], 8) << output;
  for (int number = 1; number <= 8; ++number) {
    EXPECT_EQ(testing::Result(client.out(), number)["status"], "done") << number;
  }
  EXPECT_FALSE(std::filesystem::exists(client.out() / Folder(9)));
}

TEST(ExternalGenerator, AGeneratorThatProposesNothingEndsTheSearchWithNoScenario) {
  TempDir dir;
  Client client(dir.path(), "out", ExternalBatch(8), 1);
  Child generator = Generator(kTestGenerator, client, dir.path() / "generator.txt",
                              {"--mode", "propose-nothing"});
  const int code = client.Wait();
  generator.Wait(seconds(10));
  const std::string output = client.Output();
  EXPECT_EQ(code, 0) << output;  // the client ends by itself, nothing ran, nothing failed
  EXPECT_EQ(Json::parse(ReadText(client.out() / "summary.json"))["total"], 0) << output;
  EXPECT_FALSE(std::filesystem::exists(client.out() / Folder(1)));
}

TEST(ExternalGenerator, NoGeneratorEndsWithAClearErrorAfterTheConnectTimeout) {
  TempDir dir;
  Client client(dir.path(), "out", ExternalBatch(8, 1.0), 1);
  EXPECT_EQ(client.Wait(), 1) << client.Output();
  EXPECT_NE(client.Output().find("waiting for a scenario generator on 127.0.0.1:"),
            std::string::npos);
  EXPECT_NE(client.Output().find("error: search stopped: no scenario generator registered "
                                 "within 1 s"),
            std::string::npos)
      << client.Output();
}

}  // namespace
}  // namespace asg::client::testing
