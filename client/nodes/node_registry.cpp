// Registered vehicle nodes, the ready gate, reruns and the operating info.
#include "client/nodes/node_registry.h"

#include <utility>

#include "client/batch/batch.h"
#include "core/log_clip.h"
#include "protocol/token_gate.h"
#include "results/folder.h"

namespace asg::client {

namespace {

NodeVerdict Refuse(std::string error) { return {false, std::move(error)}; }

/// "node 'NAME' of worker N", the name clipped (core::ClipForLog): it goes to the log and to
/// the peer before it is checked.
std::string NodeLabel(uint16_t worker_id, const std::string& node_name) {
  return "node '" + core::ClipForLog(node_name) + "' of worker " + std::to_string(worker_id);
}

}  // namespace

bool IsSafeNodeName(const std::string& name) {
  if (name.empty() || name.size() > 64 || name.front() == '.') return false;
  for (const char c : name) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    if (!allowed) return false;
  }
  return true;
}

NodeRegistry::NodeRegistry(NodeRegistrySettings settings) : settings_(std::move(settings)) {
  if (!settings_.out_dir.empty()) settings_.out_dir = std::filesystem::absolute(settings_.out_dir);
}

bool NodeRegistry::AddWorker(uint16_t worker_id, const std::string& data_endpoint) {
  auto [it, inserted] = workers_.try_emplace(worker_id);
  if (data_endpoint.empty() || it->second.data_endpoint == data_endpoint) return inserted;
  it->second.data_endpoint = data_endpoint;
  return true;
}

NodeVerdict NodeRegistry::Register(const protocol::NodeRegistration& registration,
                                   std::string_view peer) {
  const std::string label = NodeLabel(registration.worker_id, registration.node_name);
  const std::string refusal = protocol::CheckPeerToken(settings_.token, registration.token, peer);
  if (!refusal.empty()) {
    NodeVerdict verdict = Refuse("refused " + label + ": " + refusal);
    verdict.close = true;
    return verdict;
  }
  if (!IsSafeNodeName(registration.node_name)) {
    return Refuse("refused " + label +
                  ": a node name is 1..64 letters, digits, '_', '-' or '.', not starting with '.'");
  }
  auto it = workers_.find(registration.worker_id);
  if (it == workers_.end()) {
    return Refuse("refused " + label + ": unknown worker id " +
                  std::to_string(registration.worker_id));
  }
  Worker& worker = it->second;
  if (worker.nodes.contains(registration.node_name)) {
    return Refuse("refused " + label + ": the name is taken on that worker");
  }
  if (worker.nodes.size() >= settings_.nodes_per_worker) {
    return Refuse("refused " + label + ": the worker already has " +
                  std::to_string(settings_.nodes_per_worker) + " node(s)");
  }
  worker.nodes.emplace(registration.node_name, Node{std::nullopt, worker.scenario_number});
  return {true, ""};
}

bool NodeRegistry::Unregister(uint16_t worker_id, const std::string& node_name) {
  auto it = workers_.find(worker_id);
  if (it == workers_.end()) return false;
  return it->second.nodes.erase(node_name) > 0;
}

NotifyReadyOutcome NodeRegistry::NotifyReady(const protocol::NotifyReadyRequest& request) {
  NotifyReadyOutcome outcome;
  const std::string label = NodeLabel(request.worker_id, request.node_name);
  auto it = workers_.find(request.worker_id);
  if (it == workers_.end() || !it->second.nodes.contains(request.node_name)) {
    outcome.verdict = Refuse(label + " is not registered");
    return outcome;
  }
  Worker& worker = it->second;
  worker.nodes[request.node_name].ready_after = request.last_scenario_number;
  outcome.verdict = {true, ""};
  outcome.response.received = true;
  const uint32_t number = request.last_scenario_number;
  if (!request.request_rerun || number == 0 || !worker.ran.contains(number)) return outcome;

  RerunState& state = reruns_[number];
  if (state.accepted_run == state.runs || state.accepted >= settings_.max_reruns) return outcome;
  state.accepted_run = state.runs;
  ++state.accepted;
  outcome.response.accepted = true;
  outcome.rerun =
      AcceptedRerun{request.worker_id, number, request.node_name, request.reason_for_rerun};
  return outcome;
}

bool NodeRegistry::GateOpen(uint16_t worker_id) const {
  if (settings_.nodes_per_worker == 0) return true;
  auto it = workers_.find(worker_id);
  if (it == workers_.end()) return false;
  const Worker& worker = it->second;
  if (worker.running || worker.nodes.size() < settings_.nodes_per_worker) return false;
  for (const auto& [name, node] : worker.nodes) {
    if (!IsReady(worker, node)) return false;
  }
  return true;
}

bool NodeRegistry::AwaitingReady() const {
  if (settings_.nodes_per_worker == 0) return false;
  for (const auto& [id, worker] : workers_) {
    if (worker.running || worker.scenario_number == 0) continue;
    for (const auto& [name, node] : worker.nodes) {
      if (!IsReady(worker, node)) return true;
    }
  }
  return false;
}

bool NodeRegistry::IsReady(const Worker& worker, const Node& node) {
  // Ready for the worker's last scenario, or joined since it was handed out (a replacement
  // node, e.g. after a preemption) and ready from its start (NotifyReady 0).
  const bool fresh = node.ready_after == 0u && node.joined_at == worker.scenario_number;
  return node.ready_after == worker.scenario_number || fresh;
}

void NodeRegistry::StartScenario(uint16_t worker_id, uint32_t scenario_number) {
  Worker& worker = workers_[worker_id];
  worker.scenario_number = scenario_number;
  worker.running = true;
  worker.ran.insert(scenario_number);
  ++reruns_[scenario_number].runs;
}

void NodeRegistry::EndScenario(uint16_t worker_id) {
  auto it = workers_.find(worker_id);
  if (it != workers_.end()) it->second.running = false;
}

bool NodeRegistry::MayUpload(uint16_t worker_id, const std::string& node_name,
                             uint32_t scenario_number) const {
  auto it = workers_.find(worker_id);
  return it != workers_.end() && it->second.nodes.contains(node_name) &&
         it->second.ran.contains(scenario_number);
}

bool NodeRegistry::IsRegistered(uint16_t worker_id, const std::string& node_name) const {
  auto it = workers_.find(worker_id);
  return it != workers_.end() && it->second.nodes.contains(node_name);
}

uint32_t NodeRegistry::Reruns(uint32_t scenario_number) const {
  auto it = reruns_.find(scenario_number);
  return it == reruns_.end() ? 0 : it->second.accepted;
}

size_t NodeRegistry::NodeCount(uint16_t worker_id) const {
  auto it = workers_.find(worker_id);
  return it == workers_.end() ? 0 : it->second.nodes.size();
}

protocol::NodeOperatingInfo NodeRegistry::OperatingInfo() const {
  protocol::NodeOperatingInfo info;
  for (const auto& [id, worker] : workers_) {
    info.info.worker_ids.push_back(id);
    info.info.scenario_numbers.push_back(worker.scenario_number);
    info.info.ok_to_run.push_back(worker.running);
    info.info.save_dirs.push_back(
        worker.scenario_number == 0
            ? std::string()
            : (results::ScenarioFolder(
                   settings_.out_dir, worker.scenario_number,
                   VariantOfNumber(worker.scenario_number, settings_.variants)) /
               "nodes")
                  .string());
    info.info.save_minimal.push_back(settings_.save_minimal);
    info.data_endpoints.push_back(worker.data_endpoint);
  }
  return info;
}

}  // namespace asg::client
