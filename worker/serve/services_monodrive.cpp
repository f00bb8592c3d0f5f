// monoDrive closed-loop commands (seed 001): configure, step, ego control, sensors, weather.
// Replies are {success, message} with the seed's response strings as message.
#include <cmath>
#include <string>

#include "protocol/messages_json.h"
#include "protocol/node_messages.h"
#include "worker/node_sensors.h"
#include "worker/serve/requests.h"
#include "worker/serve/services.h"
#include "worker/serve/session.h"

namespace asg::worker::serve {
namespace {

using json::Json;

constexpr const char* kNoEgo = "no ego vehicle found";

Reply Answer(bool success, Json message) {
  return {{{"success", success}, {"message", std::move(message)}}};
}

Reply GetVersion(Session&, const Call& call) {
  ReadRequest<EmptyRequest>(call.body());
  return Answer(true, "simulator_version: asg-farm " ASG_FARM_VERSION ", api_version: 5.0");
}

Reply ClosedLoopConfig(Session& session, const Call& call) {
  protocol::RunScenarioRequest request;
  try {
    request = protocol::DecodeMessage<protocol::RunScenarioRequest>(call.body());
  } catch (const std::exception& error) {
    return Answer(false, std::string("Failed to configure scenario. ") + error.what());
  }
  if (session.clock().goal_running()) {
    return Answer(false, "Failed to configure scenario. A SimulateSteps goal is running.");
  }
  try {
    session.Load(request, {});
  } catch (const std::exception& error) {
    return Answer(false, std::string("Failed to configure scenario. ") + error.what());
  }
  return Answer(true, "Successfully configured scenario.");
}

Reply ClosedLoopStep(Session& session, const Call& call) {
  const double time_step = ReadRequest<ClosedLoopStepRequest>(call.body()).time_step;
  if (!session.live().loaded()) return Answer(false, false);
  const double dt = session.live().timing().dt;
  const double steps = std::round(time_step / dt);
  if (time_step <= 0.0 || std::abs(time_step - steps * dt) > 1e-9 * std::max(1.0, time_step) ||
      steps > static_cast<double>(Session::kInlineSteps)) {
    throw std::invalid_argument("time_step = " + std::to_string(time_step) +
                                ": must be a positive multiple of the physics step " +
                                std::to_string(dt) + " s, at most " +
                                std::to_string(Session::kInlineSteps) + " steps");
  }
  SimulationClock& clock = session.clock();
  if (clock.state() != SimState::kPaused || clock.goal_running()) return Answer(false, false);
  const auto wanted = static_cast<uint64_t>(steps);
  const bool complete = clock.StepNow(wanted) == wanted;
  return Answer(complete, complete);
}

Reply EgoControl(Session& session, const Call& call) {
  protocol::EgoControl ego;
  try {
    ego = protocol::DecodeMessage<protocol::EgoControl>(call.body());
  } catch (const std::exception& error) {
    throw std::invalid_argument(error.what());
  }
  if (!session.live().loaded()) return Answer(false, kNoEgo);
  session.live().SetManualControl(protocol::ToPhysXControl(ego, session.live().request().vehicle));
  results::Intervention command =
      MakeIntervention(session.live(), "EgoControl_ID", "vehicle", "ego_control");
  command.control = ego;
  session.interventions().Add(std::move(command));
  return Answer(true, "complete");
}

Reply SampleSensors(Session& session, const Call& call) {
  ReadRequest<SampleSensorsRequest>(call.body());  // its timeout is not used: readings are ready
  if (!session.live().loaded()) {
    return Answer(false,
                  "An attempt to sample sensors was made but no ego vehicle is registered to the "
                  "simulator.");
  }
  Reply reply = Answer(true, "complete");
  reply.body["readings"] = Json::array();
  if (const StepSensorData* data = session.sensors().Latest()) {
    reply.body["readings"] = data->readings;
    reply.attachment = data->attachment;
  }
  return reply;
}

// The monoDrive form: stores `profiles` (all or none), then applies `set_profile`.
Reply ApplyWeatherProfile(Session& session, const Call& call, const WeatherRequest& request) {
  for (const char* farm_field : {"sun_inclination", "sun_yaw", "haze_distance", "profile_id"}) {
    if (call.body().contains(farm_field)) {
      throw std::invalid_argument(std::string(farm_field) +
                                  ": the farm's form does not go with set_profile and profiles");
    }
  }
  // Every profile is checked before any is stored.
  for (size_t i = 0; i < request.profiles.size(); ++i) {
    const WeatherProfile& profile = request.profiles[i];
    const json::Json& given = call.body().at("profiles").at(i);
    std::string error;
    if (profile.sun_polar_angle < 0.0 || profile.sun_polar_angle > 180.0) {
      error = "SunPolarAngle = " + given.at("SunPolarAngle").dump() + ": must be in [0, 180]";
    } else if (profile.haze_distance < 0.0) {
      error = "haze_distance = " + given.at("haze_distance").dump() + ": must be >= 0";
    }
    if (!error.empty()) {
      return Answer(false,
                    "Weather configuration failed: profiles[" + std::to_string(i) + "]." + error);
    }
  }
  for (const WeatherProfile& profile : request.profiles) {
    session.captures().SetProfile(
        profile.id, MonoDriveWeather(profile.sun_polar_angle, profile.sun_azimuth_angle,
                                     profile.haze_distance));
  }
  const Weather* weather = session.captures().Profile(request.set_profile);
  if (weather == nullptr) return Answer(false, "Weather profile is invalid or missing");
  session.captures().SetWeather(*weather);
  return Answer(true, "Weather configured to " + request.set_profile);
}

Reply WeatherConfig(Session& session, const Call& call) {
  // The sun defaults to the loaded scenario's.
  WeatherRequest request;
  if (session.live().loaded()) {
    const protocol::SceneDescription& scene = session.live().request().scene_description;
    request.sun_inclination = scene.sunlight_inclination;
    request.sun_yaw = scene.sunlight_yaw_angle;
  }
  ReadRequest(call.body(), &request);
  if (call.body().contains("set_profile") || call.body().contains("profiles")) {
    return ApplyWeatherProfile(session, call, request);
  }
  if (request.sun_inclination < -90.0 || request.sun_inclination > 90.0 ||
      request.haze_distance < 0.0) {
    return Answer(false,
                  "Weather configuration failed: sun_inclination must be in [-90, 90] "
                  "and haze_distance >= 0");
  }
  session.captures().SetWeather({request.sun_inclination, request.sun_yaw, request.haze_distance});
  return Answer(true, "Weather configured to " + request.profile_id);
}

}  // namespace

void AddMonoDriveServices(std::map<std::string, Service>* services) {
  const char* family = "monodrive";
  (*services)["GetVersion"] = {family, "simulator and API versions", GetVersion};
  (*services)["ClosedLoopConfigCommand_ID"] = {family, "load a RunScenario body", ClosedLoopConfig};
  (*services)["ClosedLoopStepCommand_ID"] = {family, "step {time_step} seconds while paused",
                                             ClosedLoopStep};
  (*services)["EgoControl_ID"] = {family, "drive the vehicle by hand (throttle, steer, brake)",
                                  EgoControl};
  (*services)["SampleSensorsCommand_ID"] = {family, "the sensors' latest readings", SampleSensors};
  (*services)["WeatherConfig"] = {family, "sun and haze of later captures", WeatherConfig};
}

}  // namespace asg::worker::serve
