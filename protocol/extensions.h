// ASG Farm's extensions to the AutoSceneGen message set: terrain relief, the built-in driver a
// request asks for, vehicle and simulation parameters, and the counters a run reports. Each is
// optional on the wire and has defaults that reproduce the original's behaviour.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/geometry.h"
#include "regret/failure_time.h"
#include "regret/regret_terms.h"

namespace asg::protocol {

/// One relief feature of a landscape; heights of all features add up at each grid vertex.
/// JSON: {"type": "hill"|"ramp"|"noise", ...} with only the fields of that type.
struct ReliefFeature {
  enum class Type : uint8_t { kHill, kRamp, kNoise };
  Type type = Type::kHill;

  // hill: height * (0.5 cos(pi r / radius) + 0.5) for r < radius, 0 beyond.
  double x = 0.0;       ///< [m] hill centre, north
  double y = 0.0;       ///< [m] hill centre, west
  double radius = 0.0;  ///< [m] hill radius, > 0
  double height = 0.0;  ///< [m] hill or ramp height; negative digs a pit

  // ramp: rises linearly from 0 at (x0, y0) to height at (x1, y1) across a band of width.
  double x0 = 0.0;     ///< [m] ramp foot
  double y0 = 0.0;     ///< [m]
  double x1 = 0.0;     ///< [m] ramp top
  double y1 = 0.0;     ///< [m]
  double width = 0.0;  ///< [m] band width, > 0

  // noise: fractal noise, deterministic for its seed.
  double amplitude = 0.0;   ///< [m] peak height of the first octave
  double wavelength = 0.0;  ///< [m] wavelength of the first octave, > 0
  int32_t octaves = 1;      ///< number of octaves, 1..12
  uint32_t seed = 0;        ///< noise seed

  bool operator==(const ReliefFeature&) const = default;
};

/// One command of a scripted driver, held from t until the next command's t.
struct ScriptedCommand {
  double t = 0.0;                      ///< [s] since the first control tick
  double longitudinal_velocity = 0.0;  ///< [m/s] target speed
  double steering_angle = 0.0;         ///< [deg] positive = right
  bool handbrake = false;
  bool operator==(const ScriptedCommand&) const = default;
};

/// The built-in driver of a run when no external vehicle node drives.
/// JSON: {"type": "planner"|"straight"|"idle"|"scripted", ...}.
struct DriverSpec {
  enum class Type : uint8_t { kPlanner, kStraight, kIdle, kScripted };
  Type type = Type::kPlanner;

  double speed = 5.0;  ///< [m/s] target speed of "planner" and "straight"

  // planner only
  double sensor_range = 20.0;     ///< [m] forward obstacle sensor range
  double sensor_fov = 90.0;       ///< [deg] forward obstacle sensor field of view
  double grid_resolution = 1.0;   ///< [m] occupancy / planning grid cell size
  double inflation_radius = 2.0;  ///< [m] obstacles are inflated by this much when planning
  double lookahead = 5.0;         ///< [m] path-follower look-ahead distance
  double replan_period = 0.5;     ///< [s] replanning period (also replans when the map changes)

  std::vector<ScriptedCommand> commands;  ///< "scripted" only, ascending t

