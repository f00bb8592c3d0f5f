// A compact binary form of AnalyzeScenario's trajectory for the frame attachment. A run's
// trajectory is hundreds of OdometryWithoutCovariance samples; as JSON that is about 300 bytes
// and a full parse per sample, in binary 112 bytes copied.
//
// Layout of one sample, little-endian: int32 stamp.sec, uint32 stamp.nanosec, then 13 float64:
// position x y z, orientation x y z w, linear x y z, angular x y z. Frame ids are stored once in
// TrajectoryAttachment (every sample of a run shares them).
#pragma once

#include <cstddef>
#include <string>

#include "protocol/messages.h"

namespace asg::protocol {

/// [bytes] one packed sample.
inline constexpr size_t kPackedOdometryBytes = 112;

/// Appends analysis->vehicle_trajectory to *attachment in the packed layout, records where in
/// analysis->trajectory_attachment and empties vehicle_trajectory. Throws std::invalid_argument
/// when the samples do not share one frame_id and child_frame_id.
void PackTrajectory(AnalyzeScenarioRequest* analysis, std::string* attachment);

/// Restores analysis->vehicle_trajectory from the attachment when trajectory_attachment.count is
/// not 0, and clears trajectory_attachment. Throws DecodeError naming "trajectory_attachment"
/// when the block lies outside the attachment or the JSON also lists samples.
void UnpackTrajectory(AnalyzeScenarioRequest* analysis, const std::string& attachment);

}  // namespace asg::protocol
