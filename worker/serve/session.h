// The interactive worker (`asg-worker --serve`): one simulation (scene::LiveRun) and the services
// that control it, answered over the project's framed protocol to any number of clients
// (docs/interactive.md).
//
// Threading: one thread runs everything. It runs the io_context of the server and of every
// connection, so each request's handler runs on it, in arrival order, between physics steps;
// while the simulation plays, or a SimulateSteps goal or a long StepSimulation is being worked
// through, that thread polls the network between steps. A StepSimulation of more than
// kInlineSteps steps is answered when done, and requests that arrive meanwhile wait for it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/connection.h"
#include "protocol/server.h"
#include "scene/actor_catalog.h"
#include "scene/live_run.h"
#include "worker/serve/logs.h"

namespace asg::capture {
class CaptureRenderer;
class CameraSensorRenderer;
}  // namespace asg::capture

namespace asg::worker {
class NodeSensors;
struct StepSensorData;
}  // namespace asg::worker

namespace asg::worker::serve {

/// simulation_interfaces SimulationState values.
enum class SimState : uint8_t { kStopped = 0, kPlaying = 1, kPaused = 2, kQuitting = 3 };

/// The state's simulation_interfaces name, e.g. "STATE_PAUSED".
const char* SimStateName(SimState state);
/// The state's RoadRunner SSE status name, e.g. "SIMULATION_STATUS_PAUSED".
const char* SimulationStatusName(SimState state);

/// Why a scenario with vehicle nodes is driven otherwise here (logged and told at load).
std::string NodesNote(const protocol::RunScenarioRequest& request);

/// The request.json of a result's scenario folder. Throws std::runtime_error naming the file and
/// the problem when it cannot be read or decoded.
protocol::RunScenarioRequest ReadFolderRequest(const std::filesystem::path& folder);

/// How the interactive worker is started.
struct ServeSettings {
  std::string host = "127.0.0.1";  ///< address to listen on
  uint16_t port = 0;               ///< 0 picks a free port (printed on stdout)
  std::string token;               ///< required (Hello) when not empty
  std::filesystem::path open;      ///< a scenario folder to load at start; empty: none
  uint16_t worker_id = 1;          ///< written into results
};

/// A request being handled: who sent it and what.
struct Call {
  std::shared_ptr<protocol::Connection> connection;
  int client_id = 0;
  const protocol::Message* message = nullptr;
  const json::Json& body() const { return message->message; }
};

/// A reply body and its attachment; `later` when the reply is sent by the session afterwards.
struct Reply {
  Reply() = default;
  /// A reply with this body and no attachment, sent at once.
  Reply(json::Json reply_body) : body(std::move(reply_body)) {}  // NOLINT: implicit

  json::Json body = json::Json::object();
  std::string attachment;
  bool later = false;
};

class Session;

/// One service: its family, a one-line description and its handler. A handler throws
/// std::invalid_argument for a request it cannot decode (answered Error, naming the field and
/// the value).
struct Service {
  const char* family;
  const char* description;
  Reply (*handler)(Session& session, const Call& call);
};

/// Every service by name (services_*.cpp).
const std::map<std::string, Service>& Services();

/// The simulation and everything the services share; see the file comment.
class Session {
 public:
  /// Largest StepSimulation answered without polling the network in between.
  static constexpr uint64_t kInlineSteps = 1000;
  /// Most steps one StepSimulation or SimulateSteps may ask for.
  static constexpr uint64_t kMaxSteps = 100'000'000;

  Session(const ServeSettings& settings, const scene::ActorCatalog& catalog);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// Listens; throws std::runtime_error naming the address when it cannot. Returns the port.
  uint16_t Listen();
  /// Serves until QUITTING (and the clients are gone, 2 s at most) or SIGINT/SIGTERM. Returns
  /// the process exit code.
  int Run();

