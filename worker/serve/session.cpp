// The interactive worker's session: its parts put together, loading, and the serving loop.
#include "worker/serve/session.h"

#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <iostream>
#include <stdexcept>

#include "core/check.h"
#include "protocol/messages_json.h"
#include "results/files.h"
#include "worker/serve/simif_constants.h"
#include "worker/worker_log.h"

namespace asg::worker::serve {

std::string NodesNote(const protocol::RunScenarioRequest& request) {
  return "vehicle_nodes.count is " + std::to_string(request.vehicle_nodes.count) +
         ", but the interactive worker attaches no vehicle nodes: the built-in driver \"" +
         json::Json(request.driver)["type"].get<std::string>() +
         "\" drives until EgoControl_ID takes the wheel";
}

protocol::RunScenarioRequest ReadFolderRequest(const std::filesystem::path& folder) {
  const std::filesystem::path file = folder / "request.json";
  try {
    return protocol::ParseMessage<protocol::RunScenarioRequest>(results::ReadTextFile(file));
  } catch (const std::exception& error) {
    throw std::runtime_error(file.string() + ": " + error.what());
  }
}

Session::Session(const ServeSettings& settings, const scene::ActorCatalog& catalog)
    : catalog_(catalog),
      live_(catalog),
      results_(settings.worker_id),
      clock_(live_, *this),
      hub_(io_, HubSettings{settings.host, settings.port, settings.token, settings.local_channel},
           logs_, [this](const Service& service, const Call& call) {
             return service.handler(*this, call);
           }) {
  if (settings.foxglove) {
    foxglove_ = std::make_unique<FoxgloveView>(
        io_,
        FoxgloveSettings{.host = settings.foxglove_host,
                         .port = settings.foxglove_port,
                         .token = settings.token,
                         .name = "asg-worker",
                         .channels = {},
                         .services = {}},
        live_, catalog.classes(), [this](const std::string& service, const json::Json& request) {
          return CallFromViewer(service, request);
        });
  }
}

uint16_t Session::ListenFoxglove() {
  ASG_CHECK(foxglove_ != nullptr);
  return foxglove_->Listen();
}

json::Json Session::CallFromViewer(const std::string& service, const json::Json& request) {
  if (service == "StepSimulation" && request.is_object() && request.contains("steps") &&
      request["steps"].is_number_unsigned() && request["steps"].get<uint64_t>() > kInlineSteps) {
    throw std::invalid_argument("at most " + std::to_string(kInlineSteps) +
                                " steps a call from the live view");
  }
  const protocol::Message message{service, 0, request, {}};
  const Reply reply = Services().at(service).handler(*this, Call{nullptr, 0, &message});
  return ViewerResponse(reply);
}

Session::~Session() = default;

void Session::Load(const protocol::RunScenarioRequest& request,
                   const std::filesystem::path& folder) {
  live_.Load(request);
  results_.Loaded(folder);
  interventions_.Clear();
  StartSensors();
  logs_.SetFolder(folder.empty() ? std::filesystem::path() : folder / "interactive");
  if (request.vehicle_nodes.count > 0) logs_.Diagnostic(0, "warning", NodesNote(request));
  clock_.StartPaused();
}

void Session::Reload() {
  clock_.Reload();
  results_.Clear();
  interventions_.Clear();
  StartSensors();
}

void Session::StartSensors() {
  const std::string error = sensors_.Start(live_);
  if (!error.empty()) logs_.Diagnostic(0, "error", "sensors not sampled: " + error);
}

void Session::StartLongStep(const Call& call, uint64_t steps) {
  clock_.StartLongStep(steps);
  hub_.Defer(call);
}

uint64_t Session::StartGoal(const Call& call, uint64_t steps, uint64_t feedback_every,
                            const std::string& failure) {
  const uint64_t id = clock_.StartGoal(call.client_id, steps, feedback_every);
  if (id != 0 && !failure.empty()) {
    // Accepted first, then failed: the reply is sent before the result.
    boost::asio::post(io_, [this, id, failure] { clock_.FailGoal(id, failure); });
  }
  return id;
}

void Session::Quit() {
  hub_.Quit();
  if (foxglove_) foxglove_->Stop();
  clock_.Quit();
}

void Session::StateChanged(SimState state, double time) {
  hub_.Broadcast("Event", {{"simulation_status_changed_event",
                            {{"status", SimulationStatusName(state)},
                             {"simulation_status", RoadRunnerStatus(state)},
                             {"state", static_cast<int>(state)},
                             {"state_name", SimStateName(state)},
                             {"time", time}}}});
}

void Session::RunEnded() {
  results_.RunEnded(live_, interventions_, captures_, logs_);
  if (foxglove_) foxglove_->RunEnded();
}

void Session::GoalFeedback(const SimulateStepsGoal& goal) {
  hub_.Push(goal.client_id, "SimulateStepsFeedback",
            {{"goal_id", goal.id},
             {"completed_steps", goal.done},
             {"remaining_steps", goal.steps - goal.done}});
}

void Session::GoalFinished(const SimulateStepsGoal& goal, GoalStatus status,
                           const std::string& message) {
  // simulation_interfaces Result: RESULT_OK only when every step was done, else
  // RESULT_OPERATION_FAILED; the action_msgs status tells the three endings apart.
  const int result = status == GoalStatus::kSucceeded ? kResultOk : kResultOperationFailed;
  hub_.Push(goal.client_id, "SimulateStepsResult",
            {{"goal_id", goal.id},
             {"completed_steps", goal.done},
             {"result", {{"result", result}, {"error_message", message}}},
             {"status", static_cast<int>(status)},
             {"status_name", GoalStatusName(status)}});
}

void Session::LongStepFinished(uint64_t done, uint64_t total) {
  json::Json body = {{"result", {{"result", kResultOk}, {"error_message", ""}}},
                     {"simulation_time", live_.time()}};
  if (done < total) {
    body["result"] = {{"result", kResultOperationFailed},
                      {"error_message", "the run ended after " + std::to_string(done) + " of " +
                                            std::to_string(total) + " steps"}};
  }
  hub_.AnswerDeferred(body);
}

int Session::Run() {
  boost::asio::signal_set signals(io_, SIGINT, SIGTERM);
  signals.async_wait([this](const boost::system::error_code& error, int) {
    if (!error) io_.stop();
  });
  auto work = boost::asio::make_work_guard(io_);
  using Kind = SimulationClock::Work::Kind;
  while (!io_.stopped()) {
    if (foxglove_) foxglove_->Update();
    const SimulationClock::Work work_done = clock_.Advance();
    if (work_done.kind == Kind::kIdle) {
      // Nothing runs: sleep until a request (or a timer) comes.
      logs_.Flush();
      io_.run_one();
      continue;
    }
    // Between steps: whatever has arrived, without waiting (or until the next paced step).
    if (work_done.kind == Kind::kWaiting) io_.run_one_until(work_done.due);
    io_.poll();
  }
  logs_.Flush();
  return 0;
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
  const uint16_t foxglove_port = settings.foxglove ? session.ListenFoxglove() : 0;
  std::cout << "serving " << settings.host << ":" << port << std::endl;
  if (settings.foxglove) {
    std::cout << "foxglove ws://" << settings.foxglove_host << ":" << foxglove_port << std::endl;
  }
  Log(core::LogLevel::kInfo,
      "interactive worker serving " + settings.host + ":" + std::to_string(port));
  return session.Run();
}

}  // namespace asg::worker::serve
