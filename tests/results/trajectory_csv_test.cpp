// Tests for results/trajectory_csv.h.
#include "results/trajectory_csv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "results/record.h"

namespace asg::results {
namespace {

// The quaternion of Z-Y-X Euler angles in degrees.
protocol::Quaternion FromRollPitchYaw(double roll, double pitch, double yaw) {
  const double r = roll * std::numbers::pi / 360.0;
  const double p = pitch * std::numbers::pi / 360.0;
  const double y = yaw * std::numbers::pi / 360.0;
  return {std::sin(r) * std::cos(p) * std::cos(y) - std::cos(r) * std::sin(p) * std::sin(y),
          std::cos(r) * std::sin(p) * std::cos(y) + std::sin(r) * std::cos(p) * std::sin(y),
          std::cos(r) * std::cos(p) * std::sin(y) - std::sin(r) * std::sin(p) * std::cos(y),
          std::cos(r) * std::cos(p) * std::cos(y) + std::sin(r) * std::sin(p) * std::sin(y)};
}

// A sample at (10.5, -2.25, 0.75) heading +y (yaw 90 deg), stamped `stamp`, with body-frame
// velocity (vx, 0, -0.5) and yaw rate 0.25 rad/s.
protocol::OdometryWithoutCovariance TurnedSample(protocol::Time stamp, double vx) {
  protocol::OdometryWithoutCovariance sample;
  sample.header.stamp = stamp;
  sample.pose.position = {10.5, -2.25, 0.75};
  const double h = std::sqrt(0.5);
  sample.pose.orientation = {0, 0, h, h};
  sample.twist.linear = {vx, 0, -0.5};
  sample.twist.angular = {0, 0, 0.25};
  return sample;
}

TEST(QuaternionToRollPitchYawTest, PureYawOf90Degrees) {
  const double h = std::sqrt(0.5);
  const RollPitchYaw angles = QuaternionToRollPitchYaw({0, 0, h, h});
  EXPECT_NEAR(angles.roll, 0.0, 1e-12);
  EXPECT_NEAR(angles.pitch, 0.0, 1e-12);
  EXPECT_NEAR(angles.yaw, 90.0, 1e-12);
}

TEST(QuaternionToRollPitchYawTest, RecoversCombinedAngles) {
  const RollPitchYaw angles = QuaternionToRollPitchYaw(FromRollPitchYaw(10, -20, 135));
  EXPECT_NEAR(angles.roll, 10.0, 1e-9);
  EXPECT_NEAR(angles.pitch, -20.0, 1e-9);
  EXPECT_NEAR(angles.yaw, 135.0, 1e-9);
}

TEST(QuaternionToRollPitchYawTest, NormalisesAndHandlesZero) {
  const RollPitchYaw angles = QuaternionToRollPitchYaw({0, 0, 2, 2});
  EXPECT_NEAR(angles.yaw, 90.0, 1e-12);
  EXPECT_EQ(QuaternionToRollPitchYaw({0, 0, 0, 0}).yaw, 0.0);
}

TEST(FormatTest, ShortestRoundTripAndExactStamps) {
  EXPECT_EQ(FormatCsvNumber(0.1), "0.1");
  EXPECT_EQ(FormatCsvNumber(-3.0), "-3");
  EXPECT_EQ(FormatCsvNumber(-0.0), "0");
  const double awkward = 0.1 + 0.2;
  EXPECT_EQ(std::strtod(FormatCsvNumber(awkward).c_str(), nullptr), awkward);
  EXPECT_EQ(FormatStamp({12, 50'000'000}), "12.050000000");
}

TEST(TrajectoryToCsvTest, HeaderAndOneRowPerSample) {
  const protocol::OdometryWithoutCovariance sample = TurnedSample({1, 500'000'000}, 5.0);
  const std::string csv = TrajectoryToCsv({sample, sample});
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "t,x,y,z,roll,pitch,yaw,vx,vy,vz,wx,wy,wz,vx_world,vy_world,vz_world");
  std::getline(lines, line);
  std::vector<std::string> cells;
  std::istringstream row(line);
  for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
  ASSERT_EQ(cells.size(), 16u);
  EXPECT_EQ(cells[0], "1.500000000");
  EXPECT_EQ(cells[1], "10.5");
  EXPECT_EQ(cells[2], "-2.25");
  EXPECT_EQ(cells[3], "0.75");
  EXPECT_EQ(cells[4], "0");
  EXPECT_EQ(cells[5], "0");
  EXPECT_NEAR(std::stod(cells[6]), 90.0, 1e-12);
  EXPECT_EQ(cells[7], "5");
  EXPECT_EQ(cells[9], "-0.5");
  EXPECT_EQ(cells[12], "0.25");
  // Heading +y (yaw 90 deg): 5 m/s forward in the body frame is 5 m/s along world y.
  EXPECT_NEAR(std::stod(cells[13]), 0.0, 1e-12);
  EXPECT_NEAR(std::stod(cells[14]), 5.0, 1e-12);
  EXPECT_NEAR(std::stod(cells[15]), -0.5, 1e-12);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_EQ(TrajectoryToCsv({}),
            "t,x,y,z,roll,pitch,yaw,vx,vy,vz,wx,wy,wz,vx_world,vy_world,vz_world\n");
}

TEST(BodyToWorldTest, RotatesByTheOrientation) {
  // Pitched nose-down by 30 deg (about body y): forward motion has a downward world component.
  const double half = 15.0 * M_PI / 180.0;
  const protocol::Vector3 v =
      BodyToWorld({0.0, std::sin(half), 0.0, std::cos(half)}, protocol::Vector3{2.0, 0.0, 0.0});
  EXPECT_NEAR(v.x, 2.0 * std::cos(M_PI / 6), 1e-12);
  EXPECT_NEAR(v.y, 0.0, 1e-12);
  EXPECT_NEAR(v.z, -2.0 * std::sin(M_PI / 6), 1e-12);
  const protocol::Vector3 same = BodyToWorld({0, 0, 0, 0}, protocol::Vector3{1.0, 2.0, 3.0});
  EXPECT_EQ(same.x, 1.0);
  EXPECT_EQ(same.z, 3.0);
}

TEST(TrajectoryFromCsvTest, ReadsBackWhatTheWriterWrote) {
  const protocol::OdometryWithoutCovariance sample = TurnedSample({12, 50'000'000}, 0.1);
  protocol::OdometryWithoutCovariance later = sample;
  later.header.stamp = {12, 100'000'000};
  later.pose.position.x = 1.0 / 3.0;
  const std::vector<TrajectoryRow> rows =
      TrajectoryFromCsv(TrajectoryToCsv({sample, later}), "trajectory.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].t, 12.05);
  EXPECT_EQ(rows[0].x, 10.5);
  EXPECT_EQ(rows[0].y, -2.25);
  EXPECT_EQ(rows[0].z, 0.75);
  EXPECT_EQ(rows[0].vx, 0.1);
  EXPECT_EQ(rows[0].vz, -0.5);
  EXPECT_EQ(rows[0].wz, 0.25);
  const RollPitchYaw angles = QuaternionToRollPitchYaw(sample.pose.orientation);
  EXPECT_EQ(rows[0].yaw, angles.yaw);  // shortest round-trip form: the same double
  const protocol::Vector3 world = BodyToWorld(sample.pose.orientation, sample.twist.linear);
  EXPECT_EQ(rows[0].vx_world, world.x);
  EXPECT_EQ(rows[0].vy_world, world.y);
  EXPECT_EQ(rows[1].t, 12.1);
  EXPECT_EQ(rows[1].x, 1.0 / 3.0);
  EXPECT_TRUE(TrajectoryFromCsv(TrajectoryToCsv({}), "trajectory.csv").empty());
}

TEST(TrajectoryRowOfTest, GivesTheRowTheFileReadsBackAs) {
  protocol::OdometryWithoutCovariance sample = TurnedSample({12, 50'000'000}, 0.1);
  sample.pose.position.x = 1.0 / 3.0;
  sample.twist.angular.x = -0.0;  // written as 0
  // 7.1 s is not 7 + 0.1 in doubles: the row holds the stamp's decimal, as the file does.
  protocol::OdometryWithoutCovariance later = sample;
  later.header.stamp = {7, 100'000'000};
  const std::vector<TrajectoryRow> read =
      TrajectoryFromCsv(TrajectoryToCsv({sample, later}), "trajectory.csv");
  ASSERT_EQ(read.size(), 2u);
  const protocol::OdometryWithoutCovariance* samples[] = {&sample, &later};
  for (size_t i = 0; i < 2; ++i) {
    const TrajectoryRow row = TrajectoryRowOf(*samples[i]);
    EXPECT_EQ(std::memcmp(&row, &read[i], sizeof row), 0) << i;
  }
  EXPECT_EQ(TrajectoryRowOf(later).t, 7.1);
  EXPECT_FALSE(std::signbit(TrajectoryRowOf(sample).wx));
}

TEST(TrajectoryFromCsvTest, FindsColumnsByNameAndSkipsEmptyLines) {
  const std::string header(kTrajectoryCsvHeader);
  // Columns reordered (t last) plus one unknown, CRLF line ends and a blank line.
  std::string text = "x,extra,";
  text += header.substr(header.find(',') + 3) + ",t\r\n\r\n";  // drop "t,x,"
  text += "1.5,zzz,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0.25\r\n";
  const std::vector<TrajectoryRow> rows = TrajectoryFromCsv(text, "f.csv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].x, 1.5);
  EXPECT_EQ(rows[0].y, 2.0);
  EXPECT_EQ(rows[0].vz_world, 15.0);
  EXPECT_EQ(rows[0].t, 0.25);
}

TEST(TrajectoryFromCsvTest, ErrorsNameTheFileTheLineAndTheColumn) {
  try {
    TrajectoryFromCsv("t,x,y\n", "a/trajectory.csv");
    FAIL() << "no error";
  } catch (const ResultError& error) {
    EXPECT_STREQ(error.what(), "a/trajectory.csv: no column \"z\" in the header");
  }
  std::string text(kTrajectoryCsvHeader);
  text += "\n0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n0,1,two,3,4,5,6,7,8,9,10,11,12,13,14,15\n";
  try {
    TrajectoryFromCsv(text, "b.csv");
    FAIL() << "no error";
  } catch (const ResultError& error) {
    EXPECT_STREQ(error.what(), "b.csv:3: column \"y\" is not a number");
  }
  text = std::string(kTrajectoryCsvHeader) + "\n0,1,2\n";  // a short row
  EXPECT_THROW(TrajectoryFromCsv(text, "c.csv"), ResultError);
}

TEST(TrajectoryFromCsvTest, AnEmptyFileOrALastLineCutShortIsAnError) {
  try {
    TrajectoryFromCsv("", "d/trajectory.csv");
    FAIL() << "no error";
  } catch (const ResultError& error) {
    EXPECT_STREQ(error.what(), "d/trajectory.csv: no header line (the file is empty)");
  }
  // A file cut after a whole number still parses line by line: the missing newline tells.
  const std::string text =
      std::string(kTrajectoryCsvHeader) + "\n0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n0,1";
  try {
    TrajectoryFromCsv(text, "e.csv");
    FAIL() << "no error";
  } catch (const ResultError& error) {
    EXPECT_STREQ(error.what(), "e.csv: the last line is cut short (no newline at the end)");
  }
}

}  // namespace
}  // namespace asg::results
