// Wait for the nodes, start them, run under ExternalNodeDriver, end or preempt them.
#include "worker/node_run.h"

#include <cmath>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "protocol/messages_json.h"
#include "protocol/typed_connection.h"
#include "scene/run_variation.h"
#include "worker/node_driver.h"
#include "worker/node_sensors.h"

namespace asg::worker {

namespace {

using Clock = std::chrono::steady_clock;

Clock::duration Seconds(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

/// Sends RunStart to every node and waits for each RunStartResponse {ready: true}. Returns the
/// failure naming the first node that fails or is not ready, if any.
std::optional<std::string> StartNodes(const std::vector<std::shared_ptr<NodeLink>>& nodes,
                                      const protocol::RunStartRequest& start, double deadline) {
  struct Replies {
    std::mutex mutex;
    std::condition_variable done;
    size_t remaining = 0;
    std::string failure;
  };
  auto state = std::make_shared<Replies>();
  state->remaining = nodes.size();
  const auto timeout =
      std::chrono::milliseconds(static_cast<int64_t>(std::ceil(deadline * 1000.0)));
  const json::Json body(start);
  for (const auto& node : nodes) {
    const std::string name = node->name();
    node->connection().AsyncRequest(
        protocol::TypeOf<protocol::RunStartRequest>(), body, {}, timeout,
        [state, name](protocol::RequestResult result) {
          std::string failure;
          if (!result.success) {
            failure = result.description;
          } else {
            // A reply that does not decode is the node's failure (connection boundary).
            try {
              if (!protocol::DecodeMessage<protocol::RunStartResponse>(result.reply.message)
                       .ready) {
                failure = "RunStartResponse ready is false";
              }
            } catch (const json::DecodeError& error) {
              failure = std::string("bad RunStartResponse: ") + error.what();
            }
          }
          {
            std::lock_guard lock(state->mutex);
            if (!failure.empty() && state->failure.empty()) {
              state->failure = "node '" + name + "': " + failure;
            }
            --state->remaining;
          }
          // Notified after unlocking, so the woken thread does not block again on the mutex.
          state->done.notify_all();
        });
  }
  std::unique_lock lock(state->mutex);
  const bool finished = state->done.wait_for(lock, timeout + std::chrono::seconds(1), [&] {
    return state->remaining == 0 || !state->failure.empty();
  });
  if (!state->failure.empty()) return state->failure;
  if (!finished) return "no RunStart reply within the step deadline";
  return std::nullopt;
}

/// Tells every node still connected that the run is over.
void EndNodes(const std::vector<std::shared_ptr<NodeLink>>& nodes,
              const protocol::RunEndMessage& end) {
  const json::Json status(protocol::VehicleStatus{false, end.preempted});
  const json::Json body(end);
  for (const auto& node : nodes) {
    if (!node->open()) continue;
    node->connection().Send(protocol::TypeOf<protocol::VehicleStatus>(), status);
    node->connection().Send(protocol::TypeOf<protocol::RunEndMessage>(), body);
  }
}

protocol::RunStartRequest MakeRunStart(const scene::ScenarioRunner& runner,
                                       const protocol::RunScenarioRequest& request) {
  const scene::DriverTask task = runner.Task();
  protocol::RunStartRequest start;
  start.scenario_number = static_cast<uint32_t>(request.scenario_number);
  start.scene_description = request.scene_description;
  start.vehicle_start_location = task.start;
  start.vehicle_start_yaw = task.start_yaw;
  start.vehicle_goal_location = task.goal;
  start.goal_radius = task.goal_radius;
  start.control_period = task.control_period;
  start.sync = request.vehicle_nodes.sync;
  start.sensors = request.vehicle_nodes.sensors;
  start.vehicle = request.vehicle;
  start.run = request.variation.run;
  start.run_seed = scene::RunSeed(request);
  return start;
}

/// "unix", "tcp", or "unix+tcp" when the nodes' channels differ.
std::string NodesChannel(const std::vector<std::shared_ptr<NodeLink>>& nodes) {
  std::set<std::string_view> channels;
  for (const auto& node : nodes) channels.insert(node->connection().channel());
  std::string text;
  for (auto it = channels.rbegin(); it != channels.rend(); ++it) {
    if (!text.empty()) text += '+';
    text += *it;
  }
  return text;
}

}  // namespace

NodeRunOutcome RunWithNodes(scene::ScenarioRunner& runner,
                            const protocol::RunScenarioRequest& request, NodeServer& server,
                            std::unique_ptr<capture::CameraSensorRenderer>* cameras) {
  const protocol::VehicleNodesSpec& spec = request.vehicle_nodes;
  const uint32_t number = static_cast<uint32_t>(request.scenario_number);
  protocol::RunEndMessage end;
  end.scenario_number = number;

  const auto nodes = server.WaitForNodes(spec.count, Clock::now() + Seconds(spec.step_deadline));
  if (nodes.size() < spec.count) {
    // The nodes that did attach are told, so that they get ready for the scenario again.
    end.preempted = true;
    end.reason = std::to_string(nodes.size()) + " of " + std::to_string(spec.count) +
                 " vehicle nodes attached within the step deadline";
    EndNodes(nodes, end);
    return NodeRunPreempted{end.reason};
  }
  NodeSensors sensors(spec.sensors, runner.world(), scene::RunSeed(request), cameras);
  NodeDriverSettings settings{number, spec, request.vehicle, nullptr};
  ExternalNodeDriver driver(nodes, settings, &sensors);
  // A node failure ends the run here, at the data plane's boundary, as a preemption.
  const auto preempt = [&](std::string reason) {
    end.preempted = true;
    end.reason = reason;
    EndNodes(nodes, end);
    return NodeRunPreempted{std::move(reason), driver.ticks()};
  };
  if (std::optional<std::string> failure =
          StartNodes(nodes, MakeRunStart(runner, request), spec.step_deadline)) {
    return preempt(std::move(*failure));
  }
  const json::Json enabled(protocol::VehicleStatus{true, false});
  for (const auto& node : nodes)
    node->connection().Send(protocol::TypeOf<protocol::VehicleStatus>(), enabled);
  scene::RunOutcome run = [&] {
    // Lock-step: this thread reads the nodes' replies itself (protocol/hand_over_io.h).
    if (!spec.sync || server.hand_over() == nullptr) return runner.Run(driver);
    const auto io = server.hand_over()->Take();
    driver.SetIo(io.get());
    scene::RunOutcome outcome = runner.Run(driver);
    driver.SetIo(nullptr);
    return outcome;
  }();
  if (auto* aborted = std::get_if<scene::RunAborted>(&run)) {
    return preempt(std::move(aborted->reason));
  }
  NodeRunCompleted completed{std::get<scene::RunResult>(std::move(run)), driver.ticks()};
  completed.result.analysis.counters.node_channel = NodesChannel(nodes);
  const protocol::AnalyzeScenarioRequest& analysis = completed.result.analysis;
  end.termination_reason = analysis.termination_reason;
  end.termination_reason_name =
      std::string(protocol::TerminationReasonName(completed.result.reason()));
  end.vehicle_sim_time = analysis.vehicle_sim_time;
  EndNodes(nodes, end);
  return completed;
}

}  // namespace asg::worker
