// VehicleNode: the base class of an external vehicle node in C++. It runs the node's life of
// docs/vehicle-nodes.md and calls the node's overridden methods at each stage:
//
//   connect to the client, RegisterVehicleNode (with the token), NotifyReady(0)
//   OnOperatingInfo          each VehicleNodeOperatingInfo; the SDK attaches to (and re-attaches
//                            when it changes) the data endpoint of its worker
//   OnRunStart               RunStart, answered RunStartResponse {ready: true} on return
//   OnStep                   each Step; sync: its control is the StepResponse, async: a Control
//   OnRunEnd                 VehicleStatus {enabled: false} (+ RunEnd): save with SaveFile
//                            (not when preempted), return whether to ask for a rerun
//   OnReset                  then NotifyReady(scenario_number [, rerun]) and OnReadyAnswer
//   Stop / SIGINT / SIGTERM  UnregisterVehicleNode, close both connections, Run returns
//
// Threading: Run() blocks its caller and calls every On* method on that thread, one at a time,
// so a node needs no locks for its own state. The sockets run on a private io thread; during a
// lock-step run (from RunStart to the run's end) the Run thread reads them itself instead
// (NodeSettings::read_steps_on_run_thread, protocol/hand_over_io.h), so a Step reaches OnStep
// without a thread hand-off. Stop(), SendControl() and SaveFile() are thread-safe; SaveFile
// blocks until the client answers (call it from OnRunEnd or another thread, not from OnStep).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>

#include "nodes/step.h"
#include "protocol/connection.h"
#include "protocol/hand_over_io.h"
#include "protocol/node_messages.h"

namespace asg::nodes {

/// A failure of the node's conversation: the client or worker refused a request, did not answer,
/// or could not be reached.
class NodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where the node connects and how patient it is.
struct NodeSettings {
  std::string client_endpoint = "127.0.0.1:9000";  ///< the client's "HOST:PORT"
  uint16_t worker_id = 1;                          ///< the worker whose vehicle the node drives
  std::string node_name = "node";                  ///< unique among the worker's nodes
  std::string token;  ///< shared secret; empty: the environment variable ASG_TOKEN, if set
  std::chrono::milliseconds connect_timeout{60000};  ///< [ms] Run gives up reaching the client
  std::chrono::milliseconds retry_period{500};       ///< [ms] between connection attempts
  std::chrono::milliseconds request_timeout{10000};  ///< [ms] to wait for any reply
  bool handle_signals = true;  ///< Run turns SIGINT / SIGTERM into Stop() while it runs
  /// Lock-step runs: the Run thread reads the data connection itself while the run lasts,
  /// which saves a thread wake-up per Step. False: the io thread reads it and hands each Step
  /// over.
  bool read_steps_on_run_thread = true;
  bool log = true;                          ///< write one line per life event to stderr
  protocol::ConnectionSettings connection;  ///< heartbeat and frame settings of both channels
};

/// A control: a PhysXControl (speed [m/s], steering [deg], handbrake) or a monoDrive EgoControl.
using Control = std::variant<protocol::PhysXControl, protocol::EgoControl>;

/// What a run is: the RunStart message (scenario, start, goal, control period, sensors, vehicle).
using RunStart = protocol::RunStartRequest;

/// How a run ended, with where its data belongs.
struct RunEnd {
  protocol::RunEndMessage message;  ///< scenario, termination reason, simulated time [s]
  std::string save_dir;             ///< the client's save folder of this worker (informative)
  bool save_minimal = false;        ///< the client asks for less data
};

/// A node's answer to the end of a run.
struct RerunDecision {
  bool request_rerun = false;  ///< ask the client to run the scenario again
  std::string reason;          ///< why; recorded in the scenario's result
};

/// Base class of a vehicle node: override the On* methods, then call Run(). Not copyable.
class VehicleNode {
 public:
  /// Keeps the settings; connects nothing until Run(). An empty token takes ASG_TOKEN.
  explicit VehicleNode(NodeSettings settings);
  virtual ~VehicleNode();
  VehicleNode(const VehicleNode&) = delete;
  VehicleNode& operator=(const VehicleNode&) = delete;

  /// Runs the node's life until Stop(), a signal, or the client closing the connection, then
  /// unregisters and closes. Throws NodeError when the client cannot be reached within
  /// connect_timeout or refuses a request; the connections are closed first. Call once.
  void Run();
  /// Makes Run() shut down and return; thread-safe, idempotent, may precede Run().
  void Stop();
  /// Why Run() returned ("stopped", "signal 15", or the client's close reason).
  std::string stop_reason() const;

