// A minimal client and worker for the node SDK tests, on real loopback sockets
// (protocol::Server / Connection), playing their side of docs/vehicle-nodes.md.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "protocol/io_threads.h"
#include "protocol/node_messages.h"
#include "protocol/server.h"

namespace asg::nodes::testing {

/// Generous bound on anything a test waits for, for a loaded 2-core machine.
inline constexpr std::chrono::seconds kWait{10};

/// Every non-heartbeat frame a peer received, with a wait on their arrival.
class Inbox {
 public:
  void Add(const protocol::Message& message) {
    {
      std::lock_guard lock(mutex_);
      messages_.push_back(message);
    }
    changed_.notify_all();
  }
  /// Waits until `count` messages of `type` arrived; returns them all (fewer on timeout).
  std::vector<protocol::Message> Wait(const std::string& type, size_t count = 1) {
    std::unique_lock lock(mutex_);
    std::vector<protocol::Message> found;
    changed_.wait_for(lock, kWait, [&] {
      found.clear();
      for (const auto& message : messages_) {
        if (message.type == type) found.push_back(message);
      }
      return found.size() >= count;
    });
    return found;
  }
  /// The messages of `type` received so far.
  std::vector<protocol::Message> Of(const std::string& type) {
    std::lock_guard lock(mutex_);
    std::vector<protocol::Message> found;
    for (const auto& message : messages_) {
      if (message.type == type) found.push_back(message);
    }
    return found;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<protocol::Message> messages_;
};

/// A server on 127.0.0.1 whose accepted connections get `setup` and are kept until destruction.
class Peer {
 public:
  using Setup = std::function<void(const std::shared_ptr<protocol::Connection>&)>;
  explicit Peer(Setup setup)
      : io_(2),
        setup_(std::move(setup)),
        server_(io_.context().get_executor(), "127.0.0.1", 0, {},
                [this](std::shared_ptr<protocol::Connection> connection) {
                  setup_(connection);
                  {
                    std::lock_guard lock(mutex_);
                    connections_.push_back(connection);
                  }
                  connection->Start();
                }) {}
  ~Peer() {
    server_.Stop();
    std::vector<std::shared_ptr<protocol::Connection>> connections;
    {
      std::lock_guard lock(mutex_);
      connections.swap(connections_);
    }
    for (const auto& connection : connections) connection->Close("peer shutting down");
    io_.Stop();
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(server_.port()); }
  /// The newest accepted connection; throws when there is none.
  std::shared_ptr<protocol::Connection> Latest() {
    std::lock_guard lock(mutex_);
    if (connections_.empty()) throw std::runtime_error("no connection accepted");
    return connections_.back();
  }
  /// Sends a message to every accepted connection.
  void Broadcast(const std::string& type, const json::Json& body) {
    std::lock_guard lock(mutex_);
    for (const auto& connection : connections_) connection->Send(type, body);
  }
  /// Closes every accepted connection.
  void CloseAll() {
    std::lock_guard lock(mutex_);
    for (const auto& connection : connections_) connection->Close("peer closes");
  }

 private:
  protocol::IoThreads io_;
  Setup setup_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<protocol::Connection>> connections_;
  protocol::Server server_;
};

/// The client's control plane: registration with a token, NotifyReady (first rerun request per
/// scenario accepted), SaveNodeFile (paths with ".." refused), UnregisterVehicleNode.
class FakeClient {
 public:
  explicit FakeClient(std::string token)
      : token_(std::move(token)), peer_([this](const auto& connection) { Setup(connection); }) {}
  std::string address() const { return peer_.address(); }
  Inbox& inbox() { return inbox_; }
  /// Sends VehicleNodeOperatingInfo to every node.
  void SendOperatingInfo(const protocol::NodeOperatingInfo& info) {
    peer_.Broadcast("VehicleNodeOperatingInfo", info);
  }
  /// Closes every node connection.
  void CloseAll() { peer_.CloseAll(); }

 private:
  void Setup(const std::shared_ptr<protocol::Connection>& connection) {
    connection->SetRequestHandler("RegisterVehicleNode", [this](const protocol::Message& m) {
      inbox_.Add(m);
      const auto request = protocol::DecodeMessage<protocol::NodeRegistration>(m.message);
      if (request.token != token_) throw std::runtime_error("wrong token");
      return json::Json(protocol::RegisterVehicleNodeResponse{true});
    });
    connection->SetRequestHandler("NotifyReady", [this](const protocol::Message& m) {
      inbox_.Add(m);
      const auto request = protocol::DecodeMessage<protocol::NotifyReadyRequest>(m.message);
      protocol::NotifyReadyResponse response{true, false};
      if (request.request_rerun) {
        std::lock_guard lock(mutex_);
        response.accepted = rerun_requested_[request.last_scenario_number]++ == 0;
      }
      return json::Json(response);
    });
    connection->SetRequestHandler("SaveNodeFile", [this](const protocol::Message& m) {
      inbox_.Add(m);
      const auto request = protocol::DecodeMessage<protocol::SaveNodeFileRequest>(m.message);
      if (request.relative_path.find("..") != std::string::npos) {
        throw std::runtime_error("relative_path leaves the node's folder");
      }
      char folder[32];
      std::snprintf(folder, sizeof(folder), "scenario_%04u", request.scenario_number);
      return json::Json(protocol::SaveNodeFileResponse{
          true, std::string(folder) + "/nodes/" + request.node_name + "/" + request.relative_path});
    });
    connection->SetRequestHandler("UnregisterVehicleNode", [this](const protocol::Message& m) {
      inbox_.Add(m);
      return json::Json(protocol::UnregisterVehicleNodeResponse{true});
    });
  }

  std::string token_;
  Inbox inbox_;
  std::mutex mutex_;
  std::map<uint32_t, int> rerun_requested_;
  Peer peer_;
};

/// A worker's data port: AttachNode with a token, Control messages recorded; the test drives
/// RunStart, Steps, VehicleStatus and RunEnd through the attached connection.
class FakeWorker {
 public:
  explicit FakeWorker(std::string token)
      : token_(std::move(token)), peer_([this](const auto& connection) { Setup(connection); }) {}
  std::string address() const { return peer_.address(); }
  Inbox& inbox() { return inbox_; }
  /// The node's connection (the newest accepted).
  std::shared_ptr<protocol::Connection> node() { return peer_.Latest(); }
  /// Closes every node connection.
  void CloseAll() { peer_.CloseAll(); }

 private:
  void Setup(const std::shared_ptr<protocol::Connection>& connection) {
    connection->SetRequestHandler("AttachNode", [this](const protocol::Message& m) {
      inbox_.Add(m);
      const auto request = protocol::DecodeMessage<protocol::AttachNodeRequest>(m.message);
      if (request.token != token_) throw std::runtime_error("wrong token");
      return json::Json(protocol::AttachNodeResponse{true});
    });
    connection->SetHandler("Control", [this](const protocol::Message& m) { inbox_.Add(m); });
  }

  std::string token_;
  Inbox inbox_;
  Peer peer_;
};

}  // namespace asg::nodes::testing
