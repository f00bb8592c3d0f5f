// Helpers of the end-to-end tests: the real asg-client and asg-worker executables run as child
// processes (Boost.Process) with their output captured in files, plus small test batches.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/io.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace asg::client::testing {

/// An executable of this build: <build>/bin/<name>.
inline std::filesystem::path Executable(const std::string& name) {
  return std::filesystem::path(ASG_BINARY_DIR) / "bin" / name;
}

/// The whole content of a file, or "" when it cannot be read.
inline std::string ReadText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Writes a JSON document to a file.
inline void WriteJson(const std::filesystem::path& file, const nlohmann::json& json) {
  std::ofstream(file) << json.dump(2);
}

/// A running executable whose stdout and stderr go to `output`.
class Child {
 public:
  Child(const std::filesystem::path& executable, const std::vector<std::string>& arguments,
        const std::filesystem::path& output)
      : output_(output),
        child_(boost::process::exe = executable.string(), boost::process::args = arguments,
               (boost::process::std_out & boost::process::std_err) > output.string(),
               boost::process::std_in < boost::process::null) {}

  /// Waits for the exit and returns the exit code; kills the process and returns -1 when it
  /// is still running after `timeout`.
  int Wait(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (child_.running()) {
      if (std::chrono::steady_clock::now() > deadline) {
        child_.terminate();
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return child_.exit_code();
  }

  /// Sends a signal to the process.
  void Signal(int signal_number) { ::kill(child_.id(), signal_number); }

  /// The process id.
  int pid() const { return child_.id(); }

  /// What the process has written so far.
  std::string Output() const { return ReadText(output_); }

 private:
  std::filesystem::path output_;
  boost::process::child child_;
};

/// Runs an executable to its end (at most `timeout`) and returns its exit code.
inline int RunToEnd(const std::filesystem::path& executable,
                    const std::vector<std::string>& arguments, const std::filesystem::path& output,
                    std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  return Child(executable, arguments, output).Wait(timeout);
}

/// Waits until `file` contains `needle`; false after `timeout`.
inline bool WaitForText(const std::filesystem::path& file, const std::string& needle,
                        std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (ReadText(file).find(needle) == std::string::npos) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

/// "127.0.0.1:PORT" of a client listening on 127.0.0.1:0, read from its log (`farm_log`,
/// out/asg_log.txt) once it says "listening on"; empty when it does not within 20 s.
inline std::string ListeningEndpoint(const std::filesystem::path& farm_log) {
  if (!WaitForText(farm_log, "listening on", std::chrono::seconds(20))) return "";
  static const std::regex kListening("listening on 127\\.0\\.0\\.1:([0-9]+)");
  std::smatch match;
  const std::string text = ReadText(farm_log);
  return std::regex_search(text, match, kListening) ? "127.0.0.1:" + match[1].str() : "";
}

/// One structural scene actor layout of `count` instances of `path_name`.
inline nlohmann::json Actors(const std::string& path_name, const std::vector<double>& x,
                             const std::vector<double>& y) {
  const size_t n = x.size();
  return {{"path_name", path_name},
          {"num_instances", n},
          {"visible", std::vector<bool>(n, true)},
          {"cast_shadow", std::vector<bool>(n, true)},
          {"x", x},
          {"y", y},
          {"yaw", std::vector<double>(n, 0.0)},
          {"scale", std::vector<double>(n, 1.0)}};
}

/// Runs asg-client on `batch` into `out` with one local worker that hangs on `scenario`, and
/// interrupts the client (SIGINT) once that scenario has started. Returns the client's exit code,
/// or -2 when the scenario did not start within 30 s; `*output` gets what the client printed.
inline int RunInterruptedAt(const std::filesystem::path& batch, const std::filesystem::path& out,
                            int scenario, const std::filesystem::path& log, std::string* output) {
  Child client(Executable("asg-client"),
               {"run", batch.string(), "--out", out.string(), "--workers", "1", "--fault-inject",
                "hang-on=" + std::to_string(scenario)},
               log);
  const bool started =
      WaitForText(out / "asg_log.txt", "scenario " + std::to_string(scenario) + " started",
                  std::chrono::seconds(30));
  client.Signal(SIGINT);
  const int code = client.Wait(std::chrono::seconds(30));
  *output = client.Output();
  return started ? code : -2;
}

/// A tree class of configs/actors.json.
inline constexpr const char* kTree =
    "/Game/Blueprints/BP_SSA_Tree_Juniper_Rocky_Mountain_Field_Desktop";
/// A bush class of configs/actors.json.
inline constexpr const char* kBush = "/Game/Blueprints/BP_SSA_Bush_Barberry_Field_Desktop";

/// A small, fast batch: a 40 m landscape of 16 x 16 cells, the straight-line driver from
/// (8, 8) to (32, 32), short timeouts. `scenarios` lists the overrides.
inline nlohmann::json SmallBatch(const std::string& name, const nlohmann::json& scenarios,
                                 int max_attempts = 3, double scenario_timeout_s = 60.0) {
  nlohmann::json defaults = {{"sim_timeout_period", 12.0},
                             {"vehicle_idling_timeout_period", 3.0},
                             {"vehicle_stuck_timeout_period", 3.0},
                             {"allow_collisions", false},
                             {"vehicle_start_location", {{"x", 8.0}, {"y", 8.0}, {"z", 0.0}}},
                             {"vehicle_start_yaw", 45.0},
                             {"vehicle_goal_location", {{"x", 32.0}, {"y", 32.0}, {"z", 0.0}}},
                             {"goal_radius", 4.0},
                             {"scene_description",
                              {{"landscape", {{"nominal_size", 40.0}, {"subdivisions", 4}}},
                               {"sunlight_inclination", 30.0},
                               {"sunlight_yaw_angle", 0.0},
                               {"ssa_array", nlohmann::json::array()}}},
                             {"driver", {{"type", "straight"}, {"speed", 5.0}}}};
  return {{"name", name},
          {"seed", 5},
          {"max_attempts", max_attempts},
          {"scenario_timeout_s", scenario_timeout_s},
          {"defaults", defaults},
          {"scenarios", scenarios}};
}

/// `count` plain scenarios (each reaches the goal), numbered 1..count.
inline nlohmann::json PlainScenarios(int count) {
  nlohmann::json scenarios = nlohmann::json::array();
  for (int i = 0; i < count; ++i) scenarios.push_back(nlohmann::json::object());
  return scenarios;
}

/// Parsed DIR/scenario_NNNN/result.json (DIR/scenario_NNNN_<variant>/ with a variant).
inline nlohmann::json Result(const std::filesystem::path& out, int scenario_number,
                             const std::string& variant = "") {
  char folder[32];
  std::snprintf(folder, sizeof folder, "scenario_%04d", scenario_number);
  const std::string name = variant.empty() ? std::string(folder) : folder + ("_" + variant);
  return nlohmann::json::parse(ReadText(out / name / "result.json"));
}

/// Parsed DIR/scenario_NNNN/timing.json: the worker, wall time and every attempt with its outcome.
inline nlohmann::json Timing(const std::filesystem::path& out, int scenario_number) {
  char folder[32];
  std::snprintf(folder, sizeof folder, "scenario_%04d", scenario_number);
  return nlohmann::json::parse(ReadText(out / folder / "timing.json"));
}

/// The outcomes of timing.json's attempts in order, after checking they are numbered 1, 2, 3...
inline std::vector<std::string> AttemptOutcomes(const std::filesystem::path& out,
                                                int scenario_number) {
  std::vector<std::string> outcomes;
  const nlohmann::json timing = Timing(out, scenario_number);
  for (const nlohmann::json& attempt : timing["attempts"]) {
    EXPECT_EQ(attempt["attempt"].get<size_t>(), outcomes.size() + 1) << attempt.dump();
    outcomes.push_back(attempt["outcome"].get<std::string>());
  }
  return outcomes;
}

/// Expects every scenario folder's result.json and trajectory.csv to be byte-identical in
/// `a` and `b`, and both to hold the same scenario folders.
inline void ExpectSameResults(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::vector<std::string> folders;
  for (const auto& entry : std::filesystem::directory_iterator(a)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("scenario_", 0) == 0) folders.push_back(name);
  }
  size_t folders_b = 0;
  for (const auto& entry : std::filesystem::directory_iterator(b)) {
    folders_b += entry.path().filename().string().rfind("scenario_", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(folders.size(), folders_b);
  for (const std::string& folder : folders) {
    for (const char* file : {"result.json", "trajectory.csv", "request.json"}) {
      const std::string in_a = ReadText(a / folder / file);
      EXPECT_FALSE(in_a.empty()) << folder << "/" << file;
      EXPECT_EQ(in_a, ReadText(b / folder / file)) << folder << "/" << file;
    }
  }
}

}  // namespace asg::client::testing
