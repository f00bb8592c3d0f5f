// The JSON schemas of extensions.h. Every field of an extension object is optional, except the
// shape of a relief feature; ReliefFeature and DriverSpec list only the fields of their type.
#include <array>
#include <cmath>

#include "json/fields.h"
#include "protocol/messages_json.h"
#include "protocol/regret_spec_schema.h"

namespace asg::json {
namespace {

constexpr std::array<NamedValue<protocol::ReliefFeature::Type>, 3> kReliefTypeTable{{
    {protocol::ReliefFeature::Type::kHill, "hill"},
    {protocol::ReliefFeature::Type::kRamp, "ramp"},
    {protocol::ReliefFeature::Type::kNoise, "noise"},
}};
constexpr Names<protocol::ReliefFeature::Type> kReliefTypes{"relief feature", kReliefTypeTable};

constexpr std::array<NamedValue<protocol::DriverSpec::Type>, 4> kDriverTypeTable{{
    {protocol::DriverSpec::Type::kPlanner, "planner"},
    {protocol::DriverSpec::Type::kStraight, "straight"},
    {protocol::DriverSpec::Type::kIdle, "idle"},
    {protocol::DriverSpec::Type::kScripted, "scripted"},
}};
constexpr Names<protocol::DriverSpec::Type> kDriverTypes{"driver", kDriverTypeTable};

}  // namespace
}  // namespace asg::json

namespace asg::protocol {

std::string_view DriverTypeName(DriverSpec::Type type) {
  for (const json::NamedValue<DriverSpec::Type>& entry : json::kDriverTypeTable) {
    if (entry.value == type) return entry.name;
  }
  return "unknown";
}

}  // namespace asg::protocol

namespace asg::json {

// ---------------------------------------------------------------- extensions.h

// Only the fields of the feature's type are written and accepted.
template <>
struct Schema<protocol::ReliefFeature> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.RequiredTag("type", m.type, kReliefTypes);
    switch (m.type) {
      case protocol::ReliefFeature::Type::kHill:
        v.Required("x", m.x);
        v.Required("y", m.y);
        v.Required("radius", m.radius, kPositive);
        v.Required("height", m.height);
        break;
      case protocol::ReliefFeature::Type::kRamp:
        v.Required("height", m.height);
        v.Required("x0", m.x0);
        v.Required("y0", m.y0);
        v.Required("x1", m.x1);
        v.Required("y1", m.y1);
        v.Required("width", m.width, kPositive);
        break;
      case protocol::ReliefFeature::Type::kNoise:
        v.Required("amplitude", m.amplitude);
        v.Required("wavelength", m.wavelength, kPositive);
        v.Optional("octaves", m.octaves, Between(1, 12));
        v.Optional("seed", m.seed);
        break;
    }
  }
};

template <>
struct Schema<protocol::ScriptedCommand> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("t", m.t, kNonNegative);
    v.Optional("longitudinal_velocity", m.longitudinal_velocity);
    v.Optional("steering_angle", m.steering_angle);
    v.Optional("handbrake", m.handbrake);
  }
};

// Only the fields of the driver's type are written and accepted; a missing type is "planner".
template <>
struct Schema<protocol::DriverSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.OptionalTag("type", m.type, kDriverTypes);
    switch (m.type) {
      case protocol::DriverSpec::Type::kPlanner:
        v.Optional("speed", m.speed, kNonNegative);
        v.Optional("sensor_range", m.sensor_range, kPositive);
        v.Optional("sensor_fov", m.sensor_fov, Limit{0.0, 360.0, true, false});
        v.Optional("grid_resolution", m.grid_resolution, kPositive);
        v.Optional("inflation_radius", m.inflation_radius, kNonNegative);
        v.Optional("lookahead", m.lookahead, kPositive);
        v.Optional("replan_period", m.replan_period, kPositive);
        break;
      case protocol::DriverSpec::Type::kStraight:
        v.Optional("speed", m.speed);
        break;
      case protocol::DriverSpec::Type::kIdle:
        break;
      case protocol::DriverSpec::Type::kScripted:
        v.Optional("commands", m.commands);
        break;
    }
  }
  static void Check(const protocol::DriverSpec& m, const FieldReader& reader) {
    for (size_t i = 1; i < m.commands.size(); ++i) {
      if (m.commands[i].t < m.commands[i - 1].t) {
        throw DecodeError(IndexPath(reader.Child("commands"), i) + ".t",
                          FormatNumber(m.commands[i].t) + " is before the previous command's t " +
                              FormatNumber(m.commands[i - 1].t) +
                              " (commands must be in ascending t)");
      }
    }
  }
};

