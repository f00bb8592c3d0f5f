// The control-plane state of external vehicle nodes (docs/vehicle-nodes.md): which nodes are
// registered for which worker, whether each worker's nodes are ready for its next scenario (the
// ready gate), which reruns were accepted, and the operating info published to every node.
//
// The gate, as AutoSceneGen's client: a worker may be handed its next scenario only when all
// `nodes_per_worker` nodes of that worker are registered and each has sent NotifyReady for the
// worker's last scenario number (0 before the first), and the worker holds no scenario. A node
// that registered after that scenario was handed out (a replacement, e.g. after a preemption)
// is ready with NotifyReady 0, since it never saw the scenario. With
// nodes_per_worker == 0 (the built-in driver) the gate is always open and no node may register.
//
// Reruns: NotifyReady with request_rerun for a scenario that this node's worker ran is accepted
// the first time it is asked for that run of the scenario, while the scenario has had fewer
// than max_reruns reruns; every later request for the same run is answered accepted: false.
//
// Not thread-safe: one owner (the farm loop) calls every method.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages.h"
#include "protocol/node_messages.h"

namespace asg::client {

/// How the nodes of a batch are admitted and what they are told.
struct NodeRegistrySettings {
  uint32_t nodes_per_worker = 0;      ///< vehicle_nodes.count: nodes expected per worker
  std::string token;                  ///< required of every node when not empty
  uint32_t max_reruns = 3;            ///< accepted reruns per scenario at most
  bool save_minimal = false;          ///< told to the nodes in the operating info
  std::filesystem::path out_dir;      ///< the batch folder; save_dirs are absolute paths under it
  std::vector<std::string> variants;  ///< the batch's variants, which name scenario folders
};

/// Outcome of a node request: success, or the description sent back in an Error reply.
struct NodeVerdict {
  bool ok = false;
  std::string error;   ///< why it was refused; empty when ok
  bool close = false;  ///< the connection is closed after the Error reply (a wrong token)
};

/// A rerun the registry accepted; the owner runs the scenario again.
struct AcceptedRerun {
  uint16_t worker_id = 0;
  uint32_t scenario_number = 0;  ///< the scenario's latest attempt is the one to repeat
  std::string node_name;
  std::string reason;
};

/// Outcome of NotifyReady: the reply, or an error; plus the accepted rerun, if any.
struct NotifyReadyOutcome {
  NodeVerdict verdict;
  protocol::NotifyReadyResponse response;
  std::optional<AcceptedRerun> rerun;
};

/// Registered nodes, readiness and reruns of one batch.
class NodeRegistry {
 public:
  /// Keeps the settings; out_dir is made absolute.
  explicit NodeRegistry(NodeRegistrySettings settings);

  /// A worker is known (registered, or about to be launched locally) with its data endpoint
  /// ("HOST:PORT", empty when unknown); calling it again with another non-empty endpoint
  /// updates it, an empty one leaves it. Returns whether the operating info changed.
  bool AddWorker(uint16_t worker_id, const std::string& data_endpoint);

  /// Registers a node from `peer` ("ADDRESS:PORT"): refused for a wrong token (and then its
  /// connection is to be closed; the token is checked by protocol::TokenGuard::Process(), which
  /// also refuses an address after too many wrong tokens), an unknown worker id, a name that is
  /// not a safe folder name (see IsSafeNodeName), a name taken on that worker, or a worker that
  /// already has nodes_per_worker nodes. Refusals name the node, its name clipped for the log.
  NodeVerdict Register(const protocol::NodeRegistration& registration, std::string_view peer = {});

  /// Removes a node (unregistered or its connection closed), which closes its worker's gate.
  /// Returns false when no such node was registered.
  bool Unregister(uint16_t worker_id, const std::string& node_name);

  /// Records that a registered node is ready after `last_scenario_number`, and decides its
  /// rerun request (see above).
  NotifyReadyOutcome NotifyReady(const protocol::NotifyReadyRequest& request);

  /// Whether the worker may be handed its next scenario now.
  bool GateOpen(uint16_t worker_id) const;

  /// Whether some worker that ran a scenario and holds none still has a registered node that
  /// has not sent NotifyReady for that scenario (which may ask for a rerun of it).
  bool AwaitingReady() const;

  /// The worker is handed `scenario_number`: it becomes the worker's last scenario number,
  /// ok_to_run is set, and its nodes must NotifyReady for it before the next one.
  void StartScenario(uint16_t worker_id, uint32_t scenario_number);

  /// The worker no longer holds a scenario (finished, preempted, refused or lost): ok_to_run
  /// is cleared. The scenario number stays the worker's last one.
  void EndScenario(uint16_t worker_id);

  /// Whether the node is registered and its worker ran `scenario_number` in this batch.
  bool MayUpload(uint16_t worker_id, const std::string& node_name, uint32_t scenario_number) const;

  /// Whether a node of that name is registered on that worker.
  bool IsRegistered(uint16_t worker_id, const std::string& node_name) const;

  /// Accepted reruns of a scenario so far.
  uint32_t Reruns(uint32_t scenario_number) const;

  /// The operating info: every known worker in ascending id order, with its last scenario
  /// number, ok_to_run, save dir (absolute out_dir/scenario_NNNN/nodes, empty before its first
  /// scenario), save_minimal and data endpoint.
  protocol::NodeOperatingInfo OperatingInfo() const;

  /// Nodes registered on a worker.
  size_t NodeCount(uint16_t worker_id) const;

 private:
  struct Node {
    std::optional<uint32_t> ready_after;  // last_scenario_number of its latest NotifyReady
    uint32_t joined_at = 0;               // the worker's scenario_number when the node registered
  };
  struct Worker {
    std::string data_endpoint;
    uint32_t scenario_number = 0;  // last scenario handed to it, 0 before the first
    bool running = false;          // holds a scenario (ok_to_run)
    std::set<uint32_t> ran;        // every scenario it was handed
    std::map<std::string, Node> nodes;
  };
  // Whether `node` of `worker` is ready for the worker's next scenario.
  static bool IsReady(const Worker& worker, const Node& node);
  struct RerunState {
    uint32_t runs = 0;                     // times the scenario was handed out
    uint32_t accepted = 0;                 // reruns accepted
    std::optional<uint32_t> accepted_run;  // the run whose rerun was accepted last
  };

  NodeRegistrySettings settings_;
  std::map<uint16_t, Worker> workers_;
  std::map<uint32_t, RerunState> reruns_;
};

/// Whether `name` can be a folder name: 1..64 characters of letters, digits, '_', '-' and '.',
/// not starting with '.'.
bool IsSafeNodeName(const std::string& name);

}  // namespace asg::client
