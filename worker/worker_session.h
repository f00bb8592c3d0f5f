// The worker's side of the farm conversation: connect to a client, register, and serve
// RunScenario requests one at a time until the client goes away.
//
// Conversation on one connection (worker -> client unless marked <-):
//   RegisterWorker {worker_id, token, pid}      <- protocol::RegisterWorkerResponse {accepted,
//   message} StatusCode {ONLINE_AND_READY}
//   <- RunScenario {request}                    -> RunScenarioResponse {received: true}
//   StatusCode {ONLINE_AND_RUNNING}             (the scene is built)
//   AnalyzeScenario {result}                    <- AnalyzeScenarioResponse {received}, or Error
//      or WorkerIssueNotification {ISSUE_PROBLEM_CREATING_SCENE, message} when the scene
//      cannot be created                        <- WorkerIssueNotificationResponse {received}
//   StatusCode {ONLINE_AND_READY}               ... and again for the next RunScenario
// A RunScenario for the scenario already held is a resubmission and is acknowledged again; one
// for another scenario while busy gets an Error. Runs happen on the calling thread, never on
// the io thread, so heartbeats flow during long runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "protocol/connection.h"
#include "scene/actor_catalog.h"
#include "worker/fault_injection.h"

namespace asg::worker {

/// Exit codes of asg-worker.
inline constexpr int kWorkerExitOk = 0;       ///< the client finished with us, or a run succeeded
inline constexpr int kWorkerExitFailure = 1;  ///< cannot connect, refused, or the run failed
inline constexpr int kWorkerExitUsage = 2;    ///< bad command line

/// How a worker finds and serves its client.
struct WorkerSettings {
  std::string connect;     ///< "HOST:PORT" of the client
  uint16_t worker_id = 0;  ///< --id, echoed in every AnalyzeScenario
  std::string token;       ///< presented at registration; also required of vehicle nodes
  std::string data_listen = "127.0.0.1:0";  ///< HOST:PORT of the data port for vehicle nodes
  /// --node-spin-us: how long a lock-step run polls for Step replies before it sleeps.
  std::chrono::microseconds node_spin{0};
  bool reconnect = false;  ///< after the client goes away, connect again instead of exiting
  FaultInjection faults;   ///< deliberate faults, for tests only
  std::chrono::milliseconds connect_window{10'000};  ///< [ms] keep trying the first connect
  std::chrono::milliseconds retry_period{500};       ///< [ms] between connection attempts
  std::chrono::milliseconds exit_grace{3'000};  ///< [ms] a run in progress may finish this long
  protocol::ConnectionSettings connection;      ///< heartbeats of the connection
};

/// Serves clients as settings say and returns the exit code. Blocking; runs scenarios on the
/// calling thread.
int ServeClients(const WorkerSettings& settings, const scene::ActorCatalog& catalog);

}  // namespace asg::worker
