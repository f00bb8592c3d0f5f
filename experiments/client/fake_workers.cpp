// fake_workers: a load generator for asg-client. One process holds N worker connections to the
// client and speaks the farm protocol on each exactly as asg-worker does (worker/worker_session.h),
// but simulates nothing: every RunScenario is answered with a precomputed AnalyzeScenario.
//
// Conversation of each fake worker (the order asg-worker's session keeps):
//   RegisterWorker {worker_id, token, pid}        <- RegisterWorkerResponse
//   StatusCode {ONLINE_AND_READY}
//   <- RunScenario {request}                      -> RunScenarioResponse {received: true}
//   StatusCode {ONLINE_AND_RUNNING}
//   (--delay-ms later) AnalyzeScenario {result}   <- AnalyzeScenarioResponse
//   StatusCode {ONLINE_AND_READY}                 ... and again for the next RunScenario
// The AnalyzeScenario is a ten-sample straight run ending REASON_SUCCESS, no captures, with the
// trajectory packed in the frame attachment as asg-worker sends it (protocol/trajectory_codec.h).
// A RunScenario for the scenario held is acknowledged again; one for another while busy gets an
// Error, as asg-worker answers.
//
// Every connection is made first, then all register. The process runs until the client has
// closed every connection, then prints one JSON line (connections made, registered, scenarios
// answered, time to connect, wall time) and exits 0; 1 when a connection could not be made or
// registered, 2 on a bad command line.
//
//   fake_workers --connect 127.0.0.1:7000 --workers 1000 [--delay-ms 0] [--token T] [--threads 1]
#include <unistd.h>

#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/open_files.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/messages_json.h"
#include "protocol/server.h"
#include "protocol/trajectory_codec.h"
#include "protocol/typed_connection.h"
#include "protocol/worker_registration.h"

