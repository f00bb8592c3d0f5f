// The control plane's owner side: answers node requests against the NodeRegistry, writes node
// files, and publishes the operating info to every registered node whenever it changes.
//
// Replies (docs/vehicle-nodes.md): RegisterVehicleNode -> {received: true} then the current
// operating info to that node, or Error; UnregisterVehicleNode -> {received: true};
// NotifyReady -> {received, accepted}, or Error from a node that is not registered on that
// connection; SaveNodeFile -> {received: true, path}, or Error (not registered, a scenario its
// worker did not run, an unsafe path; nothing is written then). A node connection that closes
// unregisters its node. Not thread-safe: one owner (the farm loop) calls every method.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "client/nodes/node_files.h"
#include "client/nodes/node_links.h"
#include "client/nodes/node_registry.h"
#include "core/log.h"

namespace asg::client {

/// Answers the nodes of one batch.
class NodeControl {
 public:
  /// `files` and `logger` (which may be null) must outlive this object.
  NodeControl(NodeRegistrySettings settings, NodeFileStore* files, core::Logger* logger);

  /// Whether a rerun of a scenario can be honoured now (its last attempt ended done, or is
  /// still running); a rerun request for one that cannot is answered accepted: false.
  using RerunPossible = std::function<bool(uint32_t scenario_number)>;

  /// Answers one event; returns the rerun it accepted, if any. Call PublishIfChanged after.
  std::optional<AcceptedRerun> Handle(const NodeEvent& event,
                                      const RerunPossible& rerun_possible = {});

  /// Sends the operating info to every registered node when it differs from what was sent
  /// last; returns whether it was sent.
  bool PublishIfChanged();

  /// Closes every node connection with `reason`.
  void CloseAll(const std::string& reason);

  /// The registry, for the gate and the worker's scenario transitions.
  NodeRegistry& registry() { return registry_; }
  const NodeRegistry& registry() const { return registry_; }

 private:
  /// A registered node's connection.
  struct NodeLink {
    std::shared_ptr<protocol::Connection> connection;
    uint16_t worker_id = 0;
    std::string node_name;
  };

  void Log(core::LogLevel level, const std::string& message) const;
  void OnRegister(const NodeEvent& event, const node_event::Register& request);
  void OnUnregister(const NodeEvent& event, const node_event::Unregister& request);
  std::optional<AcceptedRerun> OnReady(const NodeEvent& event, const node_event::Ready& request,
                                       const RerunPossible& rerun_possible);
  void OnSaveFile(const NodeEvent& event, const node_event::SaveFile& request);
  void OnClosed(const NodeEvent& event, const node_event::Closed& closed);
  void SendInfo(protocol::Connection& connection);

  NodeRegistry registry_;
  NodeFileStore* files_;
  core::Logger* logger_;
  std::map<uint64_t, NodeLink> links_;  // registered nodes by link
  std::optional<protocol::NodeOperatingInfo> published_;
};

}  // namespace asg::client
