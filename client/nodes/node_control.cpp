// Node requests answered against the registry; operating info published on change.
#include "client/nodes/node_control.h"

#include <type_traits>
#include <utility>
#include <variant>

#include "core/log_clip.h"
#include "protocol/messages_json.h"
#include "protocol/typed_connection.h"

namespace asg::client {

using json::Json;

NodeControl::NodeControl(NodeRegistrySettings settings, NodeFileStore* files, core::Logger* logger)
    : registry_(std::move(settings)), files_(files), logger_(logger) {}

void NodeControl::Log(core::LogLevel level, const std::string& message) const {
  if (logger_ != nullptr) logger_->Log(level, message);
}

std::optional<AcceptedRerun> NodeControl::Handle(const NodeEvent& event,
                                                 const RerunPossible& rerun_possible) {
  return std::visit(
      [&](const auto& payload) -> std::optional<AcceptedRerun> {
        using T = std::decay_t<decltype(payload)>;
        if constexpr (std::is_same_v<T, node_event::Register>) {
          OnRegister(event, payload);
        } else if constexpr (std::is_same_v<T, node_event::Unregister>) {
          OnUnregister(event, payload);
        } else if constexpr (std::is_same_v<T, node_event::Ready>) {
          return OnReady(event, payload, rerun_possible);
        } else if constexpr (std::is_same_v<T, node_event::SaveFile>) {
          OnSaveFile(event, payload);
        } else {
          static_assert(std::is_same_v<T, node_event::Closed>);
          OnClosed(event, payload);
        }
        return std::nullopt;
      },
      event.payload);
}

void NodeControl::OnUnregister(const NodeEvent& event, const node_event::Unregister& request) {
  const protocol::UnregisterVehicleNodeRequest& unregister = request.unregister;
  auto it = links_.find(event.link);
  const bool same = it != links_.end() && it->second.worker_id == unregister.worker_id &&
                    it->second.node_name == unregister.node_name;
  if (!same) {
    event.connection->ReplyError(event.request.reference,
                                 "node '" + core::ClipForLog(unregister.node_name) +
                                     "' is not registered on this connection");
    return;
  }
  registry_.Unregister(it->second.worker_id, it->second.node_name);
  Log(core::LogLevel::kInfo, "node '" + it->second.node_name + "' of worker " +
                                 std::to_string(it->second.worker_id) + " unregistered");
  links_.erase(it);
  event.connection->Reply(event.request, Json(protocol::UnregisterVehicleNodeResponse{true}));
}

void NodeControl::OnClosed(const NodeEvent& event, const node_event::Closed& closed) {
  auto it = links_.find(event.link);
  if (it == links_.end()) return;
  registry_.Unregister(it->second.worker_id, it->second.node_name);
  Log(core::LogLevel::kWarning, "node '" + it->second.node_name + "' of worker " +
                                    std::to_string(it->second.worker_id) +
                                    " left: connection closed (" + closed.reason + ")");
  links_.erase(it);
}

void NodeControl::OnRegister(const NodeEvent& event, const node_event::Register& request) {
  const protocol::NodeRegistration& registration = request.registration;
  if (links_.contains(event.link)) {
    event.connection->ReplyError(event.request.reference,
                                 "this connection already registered a node");
    return;
  }
  const NodeVerdict verdict = registry_.Register(registration, event.connection->peer());
  if (!verdict.ok) {
    Log(core::LogLevel::kWarning, verdict.error + " (from " + event.connection->peer() + ")");
    event.connection->ReplyError(event.request.reference, verdict.error);
    if (verdict.close) event.connection->Close("RegisterVehicleNode refused: wrong token");
    return;
  }
  links_[event.link] = {event.connection, registration.worker_id, registration.node_name};
  event.connection->MarkRegistered();  // lifts the connection's registration deadline
  // A node need not send heartbeats: its connection closing, and the wait for nodes, govern.
  event.connection->SetPeerTimeout(std::chrono::milliseconds(0));
  Log(core::LogLevel::kInfo, "node '" + registration.node_name + "' registered for worker " +
                                 std::to_string(registration.worker_id) + " from " +
                                 event.connection->peer());
  event.connection->Reply(event.request, Json(protocol::RegisterVehicleNodeResponse{true}));
  SendInfo(*event.connection);
}

std::optional<AcceptedRerun> NodeControl::OnReady(const NodeEvent& event,
                                                  const node_event::Ready& request,
                                                  const RerunPossible& rerun_possible) {
  protocol::NotifyReadyRequest ready = request.ready;
  // A rerun the farm could not honour is refused here rather than accepted and then ignored.
  if (ready.request_rerun && rerun_possible && !rerun_possible(ready.last_scenario_number)) {
    Log(core::LogLevel::kInfo, "node '" + core::ClipForLog(ready.node_name) +
                                   "' asked to rerun scenario " +
                                   std::to_string(ready.last_scenario_number) +
                                   ": refused, its last attempt did not end done");
    ready.request_rerun = false;
  }
  auto it = links_.find(event.link);
  if (it == links_.end() || it->second.worker_id != ready.worker_id ||
      it->second.node_name != ready.node_name) {
    event.connection->ReplyError(event.request.reference,
                                 "node '" + core::ClipForLog(ready.node_name) + "' of worker " +
                                     std::to_string(ready.worker_id) +
                                     " is not registered on this connection");
    return std::nullopt;
  }
  NotifyReadyOutcome outcome = registry_.NotifyReady(ready);
  if (!outcome.verdict.ok) {
    event.connection->ReplyError(event.request.reference, outcome.verdict.error);
    return std::nullopt;
  }
  event.connection->Reply(event.request, Json(outcome.response));
  if (ready.request_rerun) {
    Log(core::LogLevel::kInfo,
        "node '" + ready.node_name + "' asked to rerun scenario " +
            std::to_string(ready.last_scenario_number) + " (" +
            core::ClipForLog(ready.reason_for_rerun, core::kLogMessageBytes) +
            "): " + (outcome.rerun ? "accepted" : "refused"));
  }
  return outcome.rerun;
}

void NodeControl::OnSaveFile(const NodeEvent& event, const node_event::SaveFile& request) {
  protocol::SaveNodeFileRequest save = request.save;
  auto it = links_.find(event.link);
  if (it == links_.end()) {
    event.connection->ReplyError(event.request.reference,
                                 "no vehicle node is registered on this connection");
    return;
  }
  // worker_id and node_name may be left out: they are the connection's node's.
  if (save.worker_id == 0) save.worker_id = it->second.worker_id;
  if (save.node_name.empty()) save.node_name = it->second.node_name;
  if (it->second.worker_id != save.worker_id || it->second.node_name != save.node_name) {
    event.connection->ReplyError(
        event.request.reference,
        "node '" + core::ClipForLog(save.node_name) + "' of worker " +
            std::to_string(save.worker_id) + " is not the node registered on this connection ('" +
            it->second.node_name + "' of worker " + std::to_string(it->second.worker_id) + ")");
    return;
  }
  if (!registry_.MayUpload(save.worker_id, save.node_name, save.scenario_number)) {
    event.connection->ReplyError(event.request.reference, "worker " +
                                                              std::to_string(save.worker_id) +
                                                              " did not run scenario " +
                                                              std::to_string(save.scenario_number));
    return;
  }
  try {
    const std::string path =
        files_->Write(save.scenario_number, save.node_name, save.relative_path, request.bytes);
    event.connection->Reply(event.request, Json(protocol::SaveNodeFileResponse{true, path}));
  } catch (const NodeFileError& error) {
    Log(core::LogLevel::kWarning, "node '" + save.node_name + "': SaveNodeFile " + error.what());
    event.connection->ReplyError(event.request.reference, error.what());
  }
}

void NodeControl::SendInfo(protocol::Connection& connection) {
  protocol::NodeOperatingInfo info = registry_.OperatingInfo();
  protocol::SendMessage(connection, info);
  // The first node is now the only one told: what it was sent is what was published last.
  if (links_.size() == 1) published_ = std::move(info);
}

bool NodeControl::PublishIfChanged() {
  // Without a registered node there is nobody to tell, and the info (one entry per worker) is
  // not built: a node that registers gets the info then (OnRegister).
  if (links_.empty()) return false;
  protocol::NodeOperatingInfo info = registry_.OperatingInfo();
  if (published_ == info) return false;
  const Json body(info);
  for (const auto& [link, node] : links_) {
    node.connection->Send(protocol::TypeOf<protocol::NodeOperatingInfo>(), body);
  }
  published_ = std::move(info);
  return true;
}

void NodeControl::CloseAll(const std::string& reason) {
  for (const auto& [link, node] : links_) node.connection->Close(reason);
}

}  // namespace asg::client