namespace asg::experiments {
namespace {

using json::Json;
using SteadyClock = std::chrono::steady_clock;

/// How long the client may take to answer a request (as asg-worker's kReplyTimeout).
constexpr std::chrono::milliseconds kReplyTimeout{30'000};
/// How long one connection attempt may take (as asg-worker's kConnectTimeout).
constexpr std::chrono::milliseconds kConnectTimeout{2'000};
/// Pause between attempts while the client is not listening yet.
constexpr std::chrono::milliseconds kRetryPeriod{100};
/// Samples in the precomputed trajectory.
constexpr int kTrajectorySamples = 10;
/// [s] between trajectory samples.
constexpr double kSamplePeriod = 0.1;

/// The command line.
struct Options {
  std::string connect;                 ///< "HOST:PORT" of the client
  uint32_t workers = 1;                ///< connections, with worker ids 1..workers
  std::chrono::milliseconds delay{0};  ///< [ms] between RUNNING and the AnalyzeScenario
  std::string token;                   ///< presented at registration
  int threads = 1;                     ///< io threads
  std::chrono::milliseconds connect_window{10'000};  ///< [ms] keep trying to connect this long
};

constexpr const char* kUsage =
    "Usage: fake_workers --connect HOST:PORT [--workers N] [--delay-ms D] [--token T]\n"
    "                    [--threads K] [--connect-window-s S]\n"
    "\n"
    "Opens N worker connections (worker ids 1..N, 1..65535) to an asg-client and answers every\n"
    "RunScenario as asg-worker would, without simulating: RunScenarioResponse, StatusCode\n"
    "RUNNING, D ms later a precomputed AnalyzeScenario (ten samples, REASON_SUCCESS), StatusCode\n"
    "READY. Runs until the client has closed every connection, then prints one JSON line:\n"
    "{\"workers\", \"connections\", \"registered\", \"scenarios_answered\", \"results_refused\",\n"
    "\"connect_s\", \"wall_s\"}. Exit codes: 0 every connection served, 1 a connection\n"
    "failed, 2 usage.\n"
    "\n"
    "  --connect HOST:PORT    the client's address (required)\n"
    "  --workers N            connections, 1..65535 (default 1)\n"
    "  --delay-ms D           [ms] from RUNNING to AnalyzeScenario, >= 0 (default 0)\n"
    "  --token T              token presented at registration (default: $ASG_TOKEN)\n"
    "  --threads K            io threads, 1..64 (default 1)\n"
    "  --connect-window-s S   [s] keep trying to connect while the client does not listen\n"
    "                         (default 10)\n";

/// Parses an integer option in [low, high]; throws std::invalid_argument naming the option.
int64_t ParseInteger(std::string_view name, std::string_view text, int64_t low, int64_t high) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < low || value > high) {
    throw std::invalid_argument(std::string(name) + " \"" + std::string(text) +
                                "\" is not an integer in " + std::to_string(low) + ".." +
                                std::to_string(high));
  }
  return value;
}

/// Parses the command line; nullopt after --help. Throws std::invalid_argument on a bad one.
std::optional<Options> ParseOptions(int argc, char** argv) {
  Options options;
  if (const char* token = std::getenv("ASG_TOKEN")) options.token = token;
  for (int i = 1; i < argc; ++i) {
    const std::string_view name = argv[i];
    if (name == "--help" || name == "-h") return std::nullopt;
    if (i + 1 >= argc) throw std::invalid_argument(std::string(name) + " needs a value");
    const std::string_view value = argv[++i];
    if (name == "--connect") {
      protocol::ParseHostPort(value);  // throws naming the text
      options.connect = value;
    } else if (name == "--workers") {
      options.workers = static_cast<uint32_t>(ParseInteger(name, value, 1, protocol::kMaxWorkerId));
    } else if (name == "--delay-ms") {
      options.delay = std::chrono::milliseconds(ParseInteger(name, value, 0, 3'600'000));
    } else if (name == "--token") {
      options.token = value;
    } else if (name == "--threads") {
      options.threads = static_cast<int>(ParseInteger(name, value, 1, 64));
    } else if (name == "--connect-window-s") {
      options.connect_window = std::chrono::seconds(ParseInteger(name, value, 0, 3600));
    } else {
      throw std::invalid_argument("unknown option " + std::string(name));
    }
  }
  if (options.connect.empty()) throw std::invalid_argument("--connect HOST:PORT is required");
  return options;
}

/// The AnalyzeScenario every fake worker sends, encoded once: its JSON (worker_id and
/// scenario_number are set per report) and its attachment (the packed trajectory).
struct Report {
  Json json;
  std::string attachment;
};

/// A straight ten-sample run from (10, 10) heading north-west at 5 m/s, ended by REASON_SUCCESS.
Report MakeReport() {
  protocol::AnalyzeScenarioRequest analysis;
  analysis.termination_reason = protocol::TerminationReason::REASON_SUCCESS;
  for (int i = 0; i < kTrajectorySamples; ++i) {
    protocol::OdometryWithoutCovariance sample;
    sample.header.stamp = protocol::Time::FromSeconds(i * kSamplePeriod);
    sample.header.frame_id = "world";
    sample.child_frame_id = "vehicle";
    sample.pose.position = {10.0 + 0.35 * i, 10.0 + 0.35 * i, 0.5};
    sample.pose.orientation = {0.0, 0.0, 0.3826834323650898, 0.9238795325112867};  // yaw 45 deg
    sample.twist.linear = {5.0, 0.0, 0.0};
    analysis.vehicle_trajectory.push_back(sample);
  }
  analysis.vehicle_sim_time = (kTrajectorySamples - 1) * kSamplePeriod;
  analysis.counters.control_messages = kTrajectorySamples;
  analysis.counters.distance_travelled = 0.35 * (kTrajectorySamples - 1) * 1.4142135623730951;
  analysis.counters.physics_steps = 10 * kTrajectorySamples;
  Report report;
  protocol::PackTrajectory(&analysis, &report.attachment);
  report.json = Json(analysis);
  return report;
}

/// Counts shared by every fake worker; thread-safe.
struct Tally {
  std::atomic<uint32_t> connections{0};  ///< connections made
  std::atomic<uint32_t> registered{0};   ///< registrations accepted
  std::atomic<uint32_t> failed{0};       ///< registrations refused or connections not made
  std::atomic<uint64_t> answered{0};     ///< AnalyzeScenario reports the client accepted
  std::atomic<uint64_t> refused{0};      ///< AnalyzeScenario reports refused or unanswered
  std::mutex mutex;
  std::condition_variable changed;
  uint32_t closed = 0;  ///< connections closed (guarded by mutex)

  void Closed() {
    {
      std::lock_guard lock(mutex);
      ++closed;
    }
    changed.notify_all();
  }
};

/// One fake worker: one connection and at most one scenario at a time.
class FakeWorker {
 public:
  /// `executor` runs the delay timers (the io threads'); options, report and tally outlive it.
  FakeWorker(uint16_t worker_id, std::shared_ptr<protocol::Connection> connection,
             const boost::asio::any_io_executor& executor, const Options& options,
             const Report& report, Tally* tally)
      : worker_id_(worker_id),
        connection_(std::move(connection)),
        options_(options),
        report_(report),
        tally_(tally),
        timer_(executor) {}

  /// Sets the handlers, starts the connection and sends RegisterWorker.
  void Start() {
    connection_->SetHandler(protocol::TypeOf<protocol::RunScenarioRequest>(),
                            [this](const protocol::Message& message) { OnRunScenario(message); });
    connection_->SetCloseHandler([this](const std::string& reason) { OnClose(reason); });
    connection_->Start();
    const protocol::RegisterWorkerRequest request{worker_id_, options_.token,
                                                  static_cast<int64_t>(::getpid()), ""};
    protocol::AsyncRequestMessage(*connection_, request, {}, kReplyTimeout,
                                  [this](protocol::RequestResult result) { OnRegistered(result); });
  }

 private:
  void OnRegistered(const protocol::RequestResult& result) {
    if (!result.success) {
      std::cerr << "fake_workers: worker " << worker_id_
                << " not registered: " << result.description << "\n";
      tally_->failed.fetch_add(1);
      connection_->Close("registration refused");
      return;
    }
    tally_->registered.fetch_add(1);
    SendStatus(protocol::StatusCode::ONLINE_AND_READY);
  }

  // Runs on the connection's strand; frames sent here leave in call order.
  void OnRunScenario(const protocol::Message& message) {
    const int32_t number = message.message.at("scenario_number").get<int32_t>();
    std::lock_guard lock(mutex_);
    if (current_ && *current_ == number) {  // a resubmission of the scenario held
      connection_->Reply(message, Json(protocol::RunScenarioResponse{true}));
      return;
    }
    if (current_) {
      connection_->ReplyError(message.reference, "busy with scenario " + std::to_string(*current_));
      return;
    }
    current_ = number;
    connection_->Reply(message, Json(protocol::RunScenarioResponse{true}));
    SendStatus(protocol::StatusCode::ONLINE_AND_RUNNING);
    if (options_.delay.count() == 0) {
      DeliverLocked(number);
      return;
    }
    timer_.expires_after(options_.delay);
    timer_.async_wait([this, number](const boost::system::error_code& error) {
      if (error) return;
      std::lock_guard relock(mutex_);
      if (current_ == number) DeliverLocked(number);
    });
  }

  /// Sends the report of `number`; the scenario is released first, as asg-worker does, and
  /// READY follows the client's answer. Called with mutex_ held.
  void DeliverLocked(int32_t number) {
    current_.reset();
    Json body = report_.json;
    body["worker_id"] = worker_id_;
    body["scenario_number"] = static_cast<uint32_t>(number);
    connection_->AsyncRequest(protocol::TypeOf<protocol::AnalyzeScenarioRequest>(), body,
                              report_.attachment, kReplyTimeout,
                              [this](protocol::RequestResult result) {
                                if (result.success) {
                                  tally_->answered.fetch_add(1);
                                } else {
                                  tally_->refused.fetch_add(1);
                                  std::cerr << "fake_workers: worker " << worker_id_
                                            << " report refused: " << result.description << "\n";
                                }
                                SendStatus(protocol::StatusCode::ONLINE_AND_READY);
                              });
  }

  void SendStatus(uint8_t status) {
    protocol::SendMessage(*connection_, protocol::StatusCode{status});
  }

  void OnClose(const std::string&) {
    {
      std::lock_guard lock(mutex_);
      timer_.cancel();
    }
    tally_->Closed();
  }

  const uint16_t worker_id_;
  std::shared_ptr<protocol::Connection> connection_;
  const Options& options_;
  const Report& report_;
  Tally* tally_;
  std::mutex mutex_;                // guards current_ and timer_ (strand and timer threads)
  std::optional<int32_t> current_;  // the scenario accepted and not yet reported
  boost::asio::steady_timer timer_;
};

/// Connects once the client listens, retrying until `deadline`; throws std::runtime_error after.
std::shared_ptr<protocol::Connection> ConnectWithin(const boost::asio::any_io_executor& executor,
                                                    const std::string& address,
                                                    SteadyClock::time_point deadline) {
  while (true) {
    try {
      return protocol::Connect(executor, address, kConnectTimeout);
    } catch (const std::runtime_error&) {
      if (SteadyClock::now() >= deadline) throw;
      std::this_thread::sleep_for(kRetryPeriod);
    }
  }
}

int Run(const Options& options) {
  core::RaiseOpenFileLimit();
  const Report report = MakeReport();
  Tally tally;
  protocol::IoThreads io(options.threads);
  std::vector<std::unique_ptr<FakeWorker>> workers;
  const auto started = SteadyClock::now();
  const auto deadline = started + options.connect_window;
  for (uint32_t id = 1; id <= options.workers; ++id) {
    std::shared_ptr<protocol::Connection> connection;
    try {
      connection = ConnectWithin(io.context().get_executor(), options.connect, deadline);
    } catch (const std::runtime_error& error) {
      std::cerr << "fake_workers: worker " << id << ": " << error.what() << "\n";
      tally.failed.fetch_add(options.workers - id + 1);
      break;
    }
    tally.connections.fetch_add(1);
    workers.push_back(std::make_unique<FakeWorker>(static_cast<uint16_t>(id), connection,
                                                   io.context().get_executor(), options, report,
                                                   &tally));
  }
  // Every connection is made before any registers, so that all of them are served from the
  // first scenario on (connecting one by one takes a while; registering does not).
  const double connect_s = std::chrono::duration<double>(SteadyClock::now() - started).count();
  for (const auto& worker : workers) worker->Start();
  {
    std::unique_lock lock(tally.mutex);
    tally.changed.wait(lock, [&] { return tally.closed == tally.connections.load(); });
  }
  const double wall_s = std::chrono::duration<double>(SteadyClock::now() - started).count();
  io.Stop();
  workers.clear();
  char line[256];
  std::snprintf(line, sizeof line,
                "{\"workers\": %u, \"connections\": %u, \"registered\": %u, "
                "\"scenarios_answered\": %llu, \"results_refused\": %llu, \"connect_s\": %.3f, "
                "\"wall_s\": %.3f}",
                options.workers, tally.connections.load(), tally.registered.load(),
                static_cast<unsigned long long>(tally.answered.load()),
                static_cast<unsigned long long>(tally.refused.load()), connect_s, wall_s);
  std::cout << line << std::endl;
  return tally.failed.load() == 0 ? 0 : 1;
}

}  // namespace
}  // namespace asg::experiments

int main(int argc, char** argv) {
  std::optional<asg::experiments::Options> options;
  try {
    options = asg::experiments::ParseOptions(argc, argv);
  } catch (const std::invalid_argument& error) {
    std::cerr << "fake_workers: " << error.what() << "\n\n" << asg::experiments::kUsage;
    return 2;
  }
  if (!options) {
    std::cout << asg::experiments::kUsage;
    return 0;
  }
  return asg::experiments::Run(*options);
}
