// Small value types mirroring geometry_msgs, std_msgs and builtin_interfaces.
//
// Frame convention throughout ASG Farm: right-handed north-west-up, x north, y west, z up, yaw
// counter-clockwise from +x. Lengths in metres, times in seconds, angles in degrees unless a
// field says otherwise (quaternions are unitless).
#pragma once

#include <cstdint>
#include <string>

namespace asg::protocol {

/// builtin_interfaces/Time: a simulation time stamp.
struct Time {
  int32_t sec = 0;       ///< [s] whole seconds
  uint32_t nanosec = 0;  ///< [ns] fraction, 0..999'999'999

  /// Builds a stamp from seconds, rounding to the nearest nanosecond.
  static Time FromSeconds(double seconds);
  /// [s] the stamp as seconds.
  double Seconds() const { return sec + nanosec * 1e-9; }
  bool operator==(const Time&) const = default;
};

/// std_msgs/Header.
struct Header {
  Time stamp;            ///< simulation time of the data
  std::string frame_id;  ///< frame the data is expressed in, e.g. "world"
  bool operator==(const Header&) const = default;
};

/// std_msgs/ColorRGBA, components in [0, 1].
struct ColorRGBA {
  double r = 0.0;  ///< [0, 1] red
  double g = 0.0;  ///< [0, 1] green
  double b = 0.0;  ///< [0, 1] blue
  double a = 1.0;  ///< [0, 1] opacity
  bool operator==(const ColorRGBA&) const = default;
};

/// geometry_msgs/Point.
struct Point {
  double x = 0.0;  ///< [m] north
  double y = 0.0;  ///< [m] west
  double z = 0.0;  ///< [m] up
  bool operator==(const Point&) const = default;
};

/// geometry_msgs/Vector3.
struct Vector3 {
  double x = 0.0;  ///< x component (unit given by the field that holds it)
  double y = 0.0;  ///< y component
  double z = 0.0;  ///< z component
  bool operator==(const Vector3&) const = default;
};

/// geometry_msgs/Quaternion (unit quaternion, w last as in ROS).
struct Quaternion {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
  double w = 1.0;
  bool operator==(const Quaternion&) const = default;
};

/// geometry_msgs/Pose.
struct Pose {
  Point position;          ///< [m] world position
  Quaternion orientation;  ///< rotation from body to world
  bool operator==(const Pose&) const = default;
};

/// geometry_msgs/Twist.
struct Twist {
  Vector3 linear;   ///< [m/s]
  Vector3 angular;  ///< [rad/s] (ROS convention; this is the one field in radians)
  bool operator==(const Twist&) const = default;
};

}  // namespace asg::protocol
