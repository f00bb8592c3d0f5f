// The entities of an open scenario: names, descriptions, kinematics, moves, spawns, deletions.
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <optional>

#include "core/check.h"
#include "core/number_format.h"
#include "scene/live_run.h"
#include "scene/live_run_internal.h"
#include "scene/physics_world.h"
#include "scene/vehicle.h"

namespace asg::scene {
namespace {

constexpr const char* kVehicleName = "vehicle";
constexpr const char* kActorScheme = "asg://actor/";
constexpr const char* kVehicleUri = "asg://vehicle";

std::string Number(double value) { return core::FormatNumber(value); }

/// [m] the horizontal radius of a class at scale 1.
double FootprintRadius(const ActorKind& kind) {
  switch (kind.shape) {
    case ActorShape::kTree:
      return std::max(kind.tree.trunk_radius, kind.tree.canopy_radius);
    case ActorShape::kBush:
      return std::max(kind.bush.radii[0], kind.bush.radii[1]);
    case ActorShape::kRock:
      return kind.rock.radius;
    case ActorShape::kGrass:
      return kind.grass.radius;
  }
  return kind.rock.radius;
}

/// [m] the actor's box in its own frame: its footprint and height from its base.
Eigen::AlignedBox3d ActorLocalBounds(const ActorInstance& actor) {
  const double r = FootprintRadius(*actor.kind) * actor.scale;
  return Eigen::AlignedBox3d(Eigen::Vector3d(-r, -r, 0.0), Eigen::Vector3d(r, r, actor.Height()));
}

Eigen::AlignedBox3d ActorBounds(const ActorInstance& actor) {
  const Eigen::AlignedBox3d local = ActorLocalBounds(actor);
  return Eigen::AlignedBox3d(actor.position + local.min(), actor.position + local.max());
}

/// [m] the vehicle's chassis box about its centre of mass (scene/vehicle.cpp: the box's bottom
/// lies in the plane of the wheel centres, center_of_mass_height below the centre of mass).
Eigen::AlignedBox3d VehicleLocalBounds(const protocol::VehicleParams& v) {
  const double bottom = -v.center_of_mass_height;
  return Eigen::AlignedBox3d(Eigen::Vector3d(-v.length / 2, -v.width / 2, bottom),
                             Eigen::Vector3d(v.length / 2, v.width / 2, bottom + v.body_height));
}

bool AllOf(const std::string& text, const char* extra) {
  for (const char c : text) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0 ||
                    std::string_view(extra).find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

bool Finite(const Eigen::Vector3d& v) { return v.allFinite(); }

/// Why a pose is not usable, or empty: finite, a non-zero quaternion, on the landscape grid.
std::string PoseProblem(const Eigen::Vector3d& position,
                        const std::optional<Eigen::Quaterniond>& orientation,
                        const terrain::Landscape& landscape) {
  if (!Finite(position)) {
    return "position (" + Number(position.x()) + ", " + Number(position.y()) + ", " +
           Number(position.z()) + ") is not finite";
  }
  if (orientation) {
    const Eigen::Vector4d q = orientation->coeffs();
    if (!q.allFinite() || q.norm() < 1e-6) {
      return "orientation (" + Number(q.x()) + ", " + Number(q.y()) + ", " + Number(q.z()) + ", " +
             Number(q.w()) + ") is not a rotation";
    }
  }
  const double lo = landscape.min_xy();
  const double hi = landscape.max_xy();
  if (position.x() < lo || position.x() > hi || position.y() < lo || position.y() > hi) {
    return "position (" + Number(position.x()) + ", " + Number(position.y()) +
           ") is off the landscape [" + Number(lo) + ", " + Number(hi) + "]";
  }
  return {};
}

EntityOutcome Failure(EntityStatus status, std::string message, std::string name = {}) {
  return {status, std::move(message), std::move(name)};
}

// Why the resource of a spawn request names no spawnable kind of resource: none given, a
// resource string, the vehicle, or a URI other than asg://; nullopt when it is an asg:// URI.
std::optional<EntityOutcome> ResourceProblem(const SpawnRequest& request) {
  if (request.uri.empty()) {
    if (request.resource_string.empty()) {
      return Failure(EntityStatus::kNoResource,
                     "entity_resource: both uri and resource_string "
                     "are empty");
    }
    return Failure(EntityStatus::kFeatureUnsupported,
                   "entity_resource.resource_string: spawning from a resource string is not "
                   "supported; use a uri from GetSpawnables");
  }
  if (request.uri == kVehicleUri) {
    return Failure(EntityStatus::kOperationFailed,
                   "uri \"asg://vehicle\": a scenario has exactly one vehicle, which exists; move "
                   "it with SetEntityState");
  }
  if (request.uri.rfind("asg://", 0) != 0) {
    return Failure(EntityStatus::kUnsupportedFormat,
                   "uri \"" + request.uri + "\": only asg:// URIs (GetSpawnables) are understood");
  }
  return std::nullopt;
}

}  // namespace

std::string ShortName(const ActorKind& kind) {
  if (!kind.aliases.empty()) return kind.aliases.front();
  const size_t slash = kind.path_name.find_last_of('/');
  return slash == std::string::npos ? kind.path_name : kind.path_name.substr(slash + 1);
}

LiveRun::ActorEntry ScenarioActorEntry(const ActorInstance& actor) {
  LiveRun::ActorEntry entry;
  entry.name = ShortName(*actor.kind) + "_" + std::to_string(actor.ssa_index) + "_" +
               std::to_string(actor.instance_index);
  entry.initial_x = actor.position.x();
  entry.initial_y = actor.position.y();
  entry.initial_yaw = actor.yaw;
  return entry;
}

int LiveRun::ActorIndex(const std::string& name) const {
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<std::string> LiveRun::EntityNames() const {
  std::vector<std::string> names;
  if (!loaded()) return names;
  names.reserve(entries_.size() + 1);
  names.emplace_back(kVehicleName);
  for (const ActorEntry& entry : entries_) names.push_back(entry.name);
  return names;
}

std::optional<EntityInfo> LiveRun::Info(const std::string& name) const {
  if (!loaded()) return std::nullopt;
  EntityInfo info;
  info.name = name;
  if (name == kVehicleName) {
    const protocol::VehicleParams& v = request_.vehicle;
    info.category = EntityCategory::kRobot;
    info.description = "the scenario's vehicle: " + Number(v.length) + " x " + Number(v.width) +
                       " x " + Number(v.body_height) + " m body, " + Number(v.mass) + " kg";
    info.tags = {"vehicle"};
    btVector3 lo, hi;
    state_->vehicle->chassis()->getAabb(lo, hi);
    info.bounds = Eigen::AlignedBox3d(ToEigen(lo), ToEigen(hi));
    info.local_bounds = VehicleLocalBounds(v);
    return info;
  }
  const int index = ActorIndex(name);
  if (index < 0) return std::nullopt;
  const ActorInstance& actor = world_->actors[static_cast<size_t>(index)];
  const ActorEntry& entry = entries_[static_cast<size_t>(index)];
  info.category = EntityCategory::kStaticObject;
  info.description = actor.kind->path_name + " at scale " + Number(actor.scale);
  info.tags = actor.kind->aliases;
  if (info.tags.empty()) info.tags.push_back(ShortName(*actor.kind));
  info.tags.emplace_back(entry.spawned ? "spawned" : "scenario");
  info.tags.emplace_back(actor.traversable ? "traversable" : "obstacle");
  info.bounds = ActorBounds(actor);
  info.local_bounds = ActorLocalBounds(actor);
  info.spawned = entry.spawned;
  return info;
}

std::optional<EntityKinematics> LiveRun::Kinematics(const std::string& name) const {
  if (!loaded()) return std::nullopt;
  EntityKinematics kinematics;
  if (name == kVehicleName) {
    const VehicleState vehicle = state_->vehicle->State();
    kinematics.position = vehicle.position;
    kinematics.orientation = vehicle.orientation;
    kinematics.linear_velocity = vehicle.orientation * vehicle.linear_velocity;
    kinematics.angular_velocity = vehicle.orientation * vehicle.angular_velocity;
    kinematics.linear_acceleration = linear_acceleration_;
    kinematics.angular_acceleration = angular_acceleration_;
    return kinematics;
  }
  const int index = ActorIndex(name);
  if (index < 0) return std::nullopt;
  const ActorInstance& actor = world_->actors[static_cast<size_t>(index)];
  kinematics.position = actor.position;
  kinematics.orientation = actor.orientation;
  return kinematics;
}

EntityOutcome LiveRun::SetState(const std::string& name, const EntityStateChange& change) {
  ASG_CHECK(loaded());
  const terrain::Landscape& landscape = *world_->landscape;
  if (name == kVehicleName) {
    const VehicleState now = state_->vehicle->State();
    Eigen::Vector3d position = change.position.value_or(now.position);
    const Eigen::Quaterniond orientation = change.orientation.value_or(now.orientation);
    if (change.position || change.orientation) {
      const std::string problem = PoseProblem(position, orientation, landscape);
      if (!problem.empty()) return Failure(EntityStatus::kInvalidPose, "vehicle: " + problem, name);
    }
    if (change.position && change.snap_to_ground) {
      position.z() = landscape.HeightAt(position.x(), position.y()) + rest_height_;
    }
    const Eigen::Vector3d linear =
        change.linear_velocity.value_or(now.orientation * now.linear_velocity);
    const Eigen::Vector3d angular =
        change.angular_velocity.value_or(now.orientation * now.angular_velocity);
    if (!Finite(linear) || !Finite(angular)) {
      return Failure(EntityStatus::kInvalidPose, "vehicle: twist is not finite", name);
    }
    if (change.position) LeaveOutJump(now.position, position);
    state_->vehicle->Teleport(position, orientation.normalized(), linear, angular);
    linear_acceleration_ = Eigen::Vector3d::Zero();
    angular_acceleration_ = Eigen::Vector3d::Zero();
    return {EntityStatus::kOk, {}, name};
  }
  const int index = ActorIndex(name);
  if (index < 0) return Failure(EntityStatus::kNotFound, "no entity named \"" + name + "\"", name);
  const bool moving = (change.linear_velocity && !change.linear_velocity->isZero(0.0)) ||
                      (change.angular_velocity && !change.angular_velocity->isZero(0.0));
  if (moving) {
    return Failure(EntityStatus::kOperationFailed,
                   name + " is a static actor: its twist must be zero", name);
  }
  if (!change.position && !change.orientation) return {EntityStatus::kOk, {}, name};
  ActorInstance& actor = world_->actors[static_cast<size_t>(index)];
  const Eigen::Vector3d position = change.position.value_or(actor.position);
  const std::string problem = PoseProblem(position, change.orientation, landscape);
  if (!problem.empty()) return Failure(EntityStatus::kInvalidPose, name + ": " + problem, name);
  const double yaw =
      change.orientation ? RollPitchYaw(change.orientation->normalized()).z() : actor.yaw;
  PlaceOnGround(landscape, position.x(), position.y(), yaw, &actor);
  ActorsChanged();
  return {EntityStatus::kOk, {}, name};
}

EntityOutcome LiveRun::Spawn(const SpawnRequest& request) {
  ASG_CHECK(loaded());
  if (std::optional<EntityOutcome> refused = ResourceProblem(request)) return *std::move(refused);
  const std::string scheme = kActorScheme;
  const ActorKind* kind = request.uri.rfind(scheme, 0) == 0
                              ? catalog_.Find(request.uri.substr(scheme.size()))
                              : nullptr;
  if (kind == nullptr) {
    return Failure(EntityStatus::kNotFound,
                   "uri \"" + request.uri + "\" names no spawnable (see GetSpawnables)");
  }
  if (!AllOf(request.entity_namespace, "_/")) {
    return Failure(EntityStatus::kNamespaceInvalid,
                   "entity_namespace \"" + request.entity_namespace +
                       "\": only letters, digits, _ and / are allowed");
  }
  std::string base = request.name;
  if (base.empty() || !AllOf(base, "_.-")) {
    if (!request.allow_renaming) {
      return Failure(EntityStatus::kNameInvalid,
                     "name \"" + request.name +
                         "\": must be non-empty, of letters, digits, _ . and - (or set "
                         "allow_renaming)");
    }
    base = ShortName(*kind);
  }
  std::string prefix = request.entity_namespace;
  while (!prefix.empty() && prefix.front() == '/') prefix.erase(prefix.begin());
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  if (!prefix.empty()) base = prefix + "/" + base;
  std::string name = base;
  const auto taken = [this](const std::string& candidate) {
    return candidate == kVehicleName || ActorIndex(candidate) >= 0;
  };
  if (taken(name)) {
    if (!request.allow_renaming) {
      return Failure(EntityStatus::kNameNotUnique, "name \"" + name + "\" is taken", name);
    }
    for (int k = 1; taken(name); ++k) name = base + "_" + std::to_string(k);
  }
  const std::string problem =
      PoseProblem(request.position, request.orientation, *world_->landscape);
  if (!problem.empty()) {
    return Failure(EntityStatus::kInvalidPose, "initial_pose: " + problem, name);
  }
  ActorInstance actor;
  actor.kind = kind;
  actor.ssa_index = -1;
  actor.instance_index = static_cast<int>(world_->actors.size());
  actor.scale = 1.0;
  actor.traversable = IsTraversable(*kind, 1.0);
  PlaceOnGround(*world_->landscape, request.position.x(), request.position.y(),
                RollPitchYaw(request.orientation.normalized()).z(), &actor);
  ActorEntry entry;
  entry.name = name;
  entry.spawned = true;
  entry.initial_x = actor.position.x();
  entry.initial_y = actor.position.y();
  entry.initial_yaw = actor.yaw;
  world_->actors.push_back(actor);
  entries_.push_back(entry);
  ActorsChanged();
  return {EntityStatus::kOk, {}, name};
}

EntityOutcome LiveRun::Delete(const std::string& name) {
  ASG_CHECK(loaded());
  if (name == kVehicleName) {
    return Failure(EntityStatus::kOperationFailed,
                   "the vehicle cannot be deleted; move it with SetEntityState", name);
  }
  const int index = ActorIndex(name);
  if (index < 0) return Failure(EntityStatus::kNotFound, "no entity named \"" + name + "\"", name);
  world_->actors.erase(world_->actors.begin() + index);
  entries_.erase(entries_.begin() + index);
  ActorsChanged();
  return {EntityStatus::kOk, {}, name};
}

std::vector<SpawnableClass> LiveRun::Spawnables() const {
  std::vector<SpawnableClass> classes;
  for (const ActorKind& kind : catalog_.kinds()) {
    const double r = FootprintRadius(kind);
    SpawnableClass spawnable;
    spawnable.uri = kActorScheme + ShortName(kind);
    spawnable.description = kind.path_name + ": " + Number(kind.nominal_height) +
                            " m high at scale 1" +
                            (IsTraversable(kind, 1.0) ? ", traversable" : ", an obstacle");
    spawnable.bounds = Eigen::AlignedBox3d(Eigen::Vector3d(-r, -r, 0.0),
                                           Eigen::Vector3d(r, r, kind.nominal_height));
    classes.push_back(spawnable);
  }
  const protocol::VehicleParams& v = request_.vehicle;
  SpawnableClass vehicle;
  vehicle.uri = kVehicleUri;
  vehicle.description = "the scenario's vehicle (exactly one per scenario; not spawnable twice)";
  vehicle.bounds =
      Eigen::AlignedBox3d(Eigen::Vector3d(-v.length / 2, -v.width / 2, -v.body_height / 2),
                          Eigen::Vector3d(v.length / 2, v.width / 2, v.body_height / 2));
  classes.push_back(vehicle);
  return classes;
}

}  // namespace asg::scene
