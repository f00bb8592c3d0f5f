// The farm's own services: ListServices, LoadScenario, GetResult, CaptureScene; and the table.
#include <algorithm>

#include "capture/capture_error.h"
#include "protocol/messages_json.h"
#include "results/folder.h"
#include "worker/serve/requests.h"
#include "worker/serve/services.h"
#include "worker/serve/session.h"

namespace asg::worker::serve {
namespace {

using json::Json;

Reply ListServices(Session&, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  Json services = Json::array();
  for (const auto& [name, service] : Services()) {
    services.push_back(
        {{"name", name}, {"family", service.family}, {"description", service.description}});
  }
  return {{{"success", true}, {"services", std::move(services)}}};
}

Reply LoadScenario(Session& session, const Call& call) {
  const auto request = ReadRequest<LoadScenarioRequest>(call.body());
  const bool has_request = !request.request.is_null();
  if (has_request == !request.folder.empty()) {
    throw std::invalid_argument(
        "give exactly one of request (a RunScenario body) and folder "
        "(a scenario folder of a result)");
  }
  protocol::RunScenarioRequest scenario;
  std::filesystem::path from;
  if (has_request) {
    try {
      scenario = protocol::DecodeMessage<protocol::RunScenarioRequest>(request.request);
    } catch (const std::exception& error) {
      throw std::invalid_argument(std::string("request: ") + error.what());
    }
  } else {
    from = request.folder;
    try {
      scenario = ReadFolderRequest(from);
    } catch (const std::exception& error) {
      return {{{"success", false}, {"description", error.what()}}};
    }
  }
  if (session.clock().goal_running()) {
    return {{{"success", false}, {"description", "a SimulateSteps goal is running"}}};
  }
  try {
    session.Load(scenario, from);
  } catch (const std::exception& error) {
    return {
        {{"success", false}, {"description", std::string("scene not created: ") + error.what()}}};
  }
  Json reply = {{"success", true},
                {"scenario_number", scenario.scenario_number},
                {"seed", scenario.seed},
                {"entities", session.live().EntityNames().size()},
                {"driver", Json(scenario.driver)["type"]},
                {"state", SimStateName(session.clock().state())}};
  if (!from.empty()) {
    // Where the files go, relative to the folder given: nothing the client did not name.
    reply["log_folder"] = "interactive";
    reply["result_folder"] = "interactive/" + results::ScenarioFolderName(
                                                  static_cast<uint32_t>(scenario.scenario_number));
  }
  if (scenario.vehicle_nodes.count > 0) reply["note"] = NodesNote(scenario);
  return reply;
}

Reply GetResult(Session& session, const Call& call) {
  const bool include_trajectory = ReadRequest<GetResultRequest>(call.body()).include_trajectory;
  const RunResults& results = session.results();
  if (results.result_json().is_null()) {
    return {{{"success", false},
             {"available", false},
             {"description", "no run has ended yet (the state becomes STATE_STOPPED at the end)"}}};
  }
  Json body = {{"success", true}, {"available", true}, {"analysis", results.result_json()}};
  if (!include_trajectory) body["analysis"].erase("vehicle_trajectory");
  if (!results.result_folder().empty()) body["folder"] = results.result_folder().string();
  return {body};
}

Reply CaptureScene(Session& session, const Call& call) {
  const auto request = ReadRequest<CaptureSceneRequest>(call.body());
  const bool given = !request.scene_capture_settings.is_null();
  protocol::SceneCaptureSettings settings;
  if (given) {
    settings =
        protocol::DecodeMessage<protocol::SceneCaptureSettings>(request.scene_capture_settings);
  }
  if (!session.live().loaded()) return {{{"success", false}, {"description", NotLoaded()}}};
  if (!given) settings = session.live().request().scene_capture_settings;
  std::vector<protocol::CaptureImage> images;
  try {
    images = session.captures().Capture(session.live(), settings);
  } catch (const capture::CaptureError& error) {
    return {{{"success", false}, {"description", std::string("capture: ") + error.what()}}};
  }
  Reply reply;
  Json list = Json::array();
  for (const protocol::CaptureImage& image : images) {
    list.push_back({{"name", image.name},
                    {"offset", reply.attachment.size()},
                    {"size", image.png.size()},
                    {"format", "png"}});
    reply.attachment += image.png;
  }
  reply.body = {{"success", true}, {"time", session.live().time()}, {"images", std::move(list)}};
  return reply;
}

std::map<std::string, Service> MakeServices() {
  std::map<std::string, Service> services;
  AddSimulationInterfacesServices(&services);
  AddMonoDriveServices(&services);
  AddRoadRunnerServices(&services);
  AddFarmServices(&services);
  return services;
}

}  // namespace

void AddFarmServices(std::map<std::string, Service>* services) {
  const char* family = "asg";
  (*services)["ListServices"] = {family, "every service with its family", ListServices};
  (*services)["LoadScenario"] = {family, "load {request} or {folder}: PAUSED at time 0",
                                 LoadScenario};
  (*services)["GetResult"] = {family, "the AnalyzeScenario result of the ended run", GetResult};
  (*services)["CaptureScene"] = {family, "render the capture views now (PNG attachments)",
                                 CaptureScene};
}

const std::map<std::string, Service>& Services() {
  static const std::map<std::string, Service> services = MakeServices();
  return services;
}

}  // namespace asg::worker::serve
