// Stand-ins for what surrounds the farm loop and the farm's records in their unit tests: a worker
// behind a WorkerChannel that answers through the event queue at once, a launcher that launches
// nothing but records what it is told, and a feed that plans scenarios on cue.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "client/farm/farm_events.h"
#include "client/farm/scenario_feed.h"
#include "client/farm/worker_channel.h"
#include "client/launch/launcher.h"

namespace asg::client::fakes {

/// What the fake workers were sent and answered, in order, shared by all of them.
struct WorkerTrace {
  std::vector<std::pair<uint16_t, uint32_t>> sent;  ///< (worker id, scenario number)
  std::vector<uint32_t> accepted;                   ///< references of accepted reports
  std::vector<std::string> refused;                 ///< reasons of refused reports
  std::vector<std::string> closed;                  ///< "worker <id>: <reason>"
};

/// A worker that runs each scenario it is sent at once: it pushes StatusCode RUNNING, its
/// AnalyzeScenario (done, one trajectory point, 1.5 s of sim time) and READY into the loop's
/// queue. One given `dies` dies at its first scenario instead: its connection closes and `dies`
/// is called (e.g. to have the launcher report its process gone). `before_run`, when given, is
/// called with each scenario's number before the worker runs it (e.g. to let the result writer
/// catch up, so that a test sees the loop react to a write at a known point).
class FakeWorker final : public WorkerChannel {
 public:
  FakeWorker(WorkerKey key, uint16_t worker_id, EventQueue* events, WorkerTrace* trace,
             std::function<void()> dies = nullptr,
             std::function<void(uint32_t)> before_run = nullptr)
      : identity_{worker_id, 1000 + worker_id, "127.0.0.1:" + std::to_string(40000 + worker_id),
                  ""},
        key_(key),
        events_(events),
        trace_(trace),
        dies_(std::move(dies)),
        before_run_(std::move(before_run)) {}

  /// The events of this worker registering and saying it is ready.
  static void Register(WorkerKey key, uint16_t worker_id, EventQueue* events, WorkerTrace* trace,
                       std::function<void()> dies = nullptr,
                       std::function<void(uint32_t)> before_run = nullptr) {
    events->Push(FarmEvent{
        key, farm_event::Registered{std::make_unique<FakeWorker>(
                 key, worker_id, events, trace, std::move(dies), std::move(before_run))}});
    events->Push(FarmEvent{key, farm_event::Status{protocol::StatusCode::ONLINE_AND_READY}});
  }

  const WorkerIdentity& identity() const override { return identity_; }

  void SendRun(uint32_t scenario_number, const json::Json& request) override {
    trace_->sent.emplace_back(identity_.worker_id, scenario_number);
    EXPECT_EQ(request["scenario_number"], scenario_number);
    if (before_run_) before_run_(scenario_number);
    if (dies_) {
      events_->Push(FarmEvent{key_, farm_event::Closed{"connection reset"}});
      dies_();
      return;
    }
    events_->Push(FarmEvent{key_, farm_event::Status{protocol::StatusCode::ONLINE_AND_RUNNING}});
    farm_event::Result result;
    result.request.type = "AnalyzeScenario";
    result.request.reference = ++reference_;
    result.analysis.scenario_number = scenario_number;
    result.analysis.vehicle_sim_time = 1.5;
    result.analysis.vehicle_trajectory.resize(1);
    events_->Push(FarmEvent{key_, std::move(result)});
    if (says_ready_) {
      events_->Push(FarmEvent{key_, farm_event::Status{protocol::StatusCode::ONLINE_AND_READY}});
    }
  }
  /// From now on the worker does not say READY after its reports (as if that frame were slow).
  void StopSayingReady() { says_ready_ = false; }
  void Accept(const protocol::Message& report) override {
    trace_->accepted.push_back(static_cast<uint32_t>(report.reference));
  }
  void Refuse(const protocol::Message&, const std::string& reason) override {
    trace_->refused.push_back(reason);
  }
  void Close(const std::string& reason) override {
    open_ = false;
    trace_->closed.push_back("worker " + std::to_string(identity_.worker_id) + ": " + reason);
  }
  bool IsOpen() const override { return open_; }

 private:
  WorkerIdentity identity_;
  WorkerKey key_;
  EventQueue* events_;
  WorkerTrace* trace_;
  std::function<void()> dies_;
  std::function<void(uint32_t)> before_run_;
  bool open_ = true;
  bool says_ready_ = true;
  uint64_t reference_ = 0;
};

/// A launcher that starts nothing: it records what the loop tells it, watches the processes of
/// `watched` worker ids, and reports the workers in `gone` at its next Poll.
class FakeLauncher final : public Launcher {
 public:
  void Start() override { ++starts; }
  bool Claim(WorkerKey key, uint16_t worker_id, int64_t, const std::string&) override {
    claimed[key] = worker_id;
    return watched.contains(worker_id);
  }
  void End(WorkerKey, uint16_t worker_id) override { ended.push_back(worker_id); }
  LauncherReport Poll(const LauncherTick& tick) override {
    last_tick = tick;
    LauncherReport report;
    report.gone = std::move(gone);
    gone.clear();
    return report;
  }
  std::string Status() const override { return ""; }
  size_t Stop(std::chrono::milliseconds) override { return 0; }

  int starts = 0;
  std::map<WorkerKey, uint16_t> claimed;  ///< registered connections and their worker ids
  std::vector<uint16_t> ended;
  std::set<uint16_t> watched;    ///< worker ids whose processes it watches
  std::vector<WorkerGone> gone;  ///< reported at the next Poll
  LauncherTick last_tick;
};

/// A feed whose scenarios are planned by the test: Take hands over `ready`, Recorded keeps every
/// result it is told, and `after` plans more once a given scenario is recorded.
class FakeFeed final : public ScenarioFeed {
 public:
  std::vector<PlannedScenario> Take(bool) override {
    ++takes;
    return std::exchange(ready, {});
  }
  void Recorded(const results::ScenarioResult& result, const results::ScenarioRecord*) override {
    told.push_back(result);
    const auto next = after.find(result.scenario_number);
    if (next == after.end()) return;
    ready.push_back(next->second);
    after.erase(next);
  }
  bool Busy() const override { return false; }
  const std::string& error() const override { return error_; }
  bool interrupted() const override { return false; }
  void End(bool) override {}
  std::string Summary() const override { return ""; }

  std::vector<PlannedScenario> ready;         ///< handed over at the next Take
  std::map<uint32_t, PlannedScenario> after;  ///< planned once that number is recorded
  std::vector<results::ScenarioResult> told;  ///< every result told, in order
  int takes = 0;

 private:
  std::string error_;
};

}  // namespace asg::client::fakes
