// The farm loop: the one thread that owns the farm's state. It takes events from the network
// side (farm_links.h), watches the local worker processes, applies the scheduler's decisions
// and hands finished scenarios to the result writer. Internal to asg_client; see farm.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "client/batch.h"
#include "client/farm.h"
#include "client/farm_events.h"
#include "client/log.h"
#include "client/node_control.h"
#include "client/progress.h"
#include "client/result_writer.h"
#include "client/scheduler.h"
#include "client/worker_pool.h"

namespace asg::client {

/// What the loop works with; everything is owned by the caller and outlives the loop.
struct FarmLoopContext {
  const Batch* batch = nullptr;
  const FarmSettings* settings = nullptr;
  Logger* logger = nullptr;
  EventQueue* events = nullptr;
  WorkerPool* pool = nullptr;  ///< nullptr when no local workers are launched
  Progress* progress = nullptr;
  ResultWriter* writer = nullptr;
  NodeControl* nodes = nullptr;  ///< the vehicle nodes' control plane (the gate)
};

/// The control-plane settings of a batch: vehicle_nodes.count, .max_reruns (default 3) and
/// .save_minimal (default false) of the batch file, the farm's token and output folder. Throws
/// std::runtime_error naming a field of the wrong type.
NodeRegistrySettings NodeSettingsFor(const Batch& batch, const FarmSettings& settings);

/// Runs the scenarios given to it until every one is finished or the farm is interrupted.
class FarmLoop {
 public:
  /// Will run `scenario_numbers` (valid scenarios of the batch, not yet finished).
  FarmLoop(const FarmLoopContext& context, const std::vector<uint32_t>& scenario_numbers);

  /// Launches the local workers and runs until done, interrupted or broken down.
  void Run();

  /// Closes every worker connection with `reason` (workers exit when their connection closes).
  void CloseAll(const std::string& reason);

  /// Set when a SIGINT/SIGTERM stopped the loop.
  bool interrupted() const { return interrupted_; }
  /// Why the farm broke down (e.g. workers that die before registering); empty otherwise.
  const std::string& breakdown() const { return breakdown_; }
  /// Results recorded by this run, by scenario number.
  const std::map<uint32_t, ScenarioOutcome>& outcomes() const { return outcomes_; }

 private:
  /// A registered worker connection.
  struct Link {
    std::shared_ptr<protocol::Connection> connection;
    uint8_t worker_id = 0;
    int64_t pid = 0;
    bool local = false;                                // a process of the pool
    uint8_t status = 0;                                // last StatusCode
    bool dropped = false;                              // given up: gets nothing more
    std::optional<SteadyClock::time_point> closed_at;  // local: waiting for the process to end
  };
  /// A local worker process.
  struct LocalProcess {
    uint8_t worker_id = 0;
    WorkerKey key = 0;  // its connection, 0 before it registered
  };

  void Handle(FarmEvent& event, SteadyClock::time_point now);
  void OnRegistered(FarmEvent& event);
  void OnStatus(const FarmEvent& event);
  void OnResult(FarmEvent& event, SteadyClock::time_point now);
  void OnIssue(const FarmEvent& event, SteadyClock::time_point now);
  void OnClosed(const FarmEvent& event, SteadyClock::time_point now);
  void ReapProcesses();
  void KillSilentProcesses(SteadyClock::time_point now);
  void Apply(const SchedulerAction& action, SteadyClock::time_point now);
  void AssignIdleWorkers(SteadyClock::time_point now);
  void Send(WorkerKey key, uint32_t scenario_number);
  void Launch(uint8_t worker_id, bool first_launch);
  void LoseWorker(WorkerKey key, const std::string& reason, SteadyClock::time_point now);

  // Vehicle nodes (farm_nodes.cpp).
  void OnNode(const FarmEvent& event);
  void OnPreempted(const FarmEvent& event, SteadyClock::time_point now);
  void EndRun(WorkerKey key);
  void RerunIfAsked(uint32_t scenario_number);
  std::string WorkerName(WorkerKey key) const;

  // Recording (farm_records.cpp).
  double AttemptSeconds(uint32_t scenario_number, SteadyClock::time_point now) const;
  void RecordAttempt(uint32_t scenario_number, int32_t worker_id, double wall_time_s,
                     const std::string& outcome);
  void RecordDone(protocol::AnalyzeScenarioRequest analysis, std::vector<CaptureFile> captures,
                  int32_t worker_id, SteadyClock::time_point now);
  ScenarioTiming Timing(uint32_t scenario_number, int32_t worker_id) const;
  void RecordUnrunnable(uint32_t scenario_number, ScenarioStatus status, const std::string& error,
                        uint32_t attempts, int32_t worker_id);
  void Submit(ScenarioRecord record);

  FarmLoopContext context_;
  Scheduler scheduler_;
  std::map<WorkerKey, Link> links_;
  std::map<int64_t, LocalProcess> processes_;
  std::map<uint32_t, SteadyClock::time_point> attempt_start_;
  std::map<uint32_t, std::vector<AttemptTiming>> attempt_history_;
  std::map<uint32_t, ScenarioOutcome> outcomes_;
  std::map<uint32_t, std::vector<RerunRecord>> reruns_;  // accepted reruns per scenario
  std::set<uint32_t> pending_reruns_;  // accepted while the scenario was still held
  uint32_t early_exits_ = 0;           // consecutive local workers that ended before registering
  bool interrupted_ = false;
  std::string breakdown_;
};

}  // namespace asg::client
