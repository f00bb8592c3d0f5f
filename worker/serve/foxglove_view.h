// The live view of the interactive worker (`asg-worker --serve ... --foxglove HOST:PORT`,
// docs/recordings.md "The live view"): the channels of a run's MCAP recording (recording/), filled
// from the loaded scenario as it plays or steps and sent over the Foxglove WebSocket protocol
// (foxglove_server.h), and the session's services callable from the viewer.
//
// Channels: /tf, /vehicle/pose and /vehicle/odometry whenever the simulated time has advanced
// (after each step while playing; after a StepSimulation, at its last step), /scene when a client
// subscribes to it, when the scenario is loaded or restarted and when the run ends (its driven path
// so far), /events and /log when the run ends.
//
// Threading: not thread-safe; the session's thread owns it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalog/actor_catalog.h"
#include "json/json.h"
#include "results/trajectory_csv.h"
#include "scene/live_run.h"
#include "worker/serve/call.h"
#include "worker/serve/foxglove_server.h"

namespace asg::worker::serve {

/// The services the live view advertises (a subset of Services(), each answered by its handler).
const std::vector<std::string>& FoxgloveServiceNames();

/// The body the viewer gets for a service's reply: its JSON body, with the attachment (a
/// CaptureScene's PNG images, which the body's offsets index) as "attachment_base64" when there
/// is one.
json::Json ViewerResponse(const Reply& reply);

/// The trajectory row of the vehicle's state `state` at `time` [s]: its position [m], Z-Y-X
/// Euler angles [deg], body twist and world velocity, the columns of trajectory.csv.
results::TrajectoryRow LiveTrajectoryRow(const scene::VehicleState& state, double time);

/// The live view; see the file comment.
class FoxgloveView {
 public:
  /// Answers a service call from the viewer: the service's name and request body; returns the
  /// response body or throws what the client is told.
  using CallService =
      std::function<json::Json(const std::string& service, const json::Json& request)>;

  /// `io`, `live` and `catalog` must outlive the view. `settings` gives the address and the
  /// token; its channels and services are filled here.
  FoxgloveView(boost::asio::io_context& io, FoxgloveSettings settings, const scene::LiveRun& live,
               const catalog::ActorCatalog& catalog, CallService call);
  ~FoxgloveView();

  /// Listens; throws std::runtime_error naming the address when it cannot. Returns the port.
  uint16_t Listen() { return server_->Listen(); }
  /// Publishes what changed since the last call: a new simulated time (the vehicle's channels),
  /// a restarted or newly loaded run (/scene). Cheap when nothing changed.
  void Update();
  /// The run ended: publishes /scene with its whole driven path, /events and /log.
  void RunEnded();
  /// Closes every client.
  void Stop() { server_->Stop(); }

 private:
  /// Sends /scene (when anyone listens) at the latest time.
  void PublishScene();

  const scene::LiveRun& live_;
  const catalog::ActorCatalog& catalog_;
  std::unique_ptr<FoxgloveServer> server_;
  std::vector<results::TrajectoryRow> driven_;  // the run's samples so far
  const scene::World* world_ = nullptr;         // the loaded world driven_ belongs to
  long steps_ = -1;                             // live_.steps() last published
};

}  // namespace asg::worker::serve
