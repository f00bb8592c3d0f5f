// Reading decoders: header checks first, then byte copies within the checked slice.
#include "nodes/readings.h"

#include <bit>
#include <cstring>
#include <limits>

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

const json::Json& Key(const json::Json& header, const char* key) {
  if (!header.is_object()) Fail(header, "header is not a JSON object");
  const auto it = header.find(key);
  if (it == header.end()) Fail(header, std::string("has no \"") + key + "\"");
  return *it;
}

uint64_t Unsigned(const json::Json& header, const char* key) {
  const json::Json& value = Key(header, key);
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer() && value.get<int64_t>() >= 0) return value.get<uint64_t>();
  Fail(header, std::string("\"") + key + "\" is " + value.dump() + ", not an integer >= 0");
}

uint32_t Dimension(const json::Json& header, const char* key) {
  const uint64_t value = Unsigned(header, key);
  if (value == 0 || value > (uint64_t{1} << 16)) {
    Fail(header, std::string("\"") + key + "\" is " + std::to_string(value) + ", not in 1..65536");
  }
  return static_cast<uint32_t>(value);
}

double Number(const json::Json& header, const char* key) {
  const json::Json& value = Key(header, key);
  if (!value.is_number()) Fail(header, std::string("\"") + key + "\" is not a number");
  return value.get<double>();
}

std::string String(const json::Json& header, const char* key) {
  const json::Json& value = Key(header, key);
  if (!value.is_string()) Fail(header, std::string("\"") + key + "\" is not a string");
  return value.get<std::string>();
}

template <class T>
T Field(const json::Json& header, const json::Json& value, const std::string& path) {
  try {
    T result;
    protocol::Decode(value, path, &result);
    return result;
  } catch (const std::exception& error) {
    Fail(header, error.what());
  }
}

template <class T>
T Field(const json::Json& header, const char* key) {
  return Field<T>(header, Key(header, key), key);
}

double Stamp(const json::Json& header) { return Field<protocol::Time>(header, "stamp").Seconds(); }

void RequireEncoding(const json::Json& header, const std::string& expected) {
  const std::string encoding = String(header, "encoding");
  if (encoding != expected) {
    Fail(header, "encoding is \"" + encoding + "\", expected \"" + expected + "\"");
  }
}

}  // namespace

std::string_view ReadingData(const json::Json& header, std::string_view attachment) {
  const uint64_t offset = Unsigned(header, "offset");
  const uint64_t size = Unsigned(header, "size");
  // offset + size may overflow; compare against what remains instead.
  if (offset > attachment.size() || size > attachment.size() - offset) {
    Fail(header, "offset " + std::to_string(offset) + " + size " + std::to_string(size) +
                     " reaches past the attachment of " + std::to_string(attachment.size()) +
                     " bytes");
  }
  return attachment.substr(offset, size);
}

LidarPoints DecodeLidar(const json::Json& header, std::string_view attachment) {
  RequireEncoding(header, "xyz32f");
  const uint64_t count = Unsigned(header, "count");
  if (header.contains("point_step") && Unsigned(header, "point_step") != 12) {
    Fail(header, "point_step is " + header["point_step"].dump() + ", expected 12");
  }
  const std::string_view data = ReadingData(header, attachment);
  if (count > data.size() / 12 || data.size() != count * 12) {
    Fail(header, "size " + std::to_string(data.size()) + " bytes does not hold count " +
                     std::to_string(count) + " points of 12 bytes");
  }
  LidarPoints points;
  points.count = count;
  points.xyz.resize(count * 3);
  if (count > 0) std::memcpy(points.xyz.data(), data.data(), data.size());
  points.sensor_pose = Field<protocol::Pose>(header, "sensor_pose");
  points.stamp = Stamp(header);
  return points;
}

OccupancyGrid DecodeOccupancyGrid(const json::Json& header, std::string_view attachment) {
  RequireEncoding(header, "mono8");
  OccupancyGrid grid;
  grid.width = Dimension(header, "width");
  grid.height = Dimension(header, "height");
  const uint64_t step = header.contains("step") ? Unsigned(header, "step") : grid.width;
  if (step < grid.width) {
    Fail(header, "step " + std::to_string(step) + " is below width " + std::to_string(grid.width));
  }
  grid.resolution = Number(header, "resolution");
  if (!(grid.resolution > 0.0)) Fail(header, "resolution is not > 0");
  grid.origin = Field<protocol::Pose>(header, "origin");
  const std::string_view data = ReadingData(header, attachment);
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
  grid.stamp = Stamp(header);
  return grid;
}

CameraImage DecodeCameraImage(const json::Json& header, std::string_view attachment) {
  CameraImage image;
  image.encoding = String(header, "encoding");
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
  image.width = Dimension(header, "width");
  image.height = Dimension(header, "height");
  const size_t row_bytes = image.width * pixel_bytes;
  const uint64_t step = header.contains("step") ? Unsigned(header, "step") : row_bytes;
  if (step < row_bytes) {
    Fail(header, "step " + std::to_string(step) + " is below width * " +
                     std::to_string(pixel_bytes) + " = " + std::to_string(row_bytes));
  }
  const std::string_view data = ReadingData(header, attachment);
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
  image.stamp = Stamp(header);
  return image;
}

ImuSample DecodeImu(const json::Json& header) {
  ImuSample sample;
  sample.orientation = Field<protocol::Quaternion>(header, "orientation");
  sample.angular_velocity = Field<protocol::Vector3>(header, "angular_velocity");
  sample.linear_acceleration = Field<protocol::Vector3>(header, "linear_acceleration");
  sample.stamp = Stamp(header);
  return sample;
}

DetectionList DecodeDetections(const json::Json& header) {
  DetectionList list;
  const json::Json& detections = Key(header, "detections");
  if (!detections.is_array()) Fail(header, "\"detections\" is not an array");
  for (size_t i = 0; i < detections.size(); ++i) {
    const json::Json& item = detections[i];
    const std::string path = "detections[" + std::to_string(i) + "]";
    if (!item.is_object()) Fail(header, path + " is not an object");
    Detection detection;
    detection.name = String(item, "name");
    detection.ssa_index = static_cast<int64_t>(Unsigned(item, "ssa_index"));
    detection.instance = static_cast<int64_t>(Unsigned(item, "instance"));
    detection.position = Field<protocol::Point>(header, Key(item, "position"), path + ".position");
    detection.relative_position =
        Field<protocol::Point>(header, Key(item, "relative_position"), path + ".relative_position");
    detection.distance = Number(item, "distance");
    list.detections.push_back(std::move(detection));
  }
  list.state_time = header.contains("state_time")
                        ? Field<protocol::Time>(header, "state_time").Seconds()
                        : Stamp(header);
  list.stamp = Stamp(header);
  return list;
}

}  // namespace asg::nodes
