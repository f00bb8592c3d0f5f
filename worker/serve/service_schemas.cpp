// Each service's request body, named once by the type its handler decodes.
#include "worker/serve/service_schemas.h"

#include <map>

#include "json/schema.h"
#include "protocol/messages_json.h"
#include "protocol/node_messages.h"
#include "worker/serve/requests.h"
#include "worker/serve/services.h"
#include "worker/serve/simif_constants.h"

namespace asg::worker::serve {
namespace {

/// Writes the schema of one request body, adding the definitions it uses to `builder`.
using BodySchema = json::Json (*)(json::SchemaBuilder& builder);

template <class T>
json::Json Body(json::SchemaBuilder&) {
  return RequestSchema<T>();
}

/// A body that is a project message, decoded by protocol/.
template <class T>
json::Json Message(json::SchemaBuilder& builder) {
  return json::SchemaRef<T>(builder);
}

/// The body of every service, by service name.
const std::map<std::string, BodySchema>& BodySchemas() {
  static const std::map<std::string, BodySchema> bodies = {
      // asg
      {"ListServices", Body<EmptyRequest>},
      {"LoadScenario", Body<LoadScenarioRequest>},
      {"GetResult", Body<GetResultRequest>},
      {"CaptureScene", Body<CaptureSceneRequest>},
      // monodrive
      {"GetVersion", Body<EmptyRequest>},
      {"ClosedLoopConfigCommand_ID", Message<protocol::RunScenarioRequest>},
      {"ClosedLoopStepCommand_ID", Body<ClosedLoopStepRequest>},
      {"EgoControl_ID", Message<protocol::EgoControl>},
      {"SampleSensorsCommand_ID", Body<SampleSensorsRequest>},
      {"WeatherConfig", Body<WeatherRequest>},
      // simulation_interfaces
      {"GetSimulatorFeatures", Body<EmptyRequest>},
      {"GetSpawnables", Body<SpawnablesRequest>},
      {"SpawnEntity", Body<SpawnRequestBody>},
      {"SpawnEntities", Body<SpawnEntitiesRequest>},
      {"DeleteEntity", Body<EntityRequest>},
      {"GetEntities", Body<FilteredRequest>},
      {"GetEntityInfo", Body<EntityRequest>},
      {"GetEntityBounds", Body<EntityRequest>},
      {"GetEntityState", Body<EntityRequest>},
      {"GetEntitiesStates", Body<FilteredRequest>},
      {"SetEntityState", Body<SetEntityStateRequest>},
      {"ResetSimulation", Body<ResetRequest>},
      {"GetSimulationState", Body<EmptyRequest>},
      {"SetSimulationState", Body<SetSimulationStateRequest>},
      {"StepSimulation", Body<StepsRequest>},
      {"SimulateSteps", Body<SimulateStepsRequest>},
      {"CancelSimulateSteps", Body<CancelRequest>},
      // roadrunner_sse
      {"RegisterClient", Body<RegisterClientRequest>},
      {"StartSimulation", Body<EmptyRequest>},
      {"StopSimulation", Body<StopRequest>},
      {"RestartSimulation", Body<EmptyRequest>},
      {"ToggleSimulationPaused", Body<PauseRequest>},
      {"GetSimulationStatus", Body<EmptyRequest>},
      {"GetSimulationTime", Body<EmptyRequest>},
      {"SetSimulationPace", Body<PaceRequest>},
      {"SubscribeEvents", Body<EmptyRequest>},
      {"GetRuntimeActors", Body<RuntimeActorsQuery>},
      {"SetRuntimeActors", Body<SetRuntimeActorsRequest>},
      {"EnableCommunicationLogging", Body<EnableLoggingRequest>},
      {"QueryCommunicationLog", Body<CommunicationQueryRequest>},
      {"AddDiagnosticMessage", Body<DiagnosticRequest>},
      {"QueryDiagnosticMessageLog", Body<DiagnosticQueryRequest>},
  };
  return bodies;
}

}  // namespace

json::Json ServiceSchemas() {
  json::SchemaBuilder builder(json::SchemaBuilder::Mode::kStrict);
  json::Json services = json::Json::object();
  for (const auto& [name, service] : Services()) {
    const auto body = BodySchemas().find(name);
    services[name] = {
        {"family", service.family},
        {"description", service.description},
        {"request", body == BodySchemas().end() ? json::Json(nullptr) : body->second(builder)}};
  }
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", "ASG Farm interactive worker: every service's request body"},
          {"description",
           "docs/interactive.md describes every service; docs/conformance.md compares them "
           "with the specifications they follow."},
          {"services", std::move(services)},
          {"constants", InteractiveConstants()},
          {"$defs", builder.defs()}};
}

}  // namespace asg::worker::serve
