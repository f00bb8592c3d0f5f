// The interactive worker's loop: connections, dispatch, playing, goals, the run's end.
#include "worker/serve/session.h"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <iostream>
#include <thread>

#include "capture/camera_sensor.h"
#include "capture/capture_error.h"
#include "capture/renderer.h"
#include "protocol/messages_json.h"
#include "protocol/token.h"
#include "regret/reference_plan.h"
#include "results/files.h"
#include "results/folder.h"
#include "results/record.h"
#include "scene/regret_problem.h"
#include "scene/run_variation.h"
#include "worker/node_sensors.h"
#include "worker/single_run.h"
#include "worker/worker_log.h"

namespace asg::worker::serve {
namespace {

using Clock = std::chrono::steady_clock;

/// Types answered before a token is checked.
constexpr const char* kHello = "Hello";

/// True for a reply body that reports a failure.
bool FailedBody(const json::Json& body) {
  if (!body.is_object()) return false;
  if (auto it = body.find("success"); it != body.end() && it->is_boolean() && !*it) return true;
  if (auto it = body.find("result"); it != body.end() && it->is_object()) {
    if (auto code = it->find("result"); code != it->end() && code->is_number() && *code != 1) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string NodesNote(const protocol::RunScenarioRequest& request) {
  return "vehicle_nodes.count is " + std::to_string(request.vehicle_nodes.count) +
         ", but the interactive worker attaches no vehicle nodes: the built-in driver \"" +
         json::Json(request.driver)["type"].get<std::string>() +
         "\" drives until EgoControl_ID takes the wheel";
}

const char* SimStateName(SimState state) {
  switch (state) {
    case SimState::kStopped:
      return "STATE_STOPPED";
    case SimState::kPlaying:
      return "STATE_PLAYING";
    case SimState::kPaused:
      return "STATE_PAUSED";
    case SimState::kQuitting:
      return "STATE_QUITTING";
  }
  return "STATE_STOPPED";
}

const char* SimulationStatusName(SimState state) {
  switch (state) {
    case SimState::kStopped:
      return "SIMULATION_STATUS_STOPPED";
    case SimState::kPlaying:
      return "SIMULATION_STATUS_RUNNING";
    case SimState::kPaused:
      return "SIMULATION_STATUS_PAUSED";
    case SimState::kQuitting:
      return "SIMULATION_STATUS_QUITTING";
  }
  return "SIMULATION_STATUS_STOPPED";
}

Session::Session(const ServeSettings& settings, const scene::ActorCatalog& catalog)
    : settings_(settings), catalog_(catalog), live_(catalog) {}

Session::~Session() = default;

uint16_t Session::Listen() {
  protocol::ConnectionSettings connection;
  if (!settings_.token.empty()) connection.registration_timeout = std::chrono::seconds(10);
  // Clients of an interactive session may sit idle for long; heartbeats still run.
  server_ = std::make_unique<protocol::Server>(
      io_.get_executor(), settings_.host, settings_.port, connection,
      [this](std::shared_ptr<protocol::Connection> c) { Accept(std::move(c)); });
  return server_->port();
}

void Session::Accept(std::shared_ptr<protocol::Connection> connection) {
  if (quitting_) {
    connection->Close("the simulation is quitting");
    return;
  }
  const int client_id = next_client_id_++;
  clients_[client_id] = connection;
  if (settings_.token.empty()) connection->MarkRegistered();
  std::weak_ptr<protocol::Connection> weak = connection;
  connection->SetFallbackHandler([this, weak, client_id](const protocol::Message& message) {
    if (auto self = weak.lock()) OnMessage(self, client_id, message);
  });
  connection->SetCloseHandler([this, client_id](const std::string&) {
    clients_.erase(client_id);
    subscribers_.erase(client_id);
    if (quitting_ && clients_.empty()) io_.stop();
  });
  connection->Start();
}

void Session::OnMessage(const std::shared_ptr<protocol::Connection>& connection, int client_id,
                        const protocol::Message& message) {
  logs_.Communication(client_id, message.type, "request", "info", message.reference);
  if (message.type == kHello) {
    const auto token = message.message.find("token");
    const std::string given = token != message.message.end() && token->is_string()
                                  ? token->get<std::string>()
                                  : std::string();
    if (!settings_.token.empty() && !protocol::TokensEqual(settings_.token, given)) {
      connection->ReplyError(message.reference, "refused: wrong token");
      connection->Close("wrong token");
      return;
    }
    connection->MarkRegistered();
    SendReply(*connection, client_id, message, {{"success", true}, {"client_id", client_id}}, {});
    return;
  }
  if (!connection->registered()) {
    connection->ReplyError(message.reference, "refused: send Hello {token} first");
    connection->Close("no token");
    return;
  }
  if (long_step_) {
    // A StepSimulation is being worked through: later requests wait for it, in order.
    pending_.push_back({connection, client_id, message});
    return;
  }
  Dispatch(connection, client_id, message);
}

void Session::Dispatch(const std::shared_ptr<protocol::Connection>& connection, int client_id,
                       const protocol::Message& message) {
  const auto& services = Services();
  const auto service = services.find(message.type);
  if (service == services.end()) {
    logs_.Communication(client_id, "Error", "reply", "error", message.reference);
    connection->ReplyError(message.reference,
                           "unknown service \"" + message.type + "\" (ListServices lists them)");
    return;
  }
  if (quitting_ && message.type != "GetSimulationState" && message.type != "ListServices" &&
      message.type != "SetSimulationState") {
    logs_.Communication(client_id, "Error", "reply", "error", message.reference);
    connection->ReplyError(message.reference, "the simulation is quitting");
    return;
  }
  Call call{connection, client_id, &message};
  Reply reply;
  try {
    reply = service->second.handler(*this, call);
  } catch (const std::exception& error) {
    logs_.Communication(client_id, "Error", "reply", "error", message.reference);
    connection->ReplyError(message.reference, message.type + ": " + error.what());
    return;
  }
  if (!reply.later) {
    SendReply(*connection, client_id, message, reply.body, std::move(reply.attachment));
  }
}

void Session::SendReply(protocol::Connection& connection, int client_id,
                        const protocol::Message& request, const json::Json& body,
                        std::string attachment) {
  logs_.Communication(client_id, protocol::ResponseType(request.type), "reply",
                      FailedBody(body) ? "error" : "info", request.reference);
  connection.Reply(request, body, std::move(attachment));
}

void Session::Push(protocol::Connection& connection, int client_id, const std::string& type,
                   const json::Json& body) {
  logs_.Communication(client_id, type, "event", FailedBody(body) ? "error" : "info", 0);
  connection.Send(type, body);
}

void Session::SetState(SimState state) {
  if (state == state_) return;
  state_ = state;
  pace_origin_.reset();
  const json::Json event = {{"simulation_status_changed_event",
                             {{"status", SimulationStatusName(state)},
                              {"state", static_cast<int>(state)},
                              {"state_name", SimStateName(state)},
                              {"time", live_.loaded() ? live_.time() : 0.0}}}};
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    if (auto connection = it->second.lock()) {
      Push(*connection, it->first, "Event", event);
      ++it;
    } else {
      it = subscribers_.erase(it);
    }
  }
}

void Session::Subscribe(const Call& call) { subscribers_[call.client_id] = call.connection; }

void Session::NameClient(int client_id, std::string name) {
  logs_.Diagnostic(client_id, "info", "client " + std::to_string(client_id) + " is " + name);
}

void Session::Load(const protocol::RunScenarioRequest& request,
                   const std::filesystem::path& folder) {
  live_.Load(request);
  folder_ = folder;
  result_json_ = nullptr;
  result_folder_.clear();
  StartSensors();
  logs_.SetFolder(folder.empty() ? std::filesystem::path() : folder / "interactive");
  if (request.vehicle_nodes.count > 0) logs_.Diagnostic(0, "warning", NodesNote(request));
  state_ = SimState::kStopped;  // so that the PAUSED below is announced
  SetState(SimState::kPaused);
}

void Session::Reload() {
  live_.Reload();
  pace_origin_.reset();
  result_json_ = nullptr;
  result_folder_.clear();
  StartSensors();
}

void Session::StartSensors() {
  sensors_.reset();
  latest_readings_.clear();
  latest_sensors_.reset();
  live_.SetTickObserver(nullptr);
  const protocol::RunScenarioRequest& request = live_.request();
  if (request.vehicle_nodes.sensors.empty()) return;
  try {
    sensors_ = std::make_unique<NodeSensors>(request.vehicle_nodes.sensors, live_.world(),
                                             scene::RunSeed(request), &cameras_);
  } catch (const std::exception& error) {
    logs_.Diagnostic(0, "error", std::string("sensors not sampled: ") + error.what());
    return;
  }
  live_.SetTickObserver([this](const scene::DriverInput& input) {
    // Sensors run at their own rates: each keeps its latest reading.
    const StepSensorData data = sensors_->Sample(input);
    for (const json::Json& header : data.readings) {
      const size_t offset = header.at("offset").get<size_t>();
      const size_t size = header.at("size").get<size_t>();
      std::string key = header.value("name", std::string()) + "/" +
                        header.value("encoding", header.value("type", std::string()));
      json::Json kept = header;
      kept.erase("offset");
      kept.erase("size");
      latest_readings_[key] = {std::move(kept), data.attachment.substr(offset, size)};
      latest_sensors_.reset();
    }
  });
}

bool Session::StepOnce() {
  if (!live_.loaded() || live_.ended()) return false;
  if (live_.Step()) {
    RunEnded();
    return false;
  }
  return true;
}

uint64_t Session::StepNow(uint64_t steps) {
  uint64_t done = 0;
  while (done < steps && StepOnce()) ++done;
  return done;
}

void Session::RunEnded() {
  const scene::RunOutcome& outcome = *live_.outcome();
  if (const auto* result = std::get_if<scene::RunResult>(&outcome)) {
    protocol::AnalyzeScenarioRequest analysis = result->analysis;
    analysis.worker_id = settings_.worker_id;
    const protocol::RunScenarioRequest& request = live_.request();
    const regret::ReferenceProblem problem = scene::RunReferenceProblem(live_.world(), request);
    const regret::ReferenceSettings reference_settings;
    analysis.regret = scene::RegretOf(
        analysis, problem, regret::PlanReference(problem, reference_settings), reference_settings);
    result_json_ = json::Json(analysis);
    result_json_["termination_reason_name"] = protocol::TerminationReasonName(result->reason());
    if (!folder_.empty()) {
      ScenarioCompleted completed{analysis, {}, {}};
      if (request.take_scene_capture) {
        // The same captures as the farm's: the scenario's views with the run annotated.
        try {
          if (!renderer_) renderer_ = std::make_unique<capture::CaptureRenderer>();
          completed.captures = renderer_->Render(live_.world(), request, &analysis);
        } catch (const capture::CaptureError& error) {
          completed.capture_error = error.what();
        }
      }
      const results::ScenarioRecord record =
          CompletedRecord(request, std::move(completed), settings_.worker_id, 0.0, "interactive");
      try {
        results::WriteScenarioFolder(folder_ / "interactive", record);
        result_folder_ = results::ScenarioFolder(folder_ / "interactive",
                                                 static_cast<uint32_t>(request.scenario_number));
      } catch (const std::exception& error) {
        logs_.Diagnostic(0, "error", std::string("result folder not written: ") + error.what());
      }
    }
    logs_.Diagnostic(
        0, "info",
        "run ended: " + std::string(protocol::TerminationReasonName(result->reason())) + " at " +
            std::to_string(analysis.vehicle_sim_time) + " s");
  } else {
    const auto& aborted = std::get<scene::RunAborted>(outcome);
    result_json_ = {{"aborted", true}, {"reason", aborted.reason}, {"time", aborted.time}};
    logs_.Diagnostic(0, "warning", "run aborted: " + aborted.reason);
  }
  SetState(SimState::kStopped);
}

void Session::StartLongStep(const Call& call, uint64_t steps) {
  long_step_ = LongStep{steps, steps, call.connection, *call.message, call.client_id};
}

void Session::FinishLongStep() {
  LongStep step = std::move(*long_step_);
  long_step_.reset();
  json::Json body = {{"result", {{"result", 1}, {"error_message", ""}}}};
  if (step.remaining > 0) {
    body["result"] = {
        {"result", 4},
        {"error_message", "the run ended after " + std::to_string(step.total - step.remaining) +
                              " of " + std::to_string(step.total) + " steps"}};
  }
  SendReply(*step.connection, step.client_id, step.request, body, {});
  DrainPending();
}

void Session::DrainPending() {
  while (!pending_.empty() && !long_step_) {
    Pending next = std::move(pending_.front());
    pending_.pop_front();
    if (next.connection->IsOpen()) Dispatch(next.connection, next.client_id, next.message);
  }
}

uint64_t Session::StartGoal(const Call& call, uint64_t steps, bool fail_at_once,
                            std::string failure) {
  if (goal_) return 0;
  Goal goal;
  goal.id = next_goal_id_++;
  goal.steps = steps;
  goal.feedback_every = std::max<uint64_t>(1, steps / 1000);
  goal.connection = call.connection;
  goal.client_id = call.client_id;
  goal_ = goal;
  if (fail_at_once) {
    // Accepted first, then failed: the reply is sent before the result.
    const uint64_t id = goal.id;
    boost::asio::post(io_, [this, id, failure] {
      if (goal_ && goal_->id == id) FinishGoal(4, failure);
    });
  }
  return goal.id;
}

bool Session::CancelGoal(uint64_t goal_id) {
  if (!goal_ || goal_->id != goal_id) return false;
  FinishGoal(4, "cancelled after " + std::to_string(goal_->done) + " of " +
                    std::to_string(goal_->steps) + " steps");
  return true;
}

void Session::FinishGoal(uint8_t result, const std::string& message) {
  Goal goal = std::move(*goal_);
  goal_.reset();
  Push(*goal.connection, goal.client_id, "SimulateStepsResult",
       {{"goal_id", goal.id},
        {"completed_steps", goal.done},
        {"result", {{"result", result}, {"error_message", message}}}});
}

bool Session::Advance() {
  if (long_step_) {
    if (long_step_->remaining == 0 || !StepOnce()) {
      FinishLongStep();
    } else {
      --long_step_->remaining;
    }
    return true;
  }
  if (goal_) {
    if (state_ != SimState::kPaused) return false;  // failed at once, result posted
    if (!StepOnce()) {
      FinishGoal(4, "the run ended after " + std::to_string(goal_->done) + " steps");
      return true;
    }
    Goal& goal = *goal_;
    ++goal.done;
    if (goal.done % goal.feedback_every == 0 || goal.done == goal.steps) {
      Push(*goal.connection, goal.client_id, "SimulateStepsFeedback",
           {{"goal_id", goal.id},
            {"completed_steps", goal.done},
            {"remaining_steps", goal.steps - goal.done}});
    }
    if (goal.done == goal.steps) FinishGoal(1, "");
    return true;
  }
  if (state_ == SimState::kPlaying) {
    if (!live_.loaded() || live_.ended()) {
      SetState(SimState::kStopped);
      return false;
    }
    if (pace_ > 0.0) {
      const Clock::time_point now = Clock::now();
      // A reload or a clock reset starts the pace over.
      if (!pace_origin_ || live_.steps() < pace_origin_steps_) {
        pace_origin_ = now;
        pace_origin_steps_ = live_.steps();
      }
      const double sim = (live_.steps() - pace_origin_steps_) * live_.timing().dt;
      const auto due = *pace_origin_ + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(sim / pace_));
      if (due > now) {
        io_.run_one_until(due);
        return true;
      }
    }
    StepOnce();
    return true;
  }
  return false;
}

int Session::Run() {
  boost::asio::signal_set signals(io_, SIGINT, SIGTERM);
  signals.async_wait([this](const boost::system::error_code& error, int) {
    if (!error) io_.stop();
  });
  auto work = boost::asio::make_work_guard(io_);
  while (!io_.stopped()) {
    if (Advance()) {
      // Between steps: whatever has arrived, without waiting.
      io_.poll();
    } else {
      logs_.Flush();
      io_.run_one();
    }
  }
  logs_.Flush();
  return 0;
}

void Session::Quit() {
  quitting_ = true;
  if (server_) server_->Stop();
  SetState(SimState::kQuitting);
  goal_.reset();
  // Clients get 2 s to hear the reply and hang up.
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::seconds(2));
  timer->async_wait([this, timer](const boost::system::error_code&) { io_.stop(); });
  boost::asio::post(io_, [this] {
    if (clients_.empty()) io_.stop();
  });
}

std::vector<protocol::CaptureImage> Session::Capture(
    const protocol::SceneCaptureSettings& settings) {
  if (!renderer_) renderer_ = std::make_unique<capture::CaptureRenderer>();
  scene::World world = live_.CurrentWorld();
  if (weather_set_) {
    world.sun_inclination = sun_inclination_;
    world.sun_yaw = sun_yaw_;
    world.haze_distance = haze_distance_;
  }
  protocol::RunScenarioRequest request = live_.request();
  request.take_scene_capture = true;
  request.scene_capture_settings = settings;
  return renderer_->Render(world, request, nullptr);
}

void Session::SetWeather(double sun_inclination, double sun_yaw, double haze_distance) {
  weather_set_ = true;
  sun_inclination_ = sun_inclination;
  sun_yaw_ = sun_yaw;
  haze_distance_ = haze_distance;
}

const StepSensorData* Session::LatestSensors() {
  if (latest_readings_.empty()) return nullptr;
  if (!latest_sensors_) {
    latest_sensors_ = std::make_unique<StepSensorData>();
    for (const auto& [key, reading] : latest_readings_) {
      AppendReading(reading.first, reading.second, latest_sensors_.get());
    }
  }
  return latest_sensors_.get();
}

protocol::RunScenarioRequest ReadFolderRequest(const std::filesystem::path& folder) {
  const std::filesystem::path file = folder / "request.json";
  try {
    return protocol::ParseMessage<protocol::RunScenarioRequest>(results::ReadTextFile(file));
  } catch (const std::exception& error) {
    throw std::runtime_error(file.string() + ": " + error.what());
  }
}

int ServeInteractive(const ServeSettings& settings, const scene::ActorCatalog& catalog) {
  Session session(settings, catalog);
  if (!settings.open.empty()) {
    try {
      session.Load(ReadFolderRequest(settings.open), settings.open);
    } catch (const std::exception& error) {
      std::cerr << "asg-worker: --open " << settings.open.string() << ": " << error.what() << "\n";
      return 2;
    }
  }
  const uint16_t port = session.Listen();
  std::cout << "serving " << settings.host << ":" << port << std::endl;
  Log(core::LogLevel::kInfo,
      "interactive worker serving " + settings.host + ":" + std::to_string(port));
  return session.Run();
}

}  // namespace asg::worker::serve
