// The IMU model: orientation, body angular velocity and body linear acceleration with seeded
// Gaussian noise, at the vehicle origin with the body axes.
//
// Linear acceleration is the finite difference of the world-frame velocity between this sample and
// the previous one, turned into the body frame; the first sample reports zero motion acceleration.
// With add_gravity the reading is the specific force an accelerometer measures, a - g with
// g = (0, 0, -9.81) m/s^2, i.e. +9.81 along the world's up axis at rest. Noise: each of roll,
// pitch and yaw of the orientation is perturbed by N(0, orientation_noise) (applied in the body
// frame as R * Rz(dyaw) * Ry(dpitch) * Rx(droll)); each axis of angular velocity and acceleration
// gets independent N(0, stddev). Draw order per sample: droll, dpitch, dyaw, angular x, y, z,
// acceleration x, y, z, so a seed gives one sequence.
//
// Reading header (besides the common keys, frame_id = the sensor's name), data empty:
//   {"orientation": {"x","y","z","w"} (body -> world), "angular_velocity": {"x","y","z"}
//    [rad/s], "linear_acceleration": {"x","y","z"} [m/s^2]}
#pragma once

#include "protocol/sensor_specs.h"
#include "scene/sensor_noise.h"
#include "scene/sensor_reading.h"

namespace asg::scene {

/// Standard gravity [m/s^2].
inline constexpr double kGravity = 9.81;

/// An IMU. Owns its noise generator and the previous sample; not thread-safe.
class ImuSensor {
 public:
  /// seed: the sensor's seed (SensorSeed of the run seed, spec.seed and spec.name).
  ImuSensor(const protocol::ImuSpec& spec, uint64_t seed);

  /// One measurement; samples must come in increasing time.
  SensorReading Sample(const SensorInput& input);

 private:
  protocol::ImuSpec spec_;
  NoiseGenerator noise_;
  bool has_previous_ = false;
  double previous_time_ = 0.0;                                   ///< [s]
  Eigen::Vector3d previous_velocity_ = Eigen::Vector3d::Zero();  ///< [m/s] world
};

}  // namespace asg::scene
