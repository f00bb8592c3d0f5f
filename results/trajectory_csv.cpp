// Trajectory CSV formatting and quaternion to Euler conversion.
#include "results/trajectory_csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <numbers>
#include <utility>

#include "results/files.h"
#include "results/record.h"

namespace asg::results {
namespace {

// The columns of trajectory.csv in header order, and where each lands in a TrajectoryRow.
constexpr std::pair<const char*, double TrajectoryRow::*> kColumns[] = {
    {"t", &TrajectoryRow::t},
    {"x", &TrajectoryRow::x},
    {"y", &TrajectoryRow::y},
    {"z", &TrajectoryRow::z},
    {"roll", &TrajectoryRow::roll},
    {"pitch", &TrajectoryRow::pitch},
    {"yaw", &TrajectoryRow::yaw},
    {"vx", &TrajectoryRow::vx},
    {"vy", &TrajectoryRow::vy},
    {"vz", &TrajectoryRow::vz},
    {"wx", &TrajectoryRow::wx},
    {"wy", &TrajectoryRow::wy},
    {"wz", &TrajectoryRow::wz},
    {"vx_world", &TrajectoryRow::vx_world},
    {"vy_world", &TrajectoryRow::vy_world},
    {"vz_world", &TrajectoryRow::vz_world},
};

}  // namespace

RollPitchYaw QuaternionToRollPitchYaw(const protocol::Quaternion& q) {
  const double norm = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (norm == 0.0) return {};
  const double w = q.w / norm;
  const double x = q.x / norm;
  const double y = q.y / norm;
  const double z = q.z / norm;
  constexpr double kDegrees = 180.0 / std::numbers::pi;
  RollPitchYaw angles;
  angles.roll = std::atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y)) * kDegrees;
  // Clamp: rounding can push the sine just past +-1 at gimbal lock.
  angles.pitch = std::asin(std::clamp(2.0 * (w * y - z * x), -1.0, 1.0)) * kDegrees;
  angles.yaw = std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z)) * kDegrees;
  return angles;
}

std::string FormatCsvNumber(double value) {
  if (value == 0.0) value = 0.0;  // drops the sign of -0
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, end);
}

std::string FormatStamp(const protocol::Time& stamp) {
  if (stamp.sec < 0) return FormatCsvNumber(stamp.Seconds());  // sec + nanosec is not "-s.ns"
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%d.%09u", static_cast<int>(stamp.sec),
                static_cast<unsigned>(stamp.nanosec));
  return buffer;
}

protocol::Vector3 BodyToWorld(const protocol::Quaternion& q, const protocol::Vector3& v) {
  const double norm = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (!(norm > 0.0)) return v;
  const double x = q.x / norm, y = q.y / norm, z = q.z / norm, w = q.w / norm;
  // v' = v + w t + (q.xyz x t), t = 2 (q.xyz x v).
  const double tx = 2.0 * (y * v.z - z * v.y);
  const double ty = 2.0 * (z * v.x - x * v.z);
  const double tz = 2.0 * (x * v.y - y * v.x);
  return {v.x + w * tx + (y * tz - z * ty), v.y + w * ty + (z * tx - x * tz),
          v.z + w * tz + (x * ty - y * tx)};
}

TrajectoryRow TrajectoryRowOf(const protocol::OdometryWithoutCovariance& sample) {
  const RollPitchYaw angles = QuaternionToRollPitchYaw(sample.pose.orientation);
  const protocol::Point& p = sample.pose.position;
  const protocol::Vector3& v = sample.twist.linear;
  const protocol::Vector3& w = sample.twist.angular;
  const protocol::Vector3 world = BodyToWorld(sample.pose.orientation, v);
  const std::string stamp = FormatStamp(sample.header.stamp);
  TrajectoryRow row;
  std::from_chars(stamp.data(), stamp.data() + stamp.size(), row.t);
  const double values[] = {p.x, p.y, p.z, angles.roll, angles.pitch, angles.yaw, v.x,    v.y,
                           v.z, w.x, w.y, w.z,         world.x,      world.y,    world.z};
  for (size_t i = 0; i < std::size(values); ++i) {
    // The text drops the sign of -0 (FormatCsvNumber), so the row does too.
    row.*kColumns[i + 1].second = values[i] == 0.0 ? 0.0 : values[i];
  }
  return row;
}

std::string TrajectoryToCsv(const std::vector<protocol::OdometryWithoutCovariance>& trajectory) {
  std::string csv(kTrajectoryCsvHeader);
  csv += '\n';
  for (const protocol::OdometryWithoutCovariance& sample : trajectory) {
    const TrajectoryRow row = TrajectoryRowOf(sample);
    csv += FormatStamp(sample.header.stamp);
    for (size_t i = 1; i < std::size(kColumns); ++i) {
      csv += ',';
      csv += FormatCsvNumber(row.*kColumns[i].second);
    }
    csv += '\n';
  }
  return csv;
}

std::vector<TrajectoryRow> TrajectoryFromCsv(std::string_view text, const std::string& origin) {
  std::vector<TrajectoryRow> rows;
  size_t index[std::size(kColumns)] = {};  // field index of each column, from the header
  bool header_read = false;
  size_t line_number = 0;
  if (!text.empty() && text.back() != '\n') {
    throw ResultError(origin + ": the last line is cut short (no newline at the end)");
  }
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::vector<std::string_view> fields = CsvFields(line);
    if (!header_read) {
      for (size_t i = 0; i < std::size(kColumns); ++i) {
        const auto found = std::find(fields.begin(), fields.end(), kColumns[i].first);
        if (found == fields.end()) {
          throw ResultError(origin + ": no column \"" + kColumns[i].first + "\" in the header");
        }
        index[i] = static_cast<size_t>(found - fields.begin());
      }
      header_read = true;
      continue;
    }
    TrajectoryRow& row = rows.emplace_back();
    for (size_t i = 0; i < std::size(kColumns); ++i) {
      const std::string_view field = index[i] < fields.size() ? fields[index[i]] : "";
      double& value = row.*kColumns[i].second;
      const auto [ptr, error] = std::from_chars(field.data(), field.data() + field.size(), value);
      if (error != std::errc() || ptr != field.data() + field.size()) {
        throw ResultError(origin + ":" + std::to_string(line_number) + ": column \"" +
                          kColumns[i].first + "\" is not a number");
      }
    }
  }
  if (!header_read) throw ResultError(origin + ": no header line (the file is empty)");
  return rows;
}

}  // namespace asg::results
