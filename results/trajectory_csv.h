// trajectory.csv: one row per trajectory sample of a run.
//
// Columns: t [s] (the sample's stamp), x, y, z [m] (world position), roll, pitch, yaw [deg]
// (Z-Y-X Euler angles of the orientation), vx, vy, vz [m/s] and wx, wy, wz [rad/s] (the twist
// as sent: BODY frame, x forward, y left, z up; angular rates in radians as in ROS), then
// vx_world, vy_world, vz_world [m/s] (the same linear velocity in the north-west-up world
// frame: the orientation applied to vx, vy, vz). Numbers are written in their
// shortest form that reads back to the identical double (t exactly from sec and nanosec), so
// the same trajectory always gives the same bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/geometry.h"
#include "protocol/messages.h"

namespace asg::results {

/// The first line of trajectory.csv (without the newline).
inline constexpr std::string_view kTrajectoryCsvHeader =
    "t,x,y,z,roll,pitch,yaw,vx,vy,vz,wx,wy,wz,vx_world,vy_world,vz_world";

/// Z-Y-X (yaw, then pitch, then roll) Euler angles.
struct RollPitchYaw {
  double roll = 0.0;   ///< [deg] about body x, -180..180
  double pitch = 0.0;  ///< [deg] about body y, -90..90
  double yaw = 0.0;    ///< [deg] about world z, -180..180
};

/// The Euler angles of a unit quaternion (normalised first; a zero quaternion gives zeros).
RollPitchYaw QuaternionToRollPitchYaw(const protocol::Quaternion& q);

/// `v` (body frame) rotated into the world frame by the unit quaternion `q` (normalised first;
/// a zero quaternion leaves `v` as it is).
protocol::Vector3 BodyToWorld(const protocol::Quaternion& q, const protocol::Vector3& v);

/// A number in its shortest round-trip form ("0.1", "-3", "1e-07"); -0 is written as "0".
std::string FormatCsvNumber(double value);

/// A stamp as "<sec>.<nanosec, 9 digits>", e.g. "12.050000000" (a negative stamp, which a run
/// does not produce, in the shortest form of its seconds).
std::string FormatStamp(const protocol::Time& stamp);

/// The whole CSV text: header line, then one line per sample, each ending in '\n'.
std::string TrajectoryToCsv(const std::vector<protocol::OdometryWithoutCovariance>& trajectory);

/// One line of trajectory.csv read back: every column, units as above.
struct TrajectoryRow {
  double t = 0.0;                                         ///< [s]
  double x = 0.0, y = 0.0, z = 0.0;                       ///< [m] world position
  double roll = 0.0, pitch = 0.0, yaw = 0.0;              ///< [deg]
  double vx = 0.0, vy = 0.0, vz = 0.0;                    ///< [m/s] body frame
  double wx = 0.0, wy = 0.0, wz = 0.0;                    ///< [rad/s] body frame
  double vx_world = 0.0, vy_world = 0.0, vz_world = 0.0;  ///< [m/s] world frame
};

/// The row trajectory.csv's line of `sample` reads back as, computed without the text: the same
/// doubles TrajectoryFromCsv gives (t as the stamp's decimal, -0 as 0). For a caller that holds
/// the samples and must judge them as a reader of the folder would.
TrajectoryRow TrajectoryRowOf(const protocol::OdometryWithoutCovariance& sample);

/// Reads trajectory.csv's text back: a header line naming every column of kTrajectoryCsvHeader
/// (in any order; other columns are ignored), then one line of numbers per sample; empty lines
/// and a '\r' before a newline are skipped; every line ends with a newline. Throws ResultError
/// "<origin>: no header line (the file is empty)", "<origin>: the last line is cut short (no
/// newline at the end)", "<origin>: no column "vz" in the header" or "<origin>:<line>: column "x"
/// is not a number".
std::vector<TrajectoryRow> TrajectoryFromCsv(std::string_view text, const std::string& origin);

}  // namespace asg::results
