// The network side of the farm: a server that accepts worker connections, checks each worker's
// token at registration and turns what workers send into FarmEvents.
//
// Per connection, on its io strand: "RegisterWorker" is answered at once (accepted, or an Error
// and a close for a wrong token or a worker id another open connection holds, which is logged;
// an id is free again once its connection closes); an accepted worker's connection goes to the
// farm loop as its WorkerChannel (worker_channel.h) in a farm_event::Registered. Any other
// message before registration gets an Error and a close. After registration, "StatusCode" frames
// and "AnalyzeScenario" requests (the latter answered by the loop) become events, and
// "WorkerIssueNotification" and "RunPreempted" are answered {received: true} and become events.
// Vehicle nodes (node_links.h) and an external search's scenario generator ("RegisterGenerator",
// handed to the feed's GeneratorPort, scenario_feed.h) share the port.
#pragma once

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "client/farm/farm_events.h"
#include "client/farm/scenario_feed.h"
#include "core/log.h"
#include "protocol/server.h"

namespace asg::client {

/// Where to listen and whom to let in.
struct LinkSettings {
  std::string host = "127.0.0.1";           ///< listening address
  uint16_t port = 0;                        ///< TCP port, 0 picks a free one
  std::string token;                        ///< required of every worker when not empty
  protocol::ConnectionSettings connection;  ///< heartbeats and limits of every connection
  /// [ms] a connection must register (a worker, or a vehicle node) within this, else it is
  /// closed; replaces connection.registration_timeout. 0 = no deadline.
  std::chrono::milliseconds registration_timeout{5000};
};

/// Accepts worker connections until destroyed or stopped. Thread-safe.
class WorkerLinks {
 public:
  /// Listens at once; throws std::runtime_error when it cannot. `queue` and `logger` must
  /// outlive every connection's handlers (they are released when connections close).
  /// `generator`, when not null, takes the registration of an external search's scenario
  /// generator ("RegisterGenerator") and must outlive the links; without it a generator is
  /// refused.
  WorkerLinks(const boost::asio::any_io_executor& executor, const LinkSettings& settings,
              EventQueue* queue, core::Logger* logger, GeneratorPort* generator = nullptr);

  /// The port being listened on.
  uint16_t port() const { return server_.port(); }
  /// Stops accepting new connections.
  void Stop() { server_.Stop(); }

 private:
  struct Link;  // what the handlers of one accepted connection share (farm_links.cpp)

  /// Sets the accepted connection's handlers, then starts it.
  void OnAccept(std::shared_ptr<protocol::Connection> connection);
  /// "RegisterWorker": the token check, the worker id taken, then the farm_event::Registered.
  static void SetRegisterWorker(protocol::Connection& connection, const Link& link,
                                const std::string& token);
  /// A registered worker's frames as events; each refuses an unregistered peer.
  static void SetWorkerFrames(protocol::Connection& connection, const Link& link);
  /// "RegisterGenerator": handed to the generator port.
  static void SetRegisterGenerator(protocol::Connection& connection, const Link& link);
  /// The close: the worker id released, and a farm_event::Closed (or the node's or the
  /// generator's close) for what the connection registered as.
  static void SetClose(protocol::Connection& connection, const Link& link);
  /// Pushes a vehicle node's events of `link` to the farm loop as farm_event::Node events.
  static NodeEventSink NodeEventPusher(const Link& link);

  LinkSettings settings_;
  EventQueue* queue_;
  core::Logger* logger_;
  GeneratorPort* generator_;
  std::atomic<WorkerKey> next_key_{1};
  /// The worker ids of registered connections still open; shared with the connections'
  /// handlers, which may outlive the links.
  struct TakenIds {
    std::mutex mutex;
    std::set<uint16_t> ids;
    /// Takes an id for a registering connection; false when an open connection holds it.
    bool Take(uint16_t id) {
      const std::lock_guard lock(mutex);
      return ids.insert(id).second;
    }
    void Release(uint16_t id) {
      const std::lock_guard lock(mutex);
      ids.erase(id);
    }
  };
  std::shared_ptr<TakenIds> taken_ = std::make_shared<TakenIds>();
  protocol::Server server_;  // last: its accept callback uses the members above
};

}  // namespace asg::client
