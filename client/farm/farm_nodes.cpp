// The farm loop's side of the vehicle nodes: the batch's control-plane settings, node requests
// (accepted reruns go into the book) and preempted runs. The ready gate around each scenario, and
// the wait for nodes that never get ready, are in farm_loop.cpp (AssignIdleWorkers,
// CheckNodeWait).
#include "client/farm/farm_loop.h"
#include "core/log_clip.h"

namespace asg::client {

NodeRegistrySettings NodeSettingsFor(const Batch& batch, const FarmSettings& settings) {
  const BatchNodeSettings& nodes = batch.settings.vehicle_nodes;
  NodeRegistrySettings node_settings;
  node_settings.nodes_per_worker = nodes.spec.count;
  node_settings.max_reruns = nodes.max_reruns;
  node_settings.save_minimal = nodes.save_minimal;
  node_settings.variants = batch.variants;
  node_settings.token = settings.token;
  node_settings.out_dir = settings.out_dir;
  return node_settings;
}

void FarmLoop::On(WorkerKey, farm_event::Node& event, SteadyClock::time_point) {
  if (context_.nodes == nullptr) return;
  const std::optional<AcceptedRerun> rerun = context_.nodes->Handle(
      event.node, [this](uint32_t number) { return book_.RerunPossible(number); });
  if (!rerun) return;
  const uint32_t number = rerun->scenario_number;
  // A rerun asked for before the worker's result arrived waits for that result.
  switch (book_.AcceptRerun(number, rerun->node_name, rerun->reason)) {
    case RerunEffect::kQueued:
    case RerunEffect::kAfterCurrent:
      context_.logger->Info("scenario " + std::to_string(number) + " will run again: node '" +
                            rerun->node_name + "' asked (" +
                            core::ClipForLog(rerun->reason, core::kLogMessageBytes) + ")");
      return;
    case RerunEffect::kIgnored:
      context_.logger->Warning("scenario " + std::to_string(number) + ": rerun asked by node '" +
                               rerun->node_name + "' ignored: its last attempt did not end done");
      return;
  }
}

void FarmLoop::On(WorkerKey key, farm_event::Preempted& event, SteadyClock::time_point now) {
  if (!links_.contains(key)) return;
  const auto number = book_.scheduler().AssignedTo(key);
  if (!number || *number != event.preempted.scenario_number) {
    context_.logger->Warning(WorkerName(key) + " reports scenario " +
                             std::to_string(event.preempted.scenario_number) +
                             " preempted, but it does not hold it");
    return;
  }
  // The attempt counts as failed; the scenario is queued again and runs once the gate opens,
  // i.e. when the worker's nodes have sent NotifyReady for it.
  LoseWorker(key, AttemptOutcome::kPreempted,
             "preempted: " + core::ClipForLog(event.preempted.reason, core::kLogMessageBytes), now);
}

}  // namespace asg::client
