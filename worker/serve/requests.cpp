// The fields of every request body of the interactive worker, each listed once in the order the
// service reads them (the first bad one is the one reported).
#include "worker/serve/requests.h"

#include <cmath>

#include "core/number_format.h"
#include "worker/serve/request_reader.h"
#include "worker/serve/request_schema.h"
#include "worker/serve/simif_constants.h"
#include "worker/serve/simulation_clock.h"

namespace asg::json {

using worker::serve::AnyObject;
using worker::serve::OneOf;

/// The log levels of AddDiagnosticMessage and the log queries.
constexpr std::string_view kLevels[] = {"info", "warning", "error"};

template <>
struct Schema<worker::serve::Vector3Value> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("x", m.x);
    v.Optional("y", m.y);
    v.Optional("z", m.z);
  }
};

template <>
struct Schema<worker::serve::QuaternionValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("x", m.x);
    v.Optional("y", m.y);
    v.Optional("z", m.z);
    v.Optional("w", m.w);
  }
};

template <>
struct Schema<worker::serve::PoseValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("position", m.position);
    v.Optional("orientation", m.orientation);
    v.Optional("yaw_deg", m.yaw_deg);
    v.Optional("snap_to_ground", m.snap_to_ground);
  }
};

template <>
struct Schema<worker::serve::HeaderValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("frame_id", m.frame_id);
    v.Optional("stamp", m.stamp, AnyObject{});
  }
};

template <>
struct Schema<worker::serve::TwistValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("linear", m.linear);
    v.Optional("angular", m.angular);
  }
};

template <>
struct Schema<worker::serve::EmptyRequest> {
  template <class V, class M>
  static void Fields(V&, M&) {}
};

template <>
struct Schema<worker::serve::SpawnablesRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("sources", m.sources);
  }
};

template <>
struct Schema<worker::serve::ResourceValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("uri", m.uri);
    v.Optional("resource_string", m.resource_string);
  }
};

template <>
struct Schema<worker::serve::StampedPoseValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("header", m.header);
    v.Optional("pose", m.pose);
  }
};

template <>
struct Schema<worker::serve::SpawnRequestBody> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("name", m.name);
    v.Optional("allow_renaming", m.allow_renaming);
    v.Optional("entity_resource", m.entity_resource);
    v.Optional("uri", m.uri);
    v.Optional("resource_string", m.resource_string);
    v.Optional("entity_namespace", m.entity_namespace);
    v.Optional("initial_pose", m.initial_pose);
  }
};

template <>
struct Schema<worker::serve::SpawnEntitiesRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("spawn_requests", m.spawn_requests);
  }
};

template <>
struct Schema<worker::serve::EntityRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("entity", m.entity);
  }
};

template <>
struct Schema<worker::serve::CategoryValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("category", m.category);
  }
};

template <>
struct Schema<worker::serve::TagsValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("tags", m.tags);
    v.Optional("filter_mode", m.filter_mode,
               Between(worker::serve::kFilterModeAny, worker::serve::kFilterModeAll));
  }
};

template <>
struct Schema<worker::serve::BoundsValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("type", m.type, Between(worker::serve::kBoundsEmpty, worker::serve::kBoundsSphere));
    v.Optional("points", m.points);
  }
};

template <>
struct Schema<worker::serve::FiltersValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("filter", m.filter);
    v.Optional("categories", m.categories);
    v.Optional("tags", m.tags);
    v.Optional("bounds", m.bounds);
  }
};

template <>
struct Schema<worker::serve::FilteredRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("filters", m.filters);
  }
};

template <>
struct Schema<worker::serve::EntityStateValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("header", m.header);
    v.Optional("pose", m.pose);
    v.Optional("twist", m.twist);
    v.Optional("acceleration", m.acceleration);
  }
};

template <>
struct Schema<worker::serve::SetEntityStateRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("entity", m.entity);
    v.Optional("state", m.state);
    v.Optional("set_pose", m.set_pose);
    v.Optional("set_twist", m.set_twist);
    v.Optional("set_acceleration", m.set_acceleration);
  }
};

template <>
struct Schema<worker::serve::ResetRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("scope", m.scope, Between(worker::serve::kScopeDefault, worker::serve::kScopeAll));
  }
};

template <>
struct Schema<worker::serve::SimulationStateValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("state", m.state, Between(0, worker::serve::kLastWorldState));
  }
};

template <>
struct Schema<worker::serve::SetSimulationStateRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("state", m.state);
  }
};

template <>
struct Schema<worker::serve::StepsRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("steps", m.steps,
               Between(1.0, static_cast<double>(worker::serve::SimulationClock::kMaxSteps)));
  }
};

template <>
struct Schema<worker::serve::SimulateStepsRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    const auto steps = Between(1.0, static_cast<double>(worker::serve::SimulationClock::kMaxSteps));
    v.Optional("steps", m.steps, steps);
    v.Optional("feedback_every_steps", m.feedback_every_steps, steps);
  }
};