  bool operator==(const DriverSpec&) const = default;
};

/// A driver type's name on the wire, as in the JSON's "type": "planner", "straight", "idle" or
/// "scripted".
std::string_view DriverTypeName(DriverSpec::Type type);

/// Parameters of the simulated vehicle: a small off-road utility vehicle by default.
/// A request may override any subset (JSON object "vehicle").
struct VehicleParams {
  double mass = 900.0;                  ///< [kg] chassis mass
  double length = 3.5;                  ///< [m] body length
  double width = 1.6;                   ///< [m] body width
  double body_height = 1.0;             ///< [m] height of the chassis box
  double wheelbase = 2.3;               ///< [m] front to rear axle
  double track_width = 1.35;            ///< [m] left to right wheel centres
  double wheel_radius = 0.33;           ///< [m]
  double wheel_width = 0.25;            ///< [m]
  double suspension_rest_length = 0.3;  ///< [m]
  double suspension_stiffness = 30.0;   ///< [1/s^2] Bullet suspension stiffness per unit mass
  double suspension_damping = 4.4;      ///< Bullet damping (relaxation) coefficient
  double suspension_compression = 2.3;  ///< Bullet compression coefficient
  double friction_slip = 1.2;           ///< tyre friction coefficient
  double roll_influence = 0.1;          ///< Bullet roll influence, 0..1
  double center_of_mass_height = 0.45;  ///< [m] above the wheel centres' plane
  double max_steering_angle = 30.0;     ///< [deg]
  double max_speed = 15.0;              ///< [m/s] commanded speeds are clamped to this
  double max_engine_force = 4500.0;     ///< [N] total drive force
  double max_brake_force = 6000.0;      ///< [N] total brake force
  double speed_kp = 2500.0;             ///< [N/(m/s)] speed loop proportional gain
  double speed_kd = 100.0;              ///< [N/(m/s^2)] speed loop derivative gain
  double steering_rate = 120.0;         ///< [deg/s] how fast the wheels turn
  bool operator==(const VehicleParams&) const = default;
};

/// Time stepping of a run (JSON object "simulation").
struct SimulationSettings {
  double physics_rate = 100.0;  ///< [Hz] fixed physics step rate
  double control_rate = 20.0;   ///< [Hz] control ticks; must divide physics_rate
  bool operator==(const SimulationSettings&) const = default;
};

/// Which of a scenario's repeated runs a request is (a batch's runs_per_scenario), and how much a
/// repeated run varies from the nominal one, as a real test repeated on the same scene would:
/// run 0 is the nominal run; run k > 0 offsets the start position (x and y each uniform in
/// +-start_position_range) and the start yaw (uniform in +-start_yaw_range), drawn from (seed, k),
/// and gives sensor noise and vehicle nodes a seed of its own (scene/run_variation.h).
struct RunVariation {
  uint32_t run = 0;                    ///< 0: the nominal run
  double start_position_range = 0.10;  ///< [m] half-width of the x and y offsets, >= 0
  double start_yaw_range = 1.0;        ///< [deg] half-width of the yaw offset, >= 0
  bool operator==(const RunVariation&) const = default;
};

/// How a run's regret is measured (docs/regret.md), JSON object "regret" of a RunScenario
/// request: {"failure_time": "failure_moment" | "end_of_run"}. A request carries it only when it
/// differs from the default.
struct RegretSpec {
  /// Up to which moment a failed run's path cost and time count: "failure_moment" (the
  /// default) or "end_of_run" (the research code's formula).
  regret::FailureTime failure_time = regret::FailureTime::kFailureMoment;
  bool operator==(const RegretSpec&) const = default;
};

/// Where and when a run first touched a non-traversable actor of its request
/// (RunCounters::first_contact).
struct FirstContact {
  double t = 0.0;  ///< [s] sim time since the first control tick, at the end of the physics step
                   ///< that began the contact
  double x = 0.0;  ///< [m] the vehicle's (chassis) world position at that moment
  double y = 0.0;  ///< [m]
  /// The actor touched: its index among every instance of every scene_description.ssa_array
  /// entry, in order (ssa_array[0]'s instances first; invisible instances counted too).
  uint32_t actor_index = 0;
  bool operator==(const FirstContact&) const = default;
};

/// Counters a run reports beside the AnalyzeScenario fields.
struct RunCounters {
  uint32_t control_messages = 0;    ///< control inputs received (one per control tick)
  uint32_t collisions_touched = 0;  ///< distinct contacts begun with non-traversable actors
  double max_abs_roll = 0.0;        ///< [deg] largest |roll| seen
  double max_abs_pitch = 0.0;       ///< [deg] largest |pitch| seen
  double distance_travelled = 0.0;  ///< [m] path length of the chassis in the xy plane
  double settle_time = 0.0;         ///< [s] simulated time spent settling before the run
  uint32_t physics_steps = 0;       ///< fixed physics steps taken after settling
  /// The first contact with a non-traversable actor of the request; absent when there was none.
  /// A contact of several actors in one step names the first of them in request order.
  std::optional<FirstContact> first_contact;
  /// The channel of the run's vehicle nodes: "unix" (the same-host socket), "tcp", or
  /// "unix+tcp" when they differ; absent without vehicle nodes.
  std::optional<std::string> node_channel;
  bool operator==(const RunCounters&) const = default;
};

/// The regret of a run (docs/regret.md): its path cost and time against those of a reference
/// agent that knows every obstacle of the scene. Extension of AnalyzeScenario. It embeds the
/// terms as its base, so they read as its own fields (report.regret, report.cost_opt) and are
/// filled in one assignment from regret::ComputeRegret.
struct RegretReport : regret::RegretTerms {
  bool computed = false;              ///< false: no run, or no reference path exists (all zero)
  double reference_length = 0.0;      ///< [m] length of the reference path
  double reference_clearance = 0.0;   ///< [m] smallest distance of the reference path to an
                                      ///< obstacle, -1 when the scene has none
  std::vector<Point> reference_path;  ///< [m] the reference path's vertices (z = 0)
  bool operator==(const RegretReport&) const = default;
};

/// One image carried in the binary attachment of an AnalyzeScenario frame, an entry of its
/// scene_captures. Images are concatenated in the order of the entries; the image's name is the
/// entry of scene_capture_names at the same index.
struct CaptureFile {
  uint64_t size = 0;  ///< [bytes] length of the PNG in the attachment
  bool operator==(const CaptureFile&) const = default;
};

/// One scene capture in memory: what the renderer makes, the worker sends (as a CaptureFile
/// entry plus its bytes in the attachment) and a result folder stores as captures/<name>.png.
struct CaptureImage {
  std::string name;  ///< file name without ".png": letters, digits, '_', '-', '.'
  std::string png;   ///< the PNG file's bytes
  bool operator==(const CaptureImage&) const = default;
};

/// Where an AnalyzeScenario frame carries its trajectory in binary (trajectory_codec.h): the
/// samples' count and byte offset in the frame attachment. count 0: the samples are in the JSON.
struct TrajectoryAttachment {
  uint64_t offset = 0;         ///< [bytes] into the attachment
  uint32_t count = 0;          ///< samples
  std::string frame_id;        ///< header.frame_id shared by every sample
  std::string child_frame_id;  ///< child_frame_id shared by every sample
  bool operator==(const TrajectoryAttachment&) const = default;
};

}  // namespace asg::protocol