  // --- what the services use -------------------------------------------------------------
  scene::LiveRun& live() { return live_; }
  const scene::ActorCatalog& catalog() const { return catalog_; }
  SimState state() const { return state_; }
  /// Sets the state and tells SubscribeEvents clients.
  void SetState(SimState state);
  /// [1] wall-time pace: simulated seconds per wall second; 0 = as fast as possible.
  double pace() const { return pace_; }
  void SetPace(double pace) {
    pace_ = pace;
    pace_origin_.reset();
  }
  /// Loads a request (LiveRun::Load), PAUSED at time 0; folder (may be empty) is where the
  /// scenario came from. Throws what LiveRun::Load throws.
  void Load(const protocol::RunScenarioRequest& request, const std::filesystem::path& folder);
  /// Reloads the loaded scenario (fresh run) without changing the state.
  void Reload();
  /// Advances `steps` physics steps now (stopping early when the run ends); returns those done.
  uint64_t StepNow(uint64_t steps);
  /// Starts a StepSimulation answered when done (steps > kInlineSteps).
  void StartLongStep(const Call& call, uint64_t steps);
  /// Starts a SimulateSteps goal; returns its id, or 0 when one is running already.
  uint64_t StartGoal(const Call& call, uint64_t steps, bool fail_at_once, std::string failure);
  /// Cancels the running goal with this id; false when there is none.
  bool CancelGoal(uint64_t goal_id);
  /// True while a SimulateSteps goal is running.
  bool goal_running() const { return goal_.has_value(); }
  /// The AnalyzeScenario JSON of the ended run (regret included), or null before an end.
  const json::Json& result_json() const { return result_json_; }
  /// Where the ended run's folder was written, or empty.
  const std::filesystem::path& result_folder() const { return result_folder_; }
  /// The folder the scenario was opened from, or empty.
  const std::filesystem::path& folder() const { return folder_; }
  /// Subscribes the call's connection to Event frames.
  void Subscribe(const Call& call);
  /// The communication and diagnostic logs.
  SessionLogs& logs() { return logs_; }
  /// Renders the capture views of the loaded request over the current state.
  std::vector<protocol::CaptureImage> Capture(const protocol::SceneCaptureSettings& settings);
  /// The latest readings of the loaded request's vehicle_nodes.sensors (none without sensors).
  const StepSensorData* LatestSensors();
  /// Weather of later captures: sun and haze (0 = the renderer's default).
  void SetWeather(double sun_inclination, double sun_yaw, double haze_distance);
  /// Names the connection's client (SSE RegisterClient).
  void NameClient(int client_id, std::string name);
  /// Begins quitting: no new connections, every later request refused.
  void Quit();

 private:
  struct Goal {
    uint64_t id = 0;
    uint64_t steps = 0;
    uint64_t done = 0;
    uint64_t feedback_every = 1;
    std::shared_ptr<protocol::Connection> connection;
    int client_id = 0;
  };
  struct LongStep {
    uint64_t total = 0;
    uint64_t remaining = 0;
    std::shared_ptr<protocol::Connection> connection;
    protocol::Message request;
    int client_id = 0;
  };
  struct Pending {
    std::shared_ptr<protocol::Connection> connection;
    int client_id = 0;
    protocol::Message message;
  };

  void Accept(std::shared_ptr<protocol::Connection> connection);
  void OnMessage(const std::shared_ptr<protocol::Connection>& connection, int client_id,
                 const protocol::Message& message);
  void Dispatch(const std::shared_ptr<protocol::Connection>& connection, int client_id,
                const protocol::Message& message);
  /// Sends the reply to `request` and logs it.
  void SendReply(protocol::Connection& connection, int client_id, const protocol::Message& request,
                 const json::Json& body, std::string attachment);
  /// Sends a frame the session pushes (feedback, results, events) and logs it.
  void Push(protocol::Connection& connection, int client_id, const std::string& type,
            const json::Json& body);
  /// One step of whatever is running; false when nothing is.
  bool Advance();
  /// Steps once; handles the run's end. False when the run ended (or nothing is loaded).
  bool StepOnce();
  void RunEnded();
  void FinishGoal(uint8_t result, const std::string& message);
  void FinishLongStep();
  void DrainPending();
  /// Builds the loaded request's sensors and samples them at every control tick.
  void StartSensors();

  ServeSettings settings_;
  const scene::ActorCatalog& catalog_;
  boost::asio::io_context io_;
  std::unique_ptr<protocol::Server> server_;
  scene::LiveRun live_;
  SimState state_ = SimState::kStopped;
  double pace_ = 1.0;
  std::optional<std::chrono::steady_clock::time_point> pace_origin_;
  long pace_origin_steps_ = 0;
  std::optional<Goal> goal_;
  uint64_t next_goal_id_ = 1;
  std::optional<LongStep> long_step_;
  std::deque<Pending> pending_;
  std::map<int, std::weak_ptr<protocol::Connection>> subscribers_;
  std::map<int, std::shared_ptr<protocol::Connection>> clients_;
  int next_client_id_ = 1;
  bool quitting_ = false;
  json::Json result_json_;
  std::filesystem::path folder_;
  std::filesystem::path result_folder_;
  SessionLogs logs_;
  std::unique_ptr<capture::CaptureRenderer> renderer_;
  std::unique_ptr<capture::CameraSensorRenderer> cameras_;
  std::unique_ptr<NodeSensors> sensors_;
  /// The latest reading of each sensor (key: name and encoding or type): header, data.
  std::map<std::string, std::pair<json::Json, std::string>> latest_readings_;
  std::unique_ptr<StepSensorData> latest_sensors_;  // latest_readings_ as one attachment
  double sun_inclination_ = -1.0, sun_yaw_ = 0.0, haze_distance_ = 0.0;
  bool weather_set_ = false;
};

/// `asg-worker --serve`: loads settings.open if set, listens, prints "serving HOST:PORT", runs.
int ServeInteractive(const ServeSettings& settings, const scene::ActorCatalog& catalog);

}  // namespace asg::worker::serve
