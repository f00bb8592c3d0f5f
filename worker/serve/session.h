// The interactive worker (`asg-worker --serve`): one simulation (scene::LiveRun) and the services
// that control it, answered over the project's framed protocol to any number of clients
// (docs/interactive.md). The session puts together its parts, each with one job:
//   ClientHub        connections, client ids, the token, routing, replies and pushed frames
//   SimulationClock  the state machine, the pace, stepping, long steps and SimulateSteps goals
//   SensorReadings   the loaded scenario's sensors and their latest readings
//   SceneCaptures    the capture renderer and the weather
//   InterventionLog  the changes people made to the run (its result records them)
//   RunResults       the ended run's result JSON and result folder
//   SessionLogs      the communication and diagnostic logs
//   FoxgloveView     the live view over the Foxglove WebSocket protocol (--foxglove)
// and tells each what the others did (the clock's state changes become Event frames, the run's
// end a result).
//
// Threading: one thread runs everything. It runs the io_context of the server and of every
// connection, so each request's handler runs on it, in arrival order, between physics steps;
// while the simulation plays, or a SimulateSteps goal or a long StepSimulation is being worked
// through, that thread polls the network between steps. A StepSimulation of more than
// kInlineSteps steps is answered when done, and requests that arrive meanwhile wait for it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "protocol/messages.h"
#include "scene/actor_catalog.h"
#include "scene/live_run.h"
#include "worker/serve/call.h"
#include "worker/serve/client_hub.h"
#include "worker/serve/foxglove_view.h"
#include "worker/serve/interventions.h"
#include "worker/serve/logs.h"
#include "worker/serve/run_results.h"
#include "worker/serve/scene_captures.h"
#include "worker/serve/sensor_readings.h"
#include "worker/serve/simulation_clock.h"

namespace asg::worker::serve {

/// Why a scenario with vehicle nodes is driven otherwise here (logged and told at load).
std::string NodesNote(const protocol::RunScenarioRequest& request);

/// The request.json of a result's scenario folder. Throws std::runtime_error naming the file and
/// the problem when it cannot be read or decoded.
protocol::RunScenarioRequest ReadFolderRequest(const std::filesystem::path& folder);

/// How the interactive worker is started.
struct ServeSettings {
  std::string host = "127.0.0.1";           ///< address to listen on
  uint16_t port = 0;                        ///< 0 picks a free port (printed on stdout)
  std::string token;                        ///< required (Hello) when not empty
  std::filesystem::path open;               ///< a scenario folder to load at start; empty: none
  uint16_t worker_id = 1;                   ///< written into results
  bool foxglove = false;                    ///< also serve the live view (foxglove_view.h)
  std::string foxglove_host = "127.0.0.1";  ///< the live view's address
  uint16_t foxglove_port = 0;               ///< the live view's port; 0 picks a free one
  /// Also serve on the same-host Unix-domain socket (protocol/local_channel.h).
  bool local_channel = true;
};

/// The simulation and everything the services share; see the file comment. Not thread-safe:
/// Run's thread owns it.
class Session : private ClockListener {
 public:
  /// Largest StepSimulation answered without polling the network in between.
  static constexpr uint64_t kInlineSteps = SimulationClock::kInlineSteps;
  /// Most steps one StepSimulation or SimulateSteps may ask for.
  static constexpr uint64_t kMaxSteps = SimulationClock::kMaxSteps;

  /// `catalog` must outlive the session.
  Session(const ServeSettings& settings, const scene::ActorCatalog& catalog);
  ~Session() override;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// Listens; throws std::runtime_error naming the address when it cannot. Returns the port.
  uint16_t Listen() { return hub_.Listen(); }
  /// Listens for the live view (with ServeSettings::foxglove); throws std::runtime_error naming
  /// the address when it cannot. Returns the port.
  uint16_t ListenFoxglove();
  /// Serves until QUITTING (and the clients are gone, 2 s at most) or SIGINT/SIGTERM. Returns
  /// the process exit code.
  int Run();

  // --- what the services use -------------------------------------------------------------
  scene::LiveRun& live() { return live_; }
  const scene::ActorCatalog& catalog() const { return catalog_; }
  SimulationClock& clock() { return clock_; }
  ClientHub& hub() { return hub_; }
  SessionLogs& logs() { return logs_; }
  SensorReadings& sensors() { return sensors_; }
  SceneCaptures& captures() { return captures_; }
  const RunResults& results() const { return results_; }
  InterventionLog& interventions() { return interventions_; }

  /// Loads a request (LiveRun::Load), PAUSED at time 0; folder (may be empty) is where the
  /// scenario came from. Throws what LiveRun::Load throws.
  void Load(const protocol::RunScenarioRequest& request, const std::filesystem::path& folder);
  /// Reloads the loaded scenario (fresh run, no interventions) without changing the state.
  void Reload();
  /// Starts a StepSimulation of `steps` (> kInlineSteps), answered when done.
  void StartLongStep(const Call& call, uint64_t steps);
  /// Starts a SimulateSteps goal with feedback after every `feedback_every` steps; returns its
  /// id, or 0 when one is running already. With `failure` not empty the goal is aborted with it
  /// right after the reply accepting it.
  uint64_t StartGoal(const Call& call, uint64_t steps, uint64_t feedback_every,
                     const std::string& failure);
  /// Begins quitting: no new connections, every later request refused.
  void Quit();

 private:
  // ClockListener: what the clock tells becomes frames, results and log lines.
  void StateChanged(SimState state, double time) override;
  void RunEnded() override;
  void GoalFeedback(const SimulateStepsGoal& goal) override;
  void GoalFinished(const SimulateStepsGoal& goal, GoalStatus status,
                    const std::string& message) override;
  void LongStepFinished(uint64_t done, uint64_t total) override;
  /// Answers a service call of the live view with the service's handler (JSON in and out;
  /// a StepSimulation of more than kInlineSteps steps is refused there).
  json::Json CallFromViewer(const std::string& service, const json::Json& request);
  /// (Re)starts the sensors of the loaded request; logs why they cannot run.
  void StartSensors();

  const scene::ActorCatalog& catalog_;
  boost::asio::io_context io_;
  SessionLogs logs_;
  scene::LiveRun live_;
  SceneCaptures captures_;
  SensorReadings sensors_;
  RunResults results_;
  InterventionLog interventions_;
  SimulationClock clock_;
  ClientHub hub_;
  std::unique_ptr<FoxgloveView> foxglove_;  // with ServeSettings::foxglove
};

/// `asg-worker --serve`: loads settings.open if set, listens, prints "serving HOST:PORT", runs.
int ServeInteractive(const ServeSettings& settings, const scene::ActorCatalog& catalog);

}  // namespace asg::worker::serve