  /// Uploads one file of the current (or last) scenario with SaveNodeFile and returns the path
  /// the client wrote, relative to its output folder. Blocking; thread-safe; not from the SDK's
  /// io thread. Throws NodeError when not registered, when the run was preempted, or when the
  /// client refuses (e.g. a path with "..").
  std::string SaveFile(const std::string& relative_path, std::string bytes);
  /// Sends a Control message to the worker now (asynchronous runs); thread-safe. Returns false
  /// when no data connection is up.
  bool SendControl(const Control& control);

  /// The settings, token resolved.
  const NodeSettings& settings() const { return settings_; }

 protected:
  /// Each operating info the client sends (Run thread).
  virtual void OnOperatingInfo(const protocol::NodeOperatingInfo& info);
  /// A run starts; return when ready (Run thread).
  virtual void OnRunStart(const RunStart& run);
  /// One tick; return the control to apply, or nothing to keep the previous one (Run thread).
  virtual std::optional<Control> OnStep(const Step& step);
  /// The run ended; save data with SaveFile unless preempted, and decide on a rerun (Run
  /// thread). The decision of a preempted run is ignored: the client re-queues it anyway.
  virtual RerunDecision OnRunEnd(const RunEnd& end, bool preempted);
  /// Forget the run's state before the next one (Run thread).
  virtual void OnReset();
  /// The client's answer to the NotifyReady after scenario_number (Run thread).
  virtual void OnReadyAnswer(uint32_t scenario_number, const protocol::NotifyReadyResponse& answer);

 private:
  struct Event {
    enum class Kind { kOperatingInfo, kClientClosed, kData, kDataClosed };
    Kind kind = Kind::kData;
    protocol::Message message;
    std::string reason;
    uint64_t generation = 0;  // data connection that sent it
  };
  struct RunState {
    bool active = false;
    bool disabled = false;   // VehicleStatus {enabled: false} arrived; RunEnd is awaited
    bool preempted = false;  // VehicleStatus said so
    std::chrono::steady_clock::time_point end_deadline;  // when to stop awaiting RunEnd
    RunStart start;
  };

  // Control plane (vehicle_node.cpp).
  static Event MakeEvent(Event::Kind kind, const protocol::Message& message,
                         const std::string& reason, uint64_t generation);
  void Push(Event event);
  std::optional<Event> WaitEvent(std::chrono::milliseconds timeout, bool wake_on_stop = true);
  bool StopRequested() const;
  void ConnectClient();
  void NotifyReady(uint32_t scenario_number, const RerunDecision& decision);
  void HandleOperatingInfo(const protocol::Message& message);
  void Shutdown();
  void Log(const std::string& line) const;
  std::shared_ptr<protocol::Connection> ClientConnection() const;
  std::shared_ptr<protocol::Connection> DataConnection() const;

  // Data plane (vehicle_node_data.cpp).
  void TryAttach();
  void DetachData(const std::string& reason, bool shutting_down = false);
  void CheckRunEndWait();
  void HandleData(protocol::Message& message);
  void HandleRunStart(const protocol::Message& message);
  void HandleStep(protocol::Message& message);
  void HandleVehicleStatus(const protocol::Message& message);
  void HandleRunEnd(const protocol::Message& message);
  void EndRun(protocol::RunEndMessage message, bool preempted, bool notify);

  NodeSettings settings_;
  std::unique_ptr<protocol::HandOverIo> io_;
  std::unique_ptr<protocol::HandOverIo::TakeOver> taken_;  // Run thread: during a lock-step run

  mutable std::mutex mutex_;  // guards the members down to stop_reason_
  std::condition_variable event_ready_;
  std::deque<Event> events_;
  bool stop_requested_ = false;
  std::shared_ptr<protocol::Connection> client_;
  std::shared_ptr<protocol::Connection> data_;
  uint32_t scenario_number_ = 0;  // of the current or last run
  bool run_preempted_ = false;    // the current or last run was preempted
  std::string stop_reason_;

  // Run-thread state.
  protocol::NodeOperatingInfo info_;
  std::string wanted_endpoint_;    // this worker's data endpoint from the operating info
  std::string attached_endpoint_;  // the endpoint of data_, empty when detached
  uint64_t data_generation_ = 0;
  std::chrono::steady_clock::time_point next_attach_;
  std::string save_dir_;
  bool save_minimal_ = false;
  RunState run_;
};

}  // namespace asg::nodes
