// Putting the vehicle on the ground at its start before a run (AutoSceneGen's "standby").
#pragma once

#include "scene/physics_world.h"
#include "scene/vehicle.h"
#include "scene/world.h"

namespace asg::scene {

/// Standby criteria and retry limits of the settle procedure.
struct SettleSettings {
  double window = 0.5;             ///< [s] standby must hold this long
  double max_displacement = 0.01;  ///< [m] largest movement over the window
  double max_speed = 0.05;         ///< [m/s] largest speed during the window
  double max_angular_speed = 1.0;  ///< [deg/s] largest angular speed during the window
  double attempt_time = 5.0;       ///< [s] an attempt that has not settled by then is retried
  double max_tilt = 45.0;        ///< [deg] an attempt whose |roll| or |pitch| exceeds it is retried
  int attempts = 3;              ///< attempts before giving up
  double drop_clearance = 0.05;  ///< [m] wheels' clearance above the highest ground, 1st attempt
  double retry_clearance = 0.25;  ///< [m] extra clearance per retry
};

/// [m] highest ground under the vehicle's footprint (chassis corners, wheels, centre) when its
/// origin is at (x, y) with heading yaw [deg].
double HighestGroundUnder(const terrain::Landscape& landscape,
                          const protocol::VehicleParams& params, double x, double y, double yaw);

/// Places the vehicle level at the world's start (x, y, yaw) with its wheels just above the
/// highest ground under its footprint, holds the brakes and steps the physics at dt [s] until it
/// is in standby: over `window`, moved <= max_displacement, speed <= max_speed and angular speed
/// <= max_angular_speed. Retries from higher up when an attempt exceeds attempt_time or tilts
/// past max_tilt. Returns the simulated time spent [s] over all attempts. Throws SceneError
/// naming the start and the last failure when no attempt settles.
double SettleVehicle(const World& world, double dt, const SettleSettings& settings,
                     PhysicsWorld* physics, Vehicle* vehicle);

}  // namespace asg::scene
