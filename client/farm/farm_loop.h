// The farm loop: the one thread that owns the farm's state. It takes events from the network
// side (farm_links.h), watches the local worker processes, applies the scheduler's decisions
// and hands finished scenarios to the result writer. Internal to asg_client; see farm.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/batch/batch.h"
#include "client/farm/farm.h"
#include "client/farm/farm_events.h"
#include "client/farm/progress.h"
#include "client/farm/result_writer.h"
#include "client/farm/scenario_book.h"
#include "client/launch/launcher.h"
#include "client/nodes/node_control.h"
#include "core/log.h"

namespace asg::client {

/// A source of more scenarios while the farm runs (a search, search_run.h).
class ScenarioFeed {
 public:
  virtual ~ScenarioFeed() = default;
  /// A scenario's result was recorded for the first time in this run; returns the numbers of
  /// scenarios to run next (already planned in the batch, valid, not yet finished), often none.
  virtual std::vector<uint32_t> Recorded(const results::ScenarioResult& result) = 0;
  /// Scenarios to run that became ready since (work done beside the loop); often none.
  virtual std::vector<uint32_t> Poll() = 0;
  /// Whether more scenarios may still come without another result (the loop must not end).
  virtual bool Busy() const = 0;
};

/// What the loop works with; everything is owned by the caller and outlives the loop.
struct FarmLoopContext {
  const Batch* batch = nullptr;
  const FarmSettings* settings = nullptr;
  core::Logger* logger = nullptr;
  EventQueue* events = nullptr;
  Launcher* launcher = nullptr;  ///< where the workers come from
  Progress* progress = nullptr;
  ResultWriter* writer = nullptr;
  NodeControl* nodes = nullptr;  ///< the vehicle nodes' control plane (the gate)
  ScenarioFeed* feed = nullptr;  ///< more scenarios as results come in; nullptr: none
};

/// The control-plane settings of a batch: its vehicle_nodes count, max_reruns and save_minimal
/// (checked when the batch was loaded), the farm's token and output folder.
NodeRegistrySettings NodeSettingsFor(const Batch& batch, const FarmSettings& settings);

/// Runs the scenarios given to it until every one is finished or the farm is interrupted.
class FarmLoop {
 public:
  /// Will run `scenario_numbers` (valid scenarios of the batch, not yet finished), and those the
  /// context's feed adds as results come in.
  FarmLoop(const FarmLoopContext& context, const std::vector<uint32_t>& scenario_numbers);

  /// Starts the launcher's workers and runs until done, interrupted or broken down.
  void Run();

  /// Closes every worker connection with `reason` (workers exit when their connection closes).
  void CloseAll(const std::string& reason);

  /// Set when a SIGINT/SIGTERM stopped the loop.
  bool interrupted() const { return interrupted_; }
  /// Why the farm broke down (e.g. workers that die before registering); empty otherwise.
  const std::string& breakdown() const { return breakdown_; }
  /// Results recorded by this run, by scenario number.
  std::map<uint32_t, results::ScenarioOutcome> outcomes() const;
  /// Every scenario's state in this run (attempts, reruns, assignment), by scenario number.
  const std::map<uint32_t, ScenarioState>& scenarios() const { return book_.states(); }

 private:
  /// A registered worker connection.
  struct Link {
    std::shared_ptr<protocol::Connection> connection;
    uint16_t worker_id = 0;
    int64_t pid = 0;
    bool watched = false;                              // the launcher watches its process
    uint8_t status = 0;                                // last StatusCode
    bool dropped = false;                              // given up: gets nothing more
    std::optional<SteadyClock::time_point> closed_at;  // watched: waiting for the process to end
  };

  void Handle(FarmEvent& event, SteadyClock::time_point now);
  // One handler per event kind; those of a worker's connection ignore a worker given up.
  void On(WorkerKey key, farm_event::Registered& event, SteadyClock::time_point now);
  void On(WorkerKey key, farm_event::Status& event, SteadyClock::time_point now);
  void On(WorkerKey key, farm_event::RunRefused& event, SteadyClock::time_point now);
  void On(WorkerKey key, farm_event::Result& event, SteadyClock::time_point now);
  void On(WorkerKey key, farm_event::Issue& event, SteadyClock::time_point now);
  void On(WorkerKey key, farm_event::Closed& event, SteadyClock::time_point now);
  void On(WorkerKey key, farm_event::Signal& event, SteadyClock::time_point now);
  void On(WorkerKey key, farm_event::Node& event, SteadyClock::time_point now);
  void On(WorkerKey key, farm_event::Preempted& event, SteadyClock::time_point now);
  /// Takes the launcher's report: workers gone (their scenarios queued again), workers started.
  void PollLauncher(SteadyClock::time_point now);
  void KillSilentProcesses(SteadyClock::time_point now);
  void Apply(const SchedulerAction& action, SteadyClock::time_point now);
  void AssignIdleWorkers(SteadyClock::time_point now);
  void Send(WorkerKey key, uint32_t scenario_number);
  /// Ends the attempt of the scenario `key` holds (if any) with a failed `outcome`: queued
  /// again, or recorded failed after max_attempts.
  void LoseWorker(WorkerKey key, AttemptOutcome outcome, const std::string& reason,
                  SteadyClock::time_point now);
  /// Ends the attempt `key` holds with `outcome` and ends its worker's run in the node registry.
  std::optional<AttemptEnd> EndAttempt(WorkerKey key, AttemptOutcome outcome, std::string detail,
                                       SteadyClock::time_point now);
  std::string WorkerName(WorkerKey key) const;
  /// The wait for vehicle nodes (vehicle_nodes.ready_timeout): while scenarios are queued, none
  /// runs and every registered idle worker waits for its nodes, the progress line says which;
  /// past the timeout the queued scenarios are recorded failed, which ends the batch.
  void CheckNodeWait(SteadyClock::time_point now);

  // Recording (farm_records.cpp).
  void RecordDone(const AttemptEnd& end, protocol::AnalyzeScenarioRequest analysis,
                  std::vector<protocol::CaptureImage> captures);
  void RecordUnrunnable(uint32_t scenario_number, results::ScenarioStatus status,
                        const std::string& error);
  void Submit(results::ScenarioRecord record);

  FarmLoopContext context_;
  ScenarioBook book_;  // every scenario's state, and the scheduler over them
  std::map<WorkerKey, Link> links_;
  std::optional<SteadyClock::time_point> node_wait_since_;  // see CheckNodeWait
  bool interrupted_ = false;
  std::string breakdown_;
};

}  // namespace asg::client