template <>
struct Schema<worker::serve::CancelRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("goal_id", m.goal_id, kNonNegative);
  }
};

template <>
struct Schema<worker::serve::RegisterClientRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("name", m.name);
  }
};

template <>
struct Schema<worker::serve::PaceRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("is_pacer_on", m.is_pacer_on);
    v.Optional("simulation_pace", m.simulation_pace);
  }
};

template <>
struct Schema<worker::serve::StopCauseValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("summary", m.summary);
    v.Optional("simulation_complete", m.simulation_complete, AnyObject{});
    v.Optional("simulation_failed", m.simulation_failed, AnyObject{});
  }
};

template <>
struct Schema<worker::serve::StopRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("cause", m.cause);
  }
};

template <>
struct Schema<worker::serve::PauseRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("pause_simulation", m.pause_simulation);
  }
};

template <>
struct Schema<worker::serve::RuntimeActorsQuery> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("actor_ids", m.actor_ids);
  }
};

template <>
struct Schema<worker::serve::ActorChangeValue> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("actor_id", m.actor_id);
    v.Optional("pose", m.pose);
    v.Optional("velocity", m.velocity);
    v.Optional("angular_velocity", m.angular_velocity);
  }
};

template <>
struct Schema<worker::serve::SetRuntimeActorsRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("actors", m.actors);
  }
};

template <>
struct Schema<worker::serve::EnableLoggingRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("enable", m.enable);
  }
};

template <>
struct Schema<worker::serve::CommunicationQueryRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("client_id", m.client_id, kNonNegative);
    v.Optional("type", m.type);
    v.Optional("level", m.level, OneOf{kLevels});
  }
};

template <>
struct Schema<worker::serve::DiagnosticQueryRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("client_id", m.client_id, kNonNegative);
    v.Optional("level", m.level, OneOf{kLevels});
  }
};

template <>
struct Schema<worker::serve::DiagnosticRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("level", m.level, OneOf{kLevels});
    v.Optional("message", m.message);
  }
};

template <>
struct Schema<worker::serve::ClosedLoopStepRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("time_step", m.time_step);
  }
};

template <>
struct Schema<worker::serve::SampleSensorsRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("timeout", m.timeout, kNonNegative);
  }
};

/// The fields of a monoDrive weather profile that the farm does not render, by JSON type.
constexpr std::string_view kProfileNumbers[] = {"SunBrightness",
                                                "SunDirectionalLightIntensity",
                                                "SunIndirectLightIntensity",
                                                "CloudOpacity",
                                                "HorizontFalloff",
                                                "SkyLightIntensity",
                                                "PrecipitationAmount",
                                                "PrecipitationAccumulation",
                                                "WindIntensity",
                                                "WindAngle"};
constexpr std::string_view kProfileFlags[] = {"bPrecipitation", "bWind",
                                              "bOverrideCameraPostProcessParameters"};
constexpr std::string_view kProfileObjects[] = {"SunDirectionalLightColor",
                                                "ZenithColor",
                                                "HorizonColor",
                                                "CloudColor",
                                                "OverallSkyColor",
                                                "SkyLightColor",
                                                "CameraPostProcessParameters"};

template <>
struct Schema<worker::serve::WeatherProfile> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("id", m.id);
    v.Optional("SunPolarAngle", m.sun_polar_angle);
    v.Optional("SunAzimuthAngle", m.sun_azimuth_angle);
    v.Optional("haze_distance", m.haze_distance);
    for (const std::string_view key : kProfileNumbers) v.Optional(key, m.unused_number);
    for (const std::string_view key : kProfileFlags) v.Optional(key, m.unused_flag);
    v.Optional("PrecipitationType", m.unused_text);
    for (const std::string_view key : kProfileObjects) {
      v.Optional(key, m.unused_object, AnyObject{});
    }
  }
};

template <>
struct Schema<worker::serve::WeatherRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("sun_inclination", m.sun_inclination);
    v.Optional("sun_yaw", m.sun_yaw);
    v.Optional("haze_distance", m.haze_distance);
    v.Optional("profile_id", m.profile_id);
    v.Optional("set_profile", m.set_profile);
    v.Optional("profiles", m.profiles);
  }
};

template <>
struct Schema<worker::serve::LoadScenarioRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("folder", m.folder);
    v.Optional("request", m.request, AnyObject{});
  }
};

template <>
struct Schema<worker::serve::GetResultRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("include_trajectory", m.include_trajectory);
  }
};

template <>
struct Schema<worker::serve::CaptureSceneRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("scene_capture_settings", m.scene_capture_settings, AnyObject{});
  }
};

}  // namespace asg::json

