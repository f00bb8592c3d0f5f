// The farm loop's line to one registered worker: who it is, the RunScenario requests sent to it,
// the answers to its reports, and closing it. The network side (farm_links.h) makes one per
// registered connection and hands it to the loop in a farm_event::Registered; tests give the loop
// fakes, so that its decisions are tested without sockets.
#pragma once

#include <cstdint>
#include <string>

#include "json/json.h"
#include "protocol/frame.h"

namespace asg::client {

/// A worker as it registered.
struct WorkerIdentity {
  uint16_t worker_id = 0;     ///< its id, 1..65535, unique among connected workers
  int64_t pid = 0;            ///< its process id on its host
  std::string peer;           ///< "HOST:PORT" its connection comes from
  std::string data_endpoint;  ///< where its vehicle nodes connect for data; empty without
};

/// One registered worker's connection, as the farm loop uses it. Used by the farm loop's thread
/// only.
class WorkerChannel {
 public:
  virtual ~WorkerChannel() = default;

  /// Who the worker is.
  virtual const WorkerIdentity& identity() const = 0;
  /// Sends scenario `scenario_number`'s RunScenario `request`; an Error reply, or none in time,
  /// comes back to the loop as a farm_event::RunRefused.
  virtual void SendRun(uint32_t scenario_number, const json::Json& request) = 0;
  /// Answers the worker's AnalyzeScenario `report` (type and reference): accepted.
  virtual void Accept(const protocol::Message& report) = 0;
  /// Answers the worker's AnalyzeScenario `report` with an Error "refused: <reason>".
  virtual void Refuse(const protocol::Message& report, const std::string& reason) = 0;
  /// Closes the connection with `reason` (a worker exits when its connection closes).
  virtual void Close(const std::string& reason) = 0;
  /// Whether the connection is still open.
  virtual bool IsOpen() const = 0;
};

}  // namespace asg::client
