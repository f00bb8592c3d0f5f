// The farm loop: the one thread that drives the farm's state while workers run. It takes events
// from the network side (farm_links.h) and talks to each worker through its WorkerChannel
// (worker_channel.h), watches the workers through the launcher, applies the scheduler's
// decisions through the scenario book, holds the ready gate of vehicle nodes, takes the feed's
// new scenarios, and hands every end of a run to the farm's records (farm_records.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/batch/batch.h"
#include "client/farm/farm_events.h"
#include "client/farm/farm_records.h"
#include "client/farm/progress.h"
#include "client/farm/scenario_feed.h"
#include "client/launch/launcher.h"
#include "client/nodes/node_control.h"
#include "core/log.h"

namespace asg::client {

/// What the loop works with; everything is owned by the caller and outlives the loop.
struct FarmLoopContext {
  const BatchNodeSettings* vehicle_nodes = nullptr;  ///< the batch's: count and ready_timeout
  core::Logger* logger = nullptr;
  EventQueue* events = nullptr;
  Launcher* launcher = nullptr;  ///< where the workers come from
  Progress* progress = nullptr;
  FarmRecords* records = nullptr;  ///< the book of scenarios, and where results go
  NodeControl* nodes = nullptr;    ///< the vehicle nodes' control plane (the gate); may be null
  ScenarioFeed* feed = nullptr;    ///< more scenarios as results come in; nullptr: none
  /// Called on the loop's thread whenever every scenario is finished, the feed has no more and
  /// the vehicle nodes are settled: it may admit more scenarios into the records (a later stage,
  /// the reproduction runs), and the loop ends when none are queued. May be empty.
  std::function<void()> next_stage = nullptr;
};

/// The control-plane settings of a batch: its vehicle_nodes count, max_reruns and save_minimal
/// (checked when the batch was loaded), the farm's token and output folder.
NodeRegistrySettings NodeSettingsFor(const Batch& batch, const FarmSettings& settings);

/// Runs the scenarios queued in the book until every one is finished or the farm is interrupted.
class FarmLoop {
 public:
  /// Will run the scenarios queued in the context's book, and those the feed adds as results
  /// come in.
  explicit FarmLoop(const FarmLoopContext& context);

  /// Starts the launcher's workers and runs until done, interrupted or broken down.
  void Run();

  /// Closes every worker connection with `reason` (workers exit when their connection closes).
  void CloseAll(const std::string& reason);

  /// Set when a SIGINT/SIGTERM stopped the loop.
  bool interrupted() const { return interrupted_; }
  /// Why the farm broke down (workers that die before registering, a result that cannot be
  /// written); empty otherwise.
  const std::string& breakdown() const { return breakdown_; }

 private:
  /// A registered worker.
  struct Link {
    std::unique_ptr<WorkerChannel> channel;
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
  /// Gives the worker `key` its next scenario if it is idle, its nodes' gate is open and one is
  /// queued.
  void AssignIfIdle(WorkerKey key, const Link& link, SteadyClock::time_point now);
  void Send(WorkerKey key, uint32_t scenario_number);
  /// The scenarios the feed planned since the last look, into the book.
  void TakeFed();
  /// Counts what the writer wrote; on its first failure stops handing out scenarios (the
  /// breakdown names the failure) and returns true.
  bool StopOnWriteFailure();
  /// Whether scenarios are queued or running, or the feed may add more.
  bool WorkRemains() const;
  /// Once nothing remains: runs the next stage; whether it queued more work.
  bool NextStage();
  /// Whether a registered worker can be given a scenario (open, ready, not given up).
  static bool Idle(const Link& link);
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

  FarmLoopContext context_;
  ScenarioBook& book_;  // the records' book: every scenario's state, and the scheduler over them
  std::map<WorkerKey, Link> links_;
  std::optional<SteadyClock::time_point> node_wait_since_;  // see CheckNodeWait
  bool interrupted_ = false;
  std::string breakdown_;
};

}  // namespace asg::client