// Every field is optional: a request overrides any subset. The ranges are the vehicle model's
// (scene/vehicle.cpp), so a bad vehicle is refused before it reaches a worker.
template <>
struct Schema<protocol::VehicleParams> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("mass", m.mass, kPositive);
    v.Optional("length", m.length, kPositive);
    v.Optional("width", m.width, kPositive);
    v.Optional("body_height", m.body_height, kPositive);
    v.Optional("wheelbase", m.wheelbase, kPositive);
    v.Optional("track_width", m.track_width, kPositive);
    v.Optional("wheel_radius", m.wheel_radius, kPositive);
    v.Optional("wheel_width", m.wheel_width, kPositive);
    v.Optional("suspension_rest_length", m.suspension_rest_length, kPositive);
    v.Optional("suspension_stiffness", m.suspension_stiffness, kPositive);
    v.Optional("suspension_damping", m.suspension_damping, kPositive);
    v.Optional("suspension_compression", m.suspension_compression, kPositive);
    v.Optional("friction_slip", m.friction_slip, kPositive);
    v.Optional("roll_influence", m.roll_influence, Between(0, 1));
    v.Optional("center_of_mass_height", m.center_of_mass_height, kNonNegative);
    v.Optional("max_steering_angle", m.max_steering_angle, Limit{0.0, 90.0, true, true});
    v.Optional("max_speed", m.max_speed, kPositive);
    v.Optional("max_engine_force", m.max_engine_force, kPositive);
    v.Optional("max_brake_force", m.max_brake_force, kPositive);
    v.Optional("speed_kp", m.speed_kp, kNonNegative);
    v.Optional("speed_kd", m.speed_kd, kNonNegative);
    v.Optional("steering_rate", m.steering_rate, kPositive);
  }
};

template <>
struct Schema<protocol::SimulationSettings> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("physics_rate", m.physics_rate, kPositive);
    v.Optional("control_rate", m.control_rate, kPositive);
  }
  static void Check(const protocol::SimulationSettings& m, const FieldReader& reader) {
    const double steps_per_tick = m.physics_rate / m.control_rate;
    if (std::abs(steps_per_tick - std::round(steps_per_tick)) > 1e-9 * steps_per_tick) {
      throw DecodeError(reader.Child("control_rate"), FormatNumber(m.control_rate) +
                                                          " Hz does not divide physics_rate " +
                                                          FormatNumber(m.physics_rate) + " Hz");
    }
  }
};

template <>
struct Schema<protocol::FirstContact> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("t", m.t);
    v.Required("x", m.x);
    v.Required("y", m.y);
    v.Required("actor_index", m.actor_index);
  }
};

template <>
struct Schema<protocol::RunCounters> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("control_messages", m.control_messages);
    v.Optional("collisions_touched", m.collisions_touched);
    v.Optional("max_abs_roll", m.max_abs_roll);
    v.Optional("max_abs_pitch", m.max_abs_pitch);
    v.Optional("distance_travelled", m.distance_travelled);
    v.Optional("settle_time", m.settle_time);
    v.Optional("physics_steps", m.physics_steps);
    v.Optional("first_contact", m.first_contact);
    v.Optional("node_channel", m.node_channel);
  }
};

template <>
struct Schema<protocol::RunVariation> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("run", m.run);
    v.Optional("start_position_range", m.start_position_range, kNonNegative);
    v.Optional("start_yaw_range", m.start_yaw_range, kNonNegative);
  }
};

// The terms' fields, listed inside RegretReport's object (m is a RegretTerms or a RegretReport).
template <>
struct Schema<regret::RegretTerms> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("regret", m.regret);
    v.Required("cost_term", m.cost_term);
    v.Required("time_term", m.time_term);
    v.Required("cost_position_term", m.cost_position_term);
    v.Required("time_position_term", m.time_position_term);
    v.Required("cost", m.cost);
    v.Required("time", m.time);
    v.Required("cost_opt", m.cost_opt);
    v.Required("time_opt", m.time_opt);
  }
};

// {"computed", the terms, then the reference path's facts}: one flat object.
template <>
struct Schema<protocol::RegretReport> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("computed", m.computed);
    Schema<regret::RegretTerms>::Fields(v, m);
    v.Required("reference_length", m.reference_length);
    v.Required("reference_clearance", m.reference_clearance);
    v.Required("reference_path", m.reference_path);
  }
};

template <>
struct Schema<protocol::CaptureFile> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("size", m.size);
  }
};

template <>
struct Schema<protocol::TrajectoryAttachment> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("offset", m.offset);
    v.Required("count", m.count);
    v.Optional("frame_id", m.frame_id);
    v.Optional("child_frame_id", m.child_frame_id);
  }
};

}  // namespace asg::json

namespace asg::protocol {

ASG_DEFINE_JSON(ReliefFeature)
ASG_DEFINE_JSON(ScriptedCommand)
ASG_DEFINE_JSON(DriverSpec)
ASG_DEFINE_JSON(VehicleParams)
ASG_DEFINE_JSON(SimulationSettings)
ASG_DEFINE_JSON(FirstContact)
ASG_DEFINE_JSON(RunCounters)
ASG_DEFINE_JSON(RunVariation)
ASG_DEFINE_JSON(RegretSpec)
ASG_DEFINE_JSON(RegretReport)
ASG_DEFINE_JSON(CaptureFile)
ASG_DEFINE_JSON(TrajectoryAttachment)

}  // namespace asg::protocol
