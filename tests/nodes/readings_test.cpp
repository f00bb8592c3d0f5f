// Tests for nodes/readings.h and nodes/step.h: exact decoding of lidar, occupancy, camera, IMU
// and detection readings, and clear errors for headers that do not fit their attachment.
#include "nodes/readings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "nodes/step.h"

namespace asg::nodes {
namespace {

using json::Json;

template <class T>
void Append(std::string* bytes, const std::vector<T>& values) {
  const size_t at = bytes->size();
  bytes->resize(at + values.size() * sizeof(T));
  std::memcpy(bytes->data() + at, values.data(), values.size() * sizeof(T));
}

Json Stamp() { return {{"sec", 2}, {"nanosec", 500000000}}; }
Json PoseAt(double x) {
  return {{"position", {{"x", x}, {"y", 2.0}, {"z", 1.8}}},
          {"orientation", {{"x", 0.0}, {"y", 0.0}, {"z", 0.0}, {"w", 1.0}}}};
}

/// A Step with a lidar (3 points), a 3 x 2 occupancy grid with a padded step of 4, and a 2 x 2
/// camera's rgb, depth and segmentation images, all in one attachment.
Step MakeStep() {
  std::string attachment;
  std::vector<Json> readings;
  const std::vector<float> points{1.0f, 2.0f, 3.0f, -4.5f, 0.25f, 7.0f, 100.0f, -0.0f, 1e-3f};
  readings.push_back({{"name", "roof"},
                      {"type", "lidar"},
                      {"stamp", Stamp()},
                      {"encoding", "xyz32f"},
                      {"point_step", 12},
                      {"count", 3},
                      {"sensor_pose", PoseAt(5.0)},
                      {"offset", attachment.size()},
                      {"size", 36}});
  Append(&attachment, points);
  readings.push_back({{"name", "grid"},
                      {"type", "occupancy_grid"},
                      {"stamp", Stamp()},
                      {"encoding", "mono8"},
                      {"width", 3},
                      {"height", 2},
                      {"step", 4},
                      {"resolution", 0.5},
                      {"origin", PoseAt(-1.0)},
                      {"offset", attachment.size()},
                      {"size", 8}});
  Append(&attachment, std::vector<uint8_t>{0, 100, 0, 9, 100, 100, 0, 9});
  readings.push_back({{"name", "front"},
                      {"type", "camera"},
                      {"stamp", Stamp()},
                      {"encoding", "rgb8"},
                      {"width", 2},
                      {"height", 2},
                      {"step", 6},
                      {"offset", attachment.size()},
                      {"size", 12}});
  Append(&attachment, std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  readings.push_back({{"name", "front"},
                      {"type", "camera"},
                      {"stamp", Stamp()},
                      {"encoding", "32FC1"},
                      {"width", 2},
                      {"height", 2},
                      {"step", 8},
                      {"offset", attachment.size()},
                      {"size", 16}});
  Append(&attachment,
         std::vector<float>{1.5f, 2.5f, std::numeric_limits<float>::infinity(), 40.0f});
  readings.push_back({{"name", "front"},
                      {"type", "camera"},
                      {"stamp", Stamp()},
                      {"encoding", "mono8"},
                      {"width", 2},
                      {"height", 2},
                      {"step", 2},
                      {"offset", attachment.size()},
                      {"size", 4}});
  Append(&attachment, std::vector<uint8_t>{0, 1, 2, 2});
  readings.push_back({{"name", "imu"},
                      {"type", "imu"},
                      {"stamp", Stamp()},
                      {"orientation", {{"x", 0.0}, {"y", 0.0}, {"z", 0.6}, {"w", 0.8}}},
                      {"angular_velocity", {{"x", 0.0}, {"y", 0.0}, {"z", 0.1}}},
                      {"linear_acceleration", {{"x", 1.0}, {"y", 0.0}, {"z", 9.81}}}});
  readings.push_back({{"name", "objects"},
                      {"type", "detection"},
                      {"stamp", Stamp()},
                      {"state_time", {{"sec", 2}, {"nanosec", 0}}},
                      {"detections",
                       {{{"name", "juniper"},
                         {"ssa_index", 1},
                         {"instance", 4},
                         {"position", {{"x", 20.0}, {"y", 21.0}, {"z", 0.0}}},
                         {"relative_position", {{"x", 8.0}, {"y", -1.0}, {"z", 0.0}}},
                         {"distance", 8.06}}}}});
  protocol::StepRequest request;
  request.tick = 50;
  request.time = 2.5;
  request.readings = readings;
  return Step(request, attachment);
}

TEST(ReadingsTest, DecodesEveryReadingExactly) {
  const Step step = MakeStep();
  const LidarPoints lidar = step.Lidar("roof");
  EXPECT_EQ(lidar.count, 3u);
  EXPECT_EQ(lidar.xyz,
            (std::vector<float>{1.0f, 2.0f, 3.0f, -4.5f, 0.25f, 7.0f, 100.0f, -0.0f, 1e-3f}));
  EXPECT_EQ(lidar.sensor_pose.position.x, 5.0);
  EXPECT_EQ(lidar.stamp, 2.5);

  const OccupancyGrid grid = step.Occupancy("grid");
  EXPECT_EQ(grid.width, 3u);
  EXPECT_EQ(grid.height, 2u);
  EXPECT_EQ(grid.resolution, 0.5);
  EXPECT_EQ(grid.origin.position.x, -1.0);
  EXPECT_EQ(grid.cells, (std::vector<uint8_t>{0, 100, 0, 100, 100, 0}));  // padding dropped

  const CameraImage rgb = step.Rgb("front");
  EXPECT_EQ(rgb.encoding, "rgb8");
  EXPECT_EQ(rgb.bytes, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  const CameraImage depth = step.Depth("front");
  ASSERT_EQ(depth.depth.size(), 4u);
  EXPECT_EQ(depth.depth[0], 1.5f);
  EXPECT_EQ(depth.depth[1], 2.5f);
  EXPECT_TRUE(std::isinf(depth.depth[2]));
  EXPECT_EQ(depth.depth[3], 40.0f);
  EXPECT_EQ(step.Segmentation("front").bytes, (std::vector<uint8_t>{0, 1, 2, 2}));

  const ImuSample imu = step.Imu("imu");
  EXPECT_EQ(imu.orientation.z, 0.6);
  EXPECT_EQ(imu.linear_acceleration.z, 9.81);
  const DetectionList objects = step.Detections("objects");
  ASSERT_EQ(objects.detections.size(), 1u);
  EXPECT_EQ(objects.detections[0].name, "juniper");
  EXPECT_EQ(objects.detections[0].instance, 4);
  EXPECT_EQ(objects.detections[0].relative_position.x, 8.0);
  EXPECT_EQ(objects.state_time, 2.0);
}

/// The ReadingError message of decoding `header` as a lidar against `attachment`.
std::string LidarError(const Json& header, const std::string& attachment) {
  try {
    DecodeLidar(header, attachment);
  } catch (const ReadingError& error) {
    return error.what();
  }
  return "no error";
}

Json LidarHeader(Json offset, Json size, Json count) {
  return {{"name", "roof"},       {"type", "lidar"}, {"stamp", Stamp()},
          {"encoding", "xyz32f"}, {"count", count},  {"sensor_pose", PoseAt(0.0)},
          {"offset", offset},     {"size", size}};
}

TEST(ReadingsTest, RejectsOffsetsAndSizesOutsideTheAttachment) {
  const std::string attachment(24, '\0');
  EXPECT_EQ(LidarError(LidarHeader(12, 24, 2), attachment),
            "reading 'roof' (lidar): offset 12 + size 24 reaches past the attachment of 24 bytes");
  EXPECT_EQ(LidarError(LidarHeader(25, 0, 0), attachment),
            "reading 'roof' (lidar): offset 25 + size 0 reaches past the attachment of 24 bytes");
  // A size that would wrap around when added to the offset.
  EXPECT_NE(LidarError(LidarHeader(8, std::numeric_limits<uint64_t>::max(), 1), attachment)
                .find("reaches past the attachment"),
            std::string::npos);
  EXPECT_EQ(LidarError(LidarHeader(-4, 12, 1), attachment),
            "reading 'roof' (lidar): \"offset\" is -4, not an integer >= 0");
  EXPECT_EQ(LidarError(LidarHeader(0, 24, 3), attachment),
            "reading 'roof' (lidar): size 24 bytes does not hold count 3 points of 12 bytes");
  Json no_size = LidarHeader(0, 24, 2);
  no_size.erase("size");
  EXPECT_EQ(LidarError(no_size, attachment), "reading 'roof' (lidar): has no \"size\"");
  EXPECT_EQ(LidarError(LidarHeader(0, 24, 2), attachment), "no error");
}

TEST(ReadingsTest, RejectsImagesWhoseSizeDoesNotMatch) {
  const std::string attachment(64, '\0');
  Json header = {{"name", "front"},    {"type", "camera"}, {"stamp", Stamp()},
                 {"encoding", "rgb8"}, {"width", 4},       {"height", 4},
                 {"step", 8},          {"offset", 0},      {"size", 32}};
  EXPECT_THROW(
      {
        try {
          DecodeCameraImage(header, attachment);
        } catch (const ReadingError& error) {
          EXPECT_STREQ(error.what(), "reading 'front' (camera): step 8 is below width * 3 = 12");
          throw;
        }
      },
      ReadingError);
  header["step"] = 12;
  EXPECT_THROW(DecodeCameraImage(header, attachment), ReadingError);  // 32 < 48 bytes
  header["size"] = 48;
  EXPECT_EQ(DecodeCameraImage(header, attachment).bytes.size(), 48u);
  header["encoding"] = "bgr16";
  EXPECT_THROW(DecodeCameraImage(header, attachment), ReadingError);
  header["encoding"] = "mono8";
  header["width"] = 0;
  EXPECT_THROW(DecodeCameraImage(header, attachment), ReadingError);
}

TEST(ReadingsTest, MissingReadingNamesTheSensor) {
  const Step step = MakeStep();
  EXPECT_FALSE(step.Has("rear"));
  try {
    step.Lidar("rear");
    ADD_FAILURE() << "no error for a missing reading";
  } catch (const ReadingError& error) {
    EXPECT_STREQ(error.what(), "step 50 has no reading named 'rear'");
  }
  EXPECT_THROW(step.Depth("roof"), ReadingError);  // roof has no 32FC1 image
}

TEST(ReadingsTest, YawMatchesTheQuaternion) {
  // A rotation of 30 degrees about z.
  const double half = 15.0 * M_PI / 180.0;
  EXPECT_NEAR(YawDegrees({0.0, 0.0, std::sin(half), std::cos(half)}), 30.0, 1e-12);
  EXPECT_NEAR(YawDegrees({0.0, 0.0, 1.0, 0.0}), 180.0, 1e-12);
}

}  // namespace
}  // namespace asg::nodes
