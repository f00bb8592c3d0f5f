// The settle procedure: drop, wait for standby, retry from higher up.
#include "scene/vehicle_settle.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/check.h"
#include "core/number_format.h"
#include "scene/scene_error.h"

namespace asg::scene {

double HighestGroundUnder(const terrain::Landscape& landscape,
                          const protocol::VehicleParams& params, double x, double y, double yaw) {
  const double c = std::cos(yaw * std::numbers::pi / 180.0);
  const double s = std::sin(yaw * std::numbers::pi / 180.0);
  const double half_length =
      0.5 * std::max(params.length, params.wheelbase + 2 * params.wheel_radius);
  const double half_width = 0.5 * std::max(params.width, params.track_width + params.wheel_width);
  double highest = landscape.HeightAt(x, y);
  // A 5 x 3 grid over the footprint rectangle covers corners, wheels and centre.
  for (int i = -2; i <= 2; ++i) {
    for (int j = -1; j <= 1; ++j) {
      const double forward = half_length * i / 2.0;
      const double left = half_width * j;
      highest = std::max(
          highest, landscape.HeightAt(x + c * forward - s * left, y + s * forward + c * left));
    }
  }
  return highest;
}

double SettleVehicle(const World& world, double dt, const SettleSettings& settings,
                     PhysicsWorld* physics, Vehicle* vehicle) {
  ASG_CHECK(dt > 0.0);
  const double x = world.start.x();
  const double y = world.start.y();
  const double ground =
      HighestGroundUnder(*world.landscape, vehicle->params(), x, y, world.start_yaw);
  const int window_steps = static_cast<int>(std::ceil(settings.window / dt - 1e-9));
  const int attempt_steps = static_cast<int>(std::ceil(settings.attempt_time / dt - 1e-9));
  const double max_angular_speed = settings.max_angular_speed * std::numbers::pi / 180.0;
  int total_steps = 0;
  std::string failure;
  for (int attempt = 0; attempt < settings.attempts; ++attempt) {
    const double clearance = settings.drop_clearance + attempt * settings.retry_clearance;
    vehicle->Place(Eigen::Vector3d(x, y, ground + vehicle->OriginAboveGround() + clearance),
                   world.start_yaw);
    Eigen::Vector3d anchor = vehicle->State().position;
    int calm_steps = 0;
    failure = "not in standby after " + core::FormatNumber(settings.attempt_time) + " s";
    for (int step = 0; step < attempt_steps; ++step) {
      vehicle->ApplyControl(dt);
      physics->Step(dt);
      ++total_steps;
      const VehicleState state = vehicle->State();
      if (std::abs(state.roll) > settings.max_tilt || std::abs(state.pitch) > settings.max_tilt) {
        failure = "tilted to roll " + core::FormatNumber(state.roll) + " deg, pitch " +
                  core::FormatNumber(state.pitch) + " deg (limit " +
                  core::FormatNumber(settings.max_tilt) + ")";
        break;
      }
      const bool calm = state.linear_velocity.norm() <= settings.max_speed &&
                        state.angular_velocity.norm() <= max_angular_speed &&
                        (state.position - anchor).norm() <= settings.max_displacement;
      if (!calm) {
        anchor = state.position;
        calm_steps = 0;
        continue;
      }
      if (++calm_steps >= window_steps) return total_steps * dt;
    }
  }
  throw SceneError("vehicle_start_location (" + core::FormatNumber(x) + ", " +
                   core::FormatNumber(y) + ") yaw " + core::FormatNumber(world.start_yaw) +
                   ": the vehicle did not settle in " + std::to_string(settings.attempts) +
                   " attempts; last: " + failure);
}

}  // namespace asg::scene
