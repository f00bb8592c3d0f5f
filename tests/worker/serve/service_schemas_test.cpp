// Tests for worker/serve/service_schemas.h.
#include "worker/serve/service_schemas.h"

#include <gtest/gtest.h>

#include "worker/serve/services.h"
#include "worker/serve/simif_constants.h"

namespace asg::worker::serve {
namespace {

using json::Json;

TEST(ServiceSchemasTest, EveryServiceHasItsRequestSchema) {
  const Json schemas = ServiceSchemas();
  ASSERT_EQ(schemas.at("services").size(), Services().size());
  for (const auto& [name, service] : Services()) {
    const Json& entry = schemas.at("services").at(name);
    EXPECT_EQ(entry.at("family"), service.family) << name;
    EXPECT_FALSE(entry.at("request").is_null()) << name << " has no request schema";
  }
}

TEST(ServiceSchemasTest, TheConstantsAreThoseTheServicesUse) {
  const Json constants = ServiceSchemas().at("constants");
  const Json& simif = constants.at("simulation_interfaces");
  EXPECT_EQ(simif.at("Result (msg)").at("RESULT_OPERATION_FAILED"), kResultOperationFailed);
  EXPECT_EQ(simif.at("SimulatorFeatures (msg)").size(), std::size(kAdvertisedFeatures));
  EXPECT_EQ(simif.at("SimulationState (msg)").at("STATE_QUITTING"), 3);
  EXPECT_EQ(simif.at("SpawnEntity (srv)"), simif.at("SpawnResult (msg)"));
  const Json& status = constants.at("roadrunner_sse").at("SimulationStatus (msg)");
  EXPECT_EQ(status.at(kStatusPaused), kStatusPaused);  // an enum that travels by name
}

TEST(ServiceSchemasTest, ABodyListsTheFieldsItsServiceReads) {
  const Json services = ServiceSchemas().at("services");
  const Json& weather = services.at("WeatherConfig").at("request");
  EXPECT_EQ(weather.at("additionalProperties"), false);
  EXPECT_TRUE(weather.at("properties").contains("set_profile"));
  const Json& profile = weather.at("properties").at("profiles").at("items");
  EXPECT_EQ(profile.at("properties").at("SunPolarAngle").at("type"), "number");
  EXPECT_EQ(profile.at("required"), Json::array({"id"}));
  EXPECT_EQ(services.at("QueryDiagnosticMessageLog").at("request").at("properties").at("level"),
            Json({{"type", "string"}, {"enum", {"info", "warning", "error"}}}));
  EXPECT_EQ(services.at("GetVersion").at("request").at("properties"), Json::object());
}

TEST(ServiceSchemasTest, AProjectMessageBodyIsADefinition) {
  const Json schemas = ServiceSchemas();
  const Json& config = schemas.at("services").at("ClosedLoopConfigCommand_ID").at("request");
  EXPECT_EQ(config, Json({{"$ref", "#/$defs/RunScenarioRequest"}}));
  EXPECT_TRUE(
      schemas.at("$defs").at("RunScenarioRequest").at("properties").contains("goal_radius"));
  EXPECT_TRUE(schemas.at("$defs").at("EgoControl").at("properties").contains("forward_amount"));
}

}  // namespace
}  // namespace asg::worker::serve