namespace asg::worker::serve {

Eigen::Quaterniond PoseValue::Orientation(const std::string& path) const {
  if (!yaw_deg) return orientation ? orientation->ToEigen() : Eigen::Quaterniond::Identity();
  const Eigen::Quaterniond yaw(
      Eigen::AngleAxisd(*yaw_deg * M_PI / 180.0, Eigen::Vector3d::UnitZ()));
  if (!orientation) return yaw;
  const Eigen::Quaterniond given = orientation->ToEigen();
  const double norm = given.norm();
  if (!std::isfinite(norm) || norm < 1e-6) return given;  // refused as not a rotation later
  const double apart_deg = given.normalized().angularDistance(yaw) * 180.0 / M_PI;
  if (apart_deg > kYawTolerance) {
    const QuaternionValue& q = *orientation;
    throw std::invalid_argument(
        path + ": orientation (" + core::FormatNumber(q.x) + ", " + core::FormatNumber(q.y) + ", " +
        core::FormatNumber(q.z) + ", " + core::FormatNumber(q.w) +
        ") and yaw_deg = " + core::FormatNumber(*yaw_deg) + " disagree by " +
        core::FormatNumber(apart_deg, 3) + " deg; give one of them");
  }
  return given;
}

template <class T>
void ReadRequest(const json::Json& body, T* request) {
  ReadFields(body, "", request);
}

// One definition per request type.
template void ReadRequest(const json::Json&, EmptyRequest*);
template void ReadRequest(const json::Json&, SpawnablesRequest*);
template void ReadRequest(const json::Json&, SpawnRequestBody*);
template void ReadRequest(const json::Json&, SpawnEntitiesRequest*);
template void ReadRequest(const json::Json&, EntityRequest*);
template void ReadRequest(const json::Json&, FilteredRequest*);
template void ReadRequest(const json::Json&, SetEntityStateRequest*);
template void ReadRequest(const json::Json&, ResetRequest*);
template void ReadRequest(const json::Json&, SetSimulationStateRequest*);
template void ReadRequest(const json::Json&, StepsRequest*);
template void ReadRequest(const json::Json&, SimulateStepsRequest*);
template void ReadRequest(const json::Json&, CancelRequest*);
template void ReadRequest(const json::Json&, RegisterClientRequest*);
template void ReadRequest(const json::Json&, PaceRequest*);
template void ReadRequest(const json::Json&, StopRequest*);
template void ReadRequest(const json::Json&, PauseRequest*);
template void ReadRequest(const json::Json&, RuntimeActorsQuery*);
template void ReadRequest(const json::Json&, SetRuntimeActorsRequest*);
template void ReadRequest(const json::Json&, EnableLoggingRequest*);
template void ReadRequest(const json::Json&, CommunicationQueryRequest*);
template void ReadRequest(const json::Json&, DiagnosticQueryRequest*);
template void ReadRequest(const json::Json&, DiagnosticRequest*);
template void ReadRequest(const json::Json&, ClosedLoopStepRequest*);
template void ReadRequest(const json::Json&, SampleSensorsRequest*);
template void ReadRequest(const json::Json&, WeatherRequest*);
template void ReadRequest(const json::Json&, LoadScenarioRequest*);
template void ReadRequest(const json::Json&, GetResultRequest*);
template void ReadRequest(const json::Json&, CaptureSceneRequest*);

template <class T>
json::Json RequestSchema() {
  return RequestSchemaWriter::Of<T>();
}

// One definition per request type.
template json::Json RequestSchema<EmptyRequest>();
template json::Json RequestSchema<SpawnablesRequest>();
template json::Json RequestSchema<SpawnRequestBody>();
template json::Json RequestSchema<SpawnEntitiesRequest>();
template json::Json RequestSchema<EntityRequest>();
template json::Json RequestSchema<FilteredRequest>();
template json::Json RequestSchema<SetEntityStateRequest>();
template json::Json RequestSchema<ResetRequest>();
template json::Json RequestSchema<SetSimulationStateRequest>();
template json::Json RequestSchema<StepsRequest>();
template json::Json RequestSchema<SimulateStepsRequest>();
template json::Json RequestSchema<CancelRequest>();
template json::Json RequestSchema<RegisterClientRequest>();
template json::Json RequestSchema<PaceRequest>();
template json::Json RequestSchema<StopRequest>();
template json::Json RequestSchema<PauseRequest>();
template json::Json RequestSchema<RuntimeActorsQuery>();
template json::Json RequestSchema<SetRuntimeActorsRequest>();
template json::Json RequestSchema<EnableLoggingRequest>();
template json::Json RequestSchema<CommunicationQueryRequest>();
template json::Json RequestSchema<DiagnosticQueryRequest>();
template json::Json RequestSchema<DiagnosticRequest>();
template json::Json RequestSchema<ClosedLoopStepRequest>();
template json::Json RequestSchema<SampleSensorsRequest>();
template json::Json RequestSchema<WeatherRequest>();
template json::Json RequestSchema<LoadScenarioRequest>();
template json::Json RequestSchema<GetResultRequest>();
template json::Json RequestSchema<CaptureSceneRequest>();

}  // namespace asg::worker::serve
