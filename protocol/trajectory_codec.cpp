// Packing and unpacking of trajectory samples (see trajectory_codec.h).
#include "protocol/trajectory_codec.h"

#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "protocol/messages_json.h"

namespace asg::protocol {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the packed trajectory layout is little-endian; add byte swapping for this host");

template <class T>
void Put(char*& out, T value) {
  std::memcpy(out, &value, sizeof(T));
  out += sizeof(T);
}

template <class T>
T Take(const char*& in) {
  T value;
  std::memcpy(&value, in, sizeof(T));
  in += sizeof(T);
  return value;
}

}  // namespace

void PackTrajectory(AnalyzeScenarioRequest* analysis, std::string* attachment) {
  auto& samples = analysis->vehicle_trajectory;
  TrajectoryAttachment block;
  block.offset = attachment->size();
  block.count = static_cast<uint32_t>(samples.size());
  if (!samples.empty()) {
    block.frame_id = samples.front().header.frame_id;
    block.child_frame_id = samples.front().child_frame_id;
  }
  attachment->resize(block.offset + samples.size() * kPackedOdometryBytes);
  char* out = attachment->data() + block.offset;
  for (const OdometryWithoutCovariance& sample : samples) {
    if (sample.header.frame_id != block.frame_id || sample.child_frame_id != block.child_frame_id) {
      throw std::invalid_argument("trajectory samples name different frames (\"" +
                                  sample.header.frame_id + "\", \"" + sample.child_frame_id +
                                  "\"); they cannot be packed");
    }
    Put(out, sample.header.stamp.sec);
    Put(out, sample.header.stamp.nanosec);
    const Pose& pose = sample.pose;
    const Twist& twist = sample.twist;
    for (double value :
         {pose.position.x, pose.position.y, pose.position.z, pose.orientation.x, pose.orientation.y,
          pose.orientation.z, pose.orientation.w, twist.linear.x, twist.linear.y, twist.linear.z,
          twist.angular.x, twist.angular.y, twist.angular.z}) {
      Put(out, value);
    }
  }
  samples.clear();
  analysis->trajectory_attachment = block;
}

void UnpackTrajectory(AnalyzeScenarioRequest* analysis, const std::string& attachment) {
  const TrajectoryAttachment block = analysis->trajectory_attachment;
  if (block.count == 0) return;
  if (!analysis->vehicle_trajectory.empty()) {
    throw DecodeError("trajectory_attachment",
                      "the frame carries samples both in vehicle_trajectory and the attachment");
  }
  const uint64_t size = uint64_t{block.count} * kPackedOdometryBytes;
  if (block.offset > attachment.size() || size > attachment.size() - block.offset) {
    throw DecodeError("trajectory_attachment", std::to_string(block.count) + " samples at offset " +
                                                   std::to_string(block.offset) +
                                                   " reach past the attachment of " +
                                                   std::to_string(attachment.size()) + " bytes");
  }
  auto& samples = analysis->vehicle_trajectory;
  samples.resize(block.count);
  const char* in = attachment.data() + block.offset;
  for (OdometryWithoutCovariance& sample : samples) {
    sample.header.frame_id = block.frame_id;
    sample.child_frame_id = block.child_frame_id;
    sample.header.stamp.sec = Take<int32_t>(in);
    sample.header.stamp.nanosec = Take<uint32_t>(in);
    std::array<double*, 13> fields{
        &sample.pose.position.x,    &sample.pose.position.y,    &sample.pose.position.z,
        &sample.pose.orientation.x, &sample.pose.orientation.y, &sample.pose.orientation.z,
        &sample.pose.orientation.w, &sample.twist.linear.x,     &sample.twist.linear.y,
        &sample.twist.linear.z,     &sample.twist.angular.x,    &sample.twist.angular.y,
        &sample.twist.angular.z};
    for (double* field : fields) *field = Take<double>(in);
  }
  analysis->trajectory_attachment = TrajectoryAttachment{};
}

}  // namespace asg::protocol
