// The farm loop's side of the vehicle nodes: node requests, the ready gate around each
// scenario, preempted runs and accepted reruns.
#include <stdexcept>

#include "client/farm_loop.h"

namespace asg::client {

namespace {

/// vehicle_nodes.<key> as an unsigned integer, or `fallback` when absent.
uint32_t ReadCount(const Json& nodes, const char* key, uint32_t fallback) {
  if (!nodes.is_object() || !nodes.contains(key)) return fallback;
  const Json& value = nodes.at(key);
  if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > 255) {
    throw std::runtime_error(std::string("vehicle_nodes.") + key +
                             ": expected an integer in 0..255, got " + value.dump());
  }
  return value.get<uint32_t>();
}

}  // namespace

NodeRegistrySettings NodeSettingsFor(const Batch& batch, const FarmSettings& settings) {
  const Json& nodes = batch.settings.vehicle_nodes;
  NodeRegistrySettings node_settings;
  node_settings.nodes_per_worker = ReadCount(nodes, "count", 0);
  node_settings.max_reruns = ReadCount(nodes, "max_reruns", 3);
  if (nodes.is_object() && nodes.contains("save_minimal")) {
    if (!nodes.at("save_minimal").is_boolean()) {
      throw std::runtime_error("vehicle_nodes.save_minimal: expected a boolean, got " +
                               nodes.at("save_minimal").dump());
    }
    node_settings.save_minimal = nodes.at("save_minimal").get<bool>();
  }
  node_settings.token = settings.token;
  node_settings.out_dir = settings.out_dir;
  return node_settings;
}

void FarmLoop::OnNode(const FarmEvent& event) {
  if (context_.nodes == nullptr) return;
  const std::optional<AcceptedRerun> rerun = context_.nodes->Handle(event.node);
  if (!rerun) return;
  const uint32_t number = rerun->scenario_number;
  reruns_[number].push_back(RerunRecord{rerun->attempt, rerun->node_name, rerun->reason});
  context_.logger->Info("scenario " + std::to_string(number) + " will run again: node '" +
                        rerun->node_name + "' asked (" + rerun->reason + ")");
  // A rerun asked for before the worker's result arrived waits for that result.
  bool held = false;
  for (const auto& [key, link] : links_) held = held || scheduler_.AssignedTo(key) == number;
  if (held) {
    pending_reruns_.insert(number);
  } else {
    scheduler_.Requeue(number);
  }
}

void FarmLoop::OnPreempted(const FarmEvent& event, SteadyClock::time_point now) {
  const auto number = scheduler_.AssignedTo(event.worker);
  if (!number || *number != event.preempted.scenario_number) {
    context_.logger->Warning(WorkerName(event.worker) + " reports scenario " +
                             std::to_string(event.preempted.scenario_number) +
                             " preempted, but it does not hold it");
    return;
  }
  // The attempt counts as failed; the scenario is queued again and runs once the gate opens,
  // i.e. when the worker's nodes have sent NotifyReady for it.
  LoseWorker(event.worker, "preempted: " + event.preempted.reason, now);
}

void FarmLoop::EndRun(WorkerKey key) {
  const auto it = links_.find(key);
  if (it != links_.end() && context_.nodes != nullptr) {
    context_.nodes->registry().EndScenario(it->second.worker_id);
  }
}

void FarmLoop::RerunIfAsked(uint32_t scenario_number) {
  if (pending_reruns_.erase(scenario_number) > 0) scheduler_.Requeue(scenario_number);
}

}  // namespace asg::client
