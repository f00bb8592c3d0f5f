// Reading decoders: the header decoded as its struct (protocol/reading_headers.h), then byte
// copies within the checked slice.
#include "nodes/readings.h"

#include <bit>
#include <cstring>

#include "protocol/reading_headers.h"

namespace asg::nodes {

static_assert(std::endian::native == std::endian::little,
              "readings are little-endian; this decoder copies them as they are");

namespace {

/// "reading 'front' (camera)" for error messages.
std::string Describe(const json::Json& header) {
  std::string name = "?";
  std::string type = "?";
  if (header.is_object()) {
    if (header.contains("name") && header["name"].is_string()) name = header["name"];
    if (header.contains("type") && header["type"].is_string()) type = header["type"];
  }
  return "reading '" + name + "' (" + type + ")";
}

[[noreturn]] void Fail(const json::Json& header, const std::string& what) {
  throw ReadingError(Describe(header) + ": " + what);
}

/// `keys` (by default the whole header) decoded as a T (protocol/reading_headers.h); throws
/// ReadingError naming the reading.
template <class T>
T DecodeHeader(const json::Json& header, const json::Json* keys = nullptr) {
  T decoded;
  try {
    protocol::Decode(keys != nullptr ? *keys : header, "", &decoded);
  } catch (const json::DecodeError& error) {
    Fail(header, error.what());
  }
  return decoded;
}

void RequireEncoding(const json::Json& header, const std::string& encoding,
                     const std::string& expected) {
  if (encoding != expected) {
    Fail(header, "encoding is \"" + encoding + "\", expected \"" + expected + "\"");
  }
}

}  // namespace

std::string_view ReadingData(const json::Json& header, std::string_view attachment) {
  // Any header's slice: its offset and size, whatever else it holds.
  if (!header.is_object()) Fail(header, "header is not a JSON object");
  json::Json keys = json::Json::object();
  for (const char* key : {"offset", "size"}) {
    if (header.contains(key)) keys[key] = header[key];
  }
  const auto [offset, size] = DecodeHeader<protocol::ReadingSlice>(header, &keys);
  // offset + size may overflow; compare against what remains instead.
  if (offset > attachment.size() || size > attachment.size() - offset) {
    Fail(header, "offset " + std::to_string(offset) + " + size " + std::to_string(size) +
                     " reaches past the attachment of " + std::to_string(attachment.size()) +
                     " bytes");
  }
  return attachment.substr(offset, size);
}

LidarPoints DecodeLidar(const json::Json& header, std::string_view attachment) {
  const std::string_view data = ReadingData(header, attachment);  // the slice is checked first
  const auto decoded = DecodeHeader<protocol::LidarReadingHeader>(header);
  RequireEncoding(header, decoded.encoding, "xyz32f");
  if (decoded.point_step != 12) {
    Fail(header, "point_step is " + std::to_string(decoded.point_step) + ", expected 12");
  }
  const uint64_t count = decoded.count;
  if (count > data.size() / 12 || data.size() != count * 12) {
    Fail(header, "size " + std::to_string(data.size()) + " bytes does not hold count " +
                     std::to_string(count) + " points of 12 bytes");
  }
  LidarPoints points;
  points.count = count;
  points.xyz.resize(count * 3);
  if (count > 0) std::memcpy(points.xyz.data(), data.data(), data.size());
  points.sensor_pose = decoded.sensor_pose;
  points.stamp = decoded.stamp.Seconds();
  return points;
}

OccupancyGrid DecodeOccupancyGrid(const json::Json& header, std::string_view attachment) {
  const std::string_view data = ReadingData(header, attachment);  // the slice is checked first
  const auto decoded = DecodeHeader<protocol::OccupancyGridReadingHeader>(header);
  RequireEncoding(header, decoded.encoding, "mono8");
  OccupancyGrid grid;
  grid.width = decoded.width;
  grid.height = decoded.height;
  const uint64_t step = decoded.step.value_or(grid.width);
  if (step < grid.width) {
    Fail(header, "step " + std::to_string(step) + " is below width " + std::to_string(grid.width));
  }
  grid.resolution = decoded.resolution;
  grid.origin = decoded.origin;
  const uint64_t needed = step * (grid.height - 1) + grid.width;
  if (data.size() < needed || data.size() > step * grid.height) {
    Fail(header, "size " + std::to_string(data.size()) + " bytes does not fit " +
                     std::to_string(grid.width) + " x " + std::to_string(grid.height) +
                     " cells with step " + std::to_string(step));
  }
  grid.cells.resize(size_t{grid.width} * grid.height);
  for (uint32_t row = 0; row < grid.height; ++row) {
    std::memcpy(grid.cells.data() + size_t{row} * grid.width, data.data() + row * step, grid.width);
  }
  grid.stamp = decoded.stamp.Seconds();
  return grid;
}

CameraImage DecodeCameraImage(const json::Json& header, std::string_view attachment) {
  const std::string_view data = ReadingData(header, attachment);  // the slice is checked first
  const auto decoded = DecodeHeader<protocol::CameraReadingHeader>(header);
  CameraImage image;
  image.encoding = decoded.encoding;
  size_t pixel_bytes = 0;
  if (image.encoding == "rgb8") {
    pixel_bytes = 3;
  } else if (image.encoding == "32FC1") {
    pixel_bytes = 4;
  } else if (image.encoding == "mono8") {
    pixel_bytes = 1;
  } else {
    Fail(header, "encoding \"" + image.encoding + "\" is not rgb8, 32FC1 or mono8");
  }
  image.width = decoded.width;
  image.height = decoded.height;
  const size_t row_bytes = image.width * pixel_bytes;
  const uint64_t step = decoded.step.value_or(row_bytes);
  if (step < row_bytes) {
    Fail(header, "step " + std::to_string(step) + " is below width * " +
                     std::to_string(pixel_bytes) + " = " + std::to_string(row_bytes));
  }
  const uint64_t needed = step * (image.height - 1) + row_bytes;
  if (data.size() < needed || data.size() > step * image.height) {
    Fail(header, "size " + std::to_string(data.size()) + " bytes does not fit " +
                     std::to_string(image.width) + " x " + std::to_string(image.height) + " " +
                     image.encoding + " pixels with step " + std::to_string(step));
  }
  const size_t pixels = size_t{image.width} * image.height;
  uint8_t* target = nullptr;
  if (pixel_bytes == 4) {
    image.depth.resize(pixels);
    target = reinterpret_cast<uint8_t*>(image.depth.data());
  } else {
    image.bytes.resize(pixels * pixel_bytes);
    target = image.bytes.data();
  }
  for (uint32_t row = 0; row < image.height; ++row) {
    std::memcpy(target + row * row_bytes, data.data() + row * step, row_bytes);
  }
  image.stamp = decoded.stamp.Seconds();
  return image;
}

ImuSample DecodeImu(const json::Json& header) {
  const auto decoded = DecodeHeader<protocol::ImuReadingHeader>(header);
  ImuSample sample;
  sample.orientation = decoded.orientation;
  sample.angular_velocity = decoded.angular_velocity;
  sample.linear_acceleration = decoded.linear_acceleration;
  sample.stamp = decoded.stamp.Seconds();
  return sample;
}

DetectionList DecodeDetections(const json::Json& header) {
  const auto decoded = DecodeHeader<protocol::DetectionReadingHeader>(header);
  DetectionList list;
  for (const protocol::DetectedActor& actor : decoded.detections) {
    list.detections.push_back({actor.name, static_cast<int64_t>(actor.ssa_index),
                               static_cast<int64_t>(actor.instance), actor.position,
                               actor.relative_position, actor.distance});
  }
  list.state_time = decoded.state_time.value_or(decoded.stamp).Seconds();
  list.stamp = decoded.stamp.Seconds();
  return list;
}

}  // namespace asg::nodes
