// The live view: the recording's channels filled from the loaded scenario, over Foxglove's
// WebSocket protocol.
#include "worker/serve/foxglove_view.h"

#include <optional>
#include <string_view>
#include <variant>

#include "protocol/messages_json.h"
#include "recording/recording_schemas.h"
#include "recording/run_messages.h"
#include "results/folder.h"
#include "worker/serve/monodrive_reply.h"
#include "worker/serve/service_schemas.h"

namespace asg::worker::serve {
namespace {

/// Most samples of the driven path kept: beyond, every other one is dropped (the path drawn
/// coarser, its memory bounded however long the run).
constexpr size_t kMaxDrivenSamples = 20000;

/// Channel ids, in the order of the recording's channels.
enum ChannelId : uint32_t { kTf = 1, kPose, kOdometry, kScene, kEvents, kLog };

/// The embedded JSON Schema `schema_name`.json of recording/schemas/.
std::string SchemaText(const std::string& schema_name) {
  for (const recording::RecordingSchemaFile& file : recording::RecordingSchemaFiles()) {
    if (file.name == schema_name + ".json") return std::string(file.text);
  }
  return "{}";
}

std::vector<FoxgloveChannel> Channels() {
  const std::pair<const char*, const char*> table[] = {{"/tf", "foxglove.FrameTransform"},
                                                       {"/vehicle/pose", "foxglove.PoseInFrame"},
                                                       {"/vehicle/odometry", "asg.VehicleOdometry"},
                                                       {"/scene", "foxglove.SceneUpdate"},
                                                       {"/events", "asg.Event"},
                                                       {"/log", "foxglove.Log"}};
  std::vector<FoxgloveChannel> channels;
  uint32_t id = kTf;
  for (const auto& [topic, schema] : table) {
    channels.push_back({id++, topic, schema, SchemaText(schema)});
  }
  return channels;
}

std::vector<FoxgloveService> ServicesAdvertised() {
  json::Json schemas = ServiceSchemas();
  std::vector<FoxgloveService> services;
  uint32_t id = 1;
  for (const std::string& name : FoxgloveServiceNames()) {
    json::Json schema = schemas["services"][name]["request"];
    // A "$ref" into the ServiceSchemas document's "$defs": the schema keeps them.
    if (schema.is_object()) schema["$defs"] = schemas["$defs"];
    services.push_back({id++, name, schema.is_object() ? schema.dump() : "{}"});
  }
  return services;
}

/// The ended run's result as its result.json would hold it (no regret: the live run's regret is
/// in GetResult), or nothing for a run its driver aborted.
std::optional<results::ScenarioResult> EndedResult(const scene::LiveRun& live) {
  const auto* ran = std::get_if<scene::RunResult>(&*live.outcome());
  if (ran == nullptr) return std::nullopt;
  results::ScenarioResult result;
  result.scenario_number = static_cast<uint32_t>(live.request().scenario_number);
  result.status = results::ScenarioStatus::kDone;
  result.termination_reason = ran->reason();
  result.vehicle_sim_time = ran->analysis.vehicle_sim_time;
  return result;
}

}  // namespace

json::Json ViewerResponse(const Reply& reply) {
  // As in monoDrive's framing, which has no attachment either.
  json::Json body = reply.body;
  if (!reply.attachment.empty()) body["attachment_base64"] = Base64(reply.attachment);
  return body;
}

const std::vector<std::string>& FoxgloveServiceNames() {
  static const std::vector<std::string> names = {
      "GetSimulationState", "SetSimulationState", "StepSimulation",
      "ResetSimulation",    "GetEntities",        "GetEntityState",
      "SetEntityState",     "CaptureScene",       "GetResult"};
  return names;
}

results::TrajectoryRow LiveTrajectoryRow(const scene::VehicleState& state, double time) {
  const Eigen::Vector3d& position = state.position;
  const Eigen::Vector3d& body = state.linear_velocity;
  const Eigen::Vector3d& spin = state.angular_velocity;
  const Eigen::Vector3d world = state.orientation * body;
  return {.t = time,
          .x = position.x(),
          .y = position.y(),
          .z = position.z(),
          .roll = state.roll,
          .pitch = state.pitch,
          .yaw = state.yaw,
          .vx = body.x(),
          .vy = body.y(),
          .vz = body.z(),
          .wx = spin.x(),
          .wy = spin.y(),
          .wz = spin.z(),
          .vx_world = world.x(),
          .vy_world = world.y(),
          .vz_world = world.z()};
}

FoxgloveView::FoxgloveView(boost::asio::io_context& io, FoxgloveSettings settings,
                           const scene::LiveRun& live, const catalog::ActorCatalog& catalog,
                           CallService call)
    : live_(live), catalog_(catalog) {
  settings.channels = Channels();
  settings.services = ServicesAdvertised();
  server_ = std::make_unique<FoxgloveServer>(io, std::move(settings), std::move(call),
                                             [this](uint32_t channel) {
                                               if (channel == kScene) PublishScene();
                                             });
}

FoxgloveView::~FoxgloveView() = default;

void FoxgloveView::Update() {
  if (!live_.loaded()) return;
  const bool restarted = &live_.world() != world_ || live_.steps() < steps_;
  if (!restarted && live_.steps() == steps_) return;
  steps_ = live_.steps();
  if (restarted) {
    world_ = &live_.world();
    driven_.clear();
  }
  const results::TrajectoryRow row = LiveTrajectoryRow(live_.vehicle_state(), live_.time());
  if (driven_.size() >= kMaxDrivenSamples) {
    // Keep the first sample and every other one after it.
    size_t kept = 1;
    for (size_t i = 2; i < driven_.size(); i += 2) driven_[kept++] = driven_[i];
    driven_.resize(kept);
  }
  driven_.push_back(row);
  if (restarted) PublishScene();
  const uint64_t time = recording::SimTimeNanoseconds(row.t);
  if (server_->Subscribed(kTf)) server_->Publish(kTf, time, recording::VehicleTransform(row));
  if (server_->Subscribed(kPose)) server_->Publish(kPose, time, recording::VehiclePose(row));
  if (server_->Subscribed(kOdometry)) {
    server_->Publish(kOdometry, time, recording::VehicleOdometry(row));
  }
}

void FoxgloveView::RunEnded() {
  Update();
  if (!live_.ended()) return;
  PublishScene();
  const std::optional<results::ScenarioResult> result = EndedResult(live_);
  if (!result) return;
  const uint64_t time = recording::SimTimeNanoseconds(live_.time());
  server_->Publish(kEvents, time, recording::TerminationEvent(*result, time));
  server_->Publish(kLog, time, recording::TerminationLog(*result, time));
}

void FoxgloveView::PublishScene() {
  if (!live_.loaded() || !server_->Subscribed(kScene)) return;
  results::StoredScenario scenario;
  scenario.request = json::Json(live_.request());
  scenario.trajectory = driven_;
  const uint64_t time = recording::SimTimeNanoseconds(driven_.empty() ? 0.0 : driven_.back().t);
  server_->Publish(kScene, time, recording::SceneUpdate(scenario, &catalog_, time));
}

}  // namespace asg::worker::serve
