// Tests for protocol/reading_headers.h: the headers round-trip, and bad ones are named the way a
// node reads them.
#include "protocol/reading_headers.h"

#include <gtest/gtest.h>

#include "protocol/messages_json.h"

namespace asg::protocol {
namespace {

template <class T>
std::string ErrorOf(const Json& header) {
  try {
    T decoded;
    Decode(header, "", &decoded);
  } catch (const DecodeError& error) {
    return error.what();
  }
  return "no error";
}

Json Lidar() {
  return Json::parse(R"({"name": "roof", "type": "lidar", "stamp": {"sec": 2, "nanosec": 5},
      "frame_id": "roof", "encoding": "xyz32f", "point_step": 12, "count": 2,
      "sensor_pose": {"position": {"x": 1.0, "y": 2.0, "z": 0.5},
                      "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}},
      "horizontal_resolution": 4, "vertical_angles": [-5.0, 5.0], "offset": 8, "size": 24})");
}

TEST(ReadingHeaders, ALidarHeaderRoundTripsInTheOrderTheWorkerWritesIt) {
  LidarReadingHeader header;
  Decode(Lidar(), "", &header);
  EXPECT_EQ(header.count, 2u);
  EXPECT_EQ(header.offset, 8u);
  EXPECT_EQ(header.sensor_pose.position.y, 2.0);
  EXPECT_EQ(header.vertical_angles, (std::vector<double>{-5.0, 5.0}));
  EXPECT_EQ(Json(header).dump(), Lidar().dump());
}

TEST(ReadingHeaders, ErrorsNameTheKeyAndTheValue) {
  Json header = Lidar();
  header["offset"] = -4;
  EXPECT_EQ(ErrorOf<LidarReadingHeader>(header), "\"offset\" is -4, not an integer >= 0");
  header = Lidar();
  header.erase("size");
  EXPECT_EQ(ErrorOf<LidarReadingHeader>(header), "has no \"size\"");
  header = Lidar();
  header["colour"] = true;
  EXPECT_EQ(ErrorOf<LidarReadingHeader>(header), "has the unknown key \"colour\"");
  header = Lidar();
  header["sensor_pose"]["position"]["x"] = "far";
  EXPECT_EQ(ErrorOf<LidarReadingHeader>(header),
            "sensor_pose.position.x: expected a number, got string \"far\"");
  EXPECT_EQ(ErrorOf<LidarReadingHeader>(Json::array()), "header is not a JSON object");
}

TEST(ReadingHeaders, GridDimensionsAndResolutionAreChecked) {
  const Json grid = Json::parse(R"({"stamp": {"sec": 0, "nanosec": 0}, "encoding": "mono8",
      "width": 0, "height": 2, "resolution": 0.5, "offset": 0, "size": 0,
      "origin": {"position": {"x": 0.0, "y": 0.0, "z": 0.0},
                 "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}}})");
  EXPECT_EQ(ErrorOf<OccupancyGridReadingHeader>(grid), "\"width\" is 0, not in 1..65536");
  Json flat = grid;
  flat["width"] = 2;
  flat["resolution"] = 0;
  EXPECT_EQ(ErrorOf<OccupancyGridReadingHeader>(flat), "\"resolution\" is 0, not > 0");
  flat["resolution"] = 0.5;
  OccupancyGridReadingHeader decoded;
  Decode(flat, "", &decoded);
  EXPECT_FALSE(decoded.step.has_value());
}

TEST(ReadingHeaders, DetectionsAreNamedByTheirPlace) {
  const Json detection = Json::parse(R"({"stamp": {"sec": 0, "nanosec": 0},
      "detections": [{"name": "tree", "ssa_index": 0, "instance": 1,
                      "position": {"x": 1.0, "y": 2.0, "z": 0.0},
                      "relative_position": {"x": 1.0, "y": 0.0, "z": 0.0}}]})");
  EXPECT_EQ(ErrorOf<DetectionReadingHeader>(detection), "has no \"detections[0].distance\"");
}

}  // namespace
}  // namespace asg::protocol
