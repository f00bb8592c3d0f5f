// Node requests answered against the registry; operating info published on change.
#include "client/node_control.h"

#include <utility>

#include "protocol/messages_json.h"

namespace asg::client {

using protocol::Json;

NodeControl::NodeControl(NodeRegistrySettings settings, NodeFileStore* files, Logger* logger)
    : registry_(std::move(settings)), files_(files), logger_(logger) {}

void NodeControl::Log(LogLevel level, const std::string& message) const {
  if (logger_ != nullptr) logger_->Log(level, message);
}

std::optional<AcceptedRerun> NodeControl::Handle(const NodeEvent& event) {
  switch (event.kind) {
    case NodeEvent::Kind::kRegister:
      OnRegister(event);
      return std::nullopt;
    case NodeEvent::Kind::kUnregister: {
      auto it = links_.find(event.link);
      const bool same = it != links_.end() && it->second.worker_id == event.unregister.worker_id &&
                        it->second.node_name == event.unregister.node_name;
      if (!same) {
        event.connection->ReplyError(
            event.request.reference,
            "node '" + event.unregister.node_name + "' is not registered on this connection");
        return std::nullopt;
      }
      registry_.Unregister(it->second.worker_id, it->second.node_name);
      Log(LogLevel::kInfo, "node '" + it->second.node_name + "' of worker " +
                               std::to_string(it->second.worker_id) + " unregistered");
      links_.erase(it);
      event.connection->Reply(event.request, Json(protocol::UnregisterVehicleNodeResponse{true}));
      return std::nullopt;
    }
    case NodeEvent::Kind::kReady:
      return OnReady(event);
    case NodeEvent::Kind::kSaveFile:
      OnSaveFile(event);
      return std::nullopt;
    case NodeEvent::Kind::kClosed: {
      auto it = links_.find(event.link);
      if (it == links_.end()) return std::nullopt;
      registry_.Unregister(it->second.worker_id, it->second.node_name);
      Log(LogLevel::kWarning, "node '" + it->second.node_name + "' of worker " +
                                  std::to_string(it->second.worker_id) +
                                  " left: connection closed (" + event.text + ")");
      links_.erase(it);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

void NodeControl::OnRegister(const NodeEvent& event) {
  if (links_.contains(event.link)) {
    event.connection->ReplyError(event.request.reference,
                                 "this connection already registered a node");
    return;
  }
  const NodeVerdict verdict = registry_.Register(event.registration);
  if (!verdict.ok) {
    Log(LogLevel::kWarning, verdict.error + " (from " + event.connection->peer() + ")");
    event.connection->ReplyError(event.request.reference, verdict.error);
    return;
  }
  links_[event.link] = {event.connection, event.registration.worker_id,
                        event.registration.node_name};
  Log(LogLevel::kInfo, "node '" + event.registration.node_name + "' registered for worker " +
                           std::to_string(event.registration.worker_id) + " from " +
                           event.connection->peer());
  event.connection->Reply(event.request, Json(protocol::RegisterVehicleNodeResponse{true}));
  SendInfo(*event.connection);
}

std::optional<AcceptedRerun> NodeControl::OnReady(const NodeEvent& event) {
  auto it = links_.find(event.link);
  if (it == links_.end() || it->second.worker_id != event.ready.worker_id ||
      it->second.node_name != event.ready.node_name) {
    event.connection->ReplyError(event.request.reference,
                                 "node '" + event.ready.node_name + "' of worker " +
                                     std::to_string(event.ready.worker_id) +
                                     " is not registered on this connection");
    return std::nullopt;
  }
  NotifyReadyOutcome outcome = registry_.NotifyReady(event.ready);
  if (!outcome.verdict.ok) {
    event.connection->ReplyError(event.request.reference, outcome.verdict.error);
    return std::nullopt;
  }
  event.connection->Reply(event.request, Json(outcome.response));
  if (event.ready.request_rerun) {
    Log(LogLevel::kInfo, "node '" + event.ready.node_name + "' asked to rerun scenario " +
                             std::to_string(event.ready.last_scenario_number) + " (" +
                             event.ready.reason_for_rerun +
                             "): " + (outcome.rerun ? "accepted" : "refused"));
  }
  return outcome.rerun;
}

void NodeControl::OnSaveFile(const NodeEvent& event) {
  const protocol::SaveNodeFileRequest& save = event.save;
  auto it = links_.find(event.link);
  if (it == links_.end() || it->second.worker_id != save.worker_id ||
      it->second.node_name != save.node_name) {
    event.connection->ReplyError(event.request.reference, "node '" + save.node_name +
                                                              "' is not registered on this "
                                                              "connection");
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
        files_->Write(save.scenario_number, save.node_name, save.relative_path, event.bytes);
    event.connection->Reply(event.request, Json(protocol::SaveNodeFileResponse{true, path}));
  } catch (const NodeFileError& error) {
    Log(LogLevel::kWarning, "node '" + save.node_name + "': SaveNodeFile " + error.what());
    event.connection->ReplyError(event.request.reference, error.what());
  }
}

void NodeControl::SendInfo(protocol::Connection& connection) {
  connection.Send(kOperatingInfoType, Json(registry_.OperatingInfo()));
}

bool NodeControl::PublishIfChanged() {
  protocol::NodeOperatingInfo info = registry_.OperatingInfo();
  if (published_ == info) return false;
  const Json body(info);
  for (const auto& [link, node] : links_) node.connection->Send(kOperatingInfoType, body);
  published_ = std::move(info);
  return true;
}

void NodeControl::CloseAll(const std::string& reason) {
  for (const auto& [link, node] : links_) node.connection->Close(reason);
}

}  // namespace asg::client
