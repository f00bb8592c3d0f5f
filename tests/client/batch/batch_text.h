// Batch text planned as a test's batch file, and the start, goal and layout that the batch
// tests share.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "client/batch/batch.h"

namespace asg::client {

/// `text` planned as the batch file "test.json" named "test", without a catalog.
inline Batch Parse(const std::string& text) { return ParseBatchText(text, "test.json", "test"); }

/// The message of the BatchError that parsing `text` throws; fails the test if none is thrown.
inline std::string ErrorOf(const std::string& text) {
  try {
    Parse(text);
  } catch (const BatchError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no BatchError for " << text;
  return "";
}

/// Start, goal and timeouts that draw no warning or note.
inline constexpr const char* kPlainDefaults =
    R"({"vehicle_start_location": {"x": 10, "y": 10, "z": 0},
    "vehicle_goal_location": {"x": 50, "y": 50, "z": 0}, "vehicle_stuck_timeout_period": 5,
    "vehicle_idling_timeout_period": 5})";

/// Three trees, each field with one value per instance.
inline constexpr const char* kTreeLayout = R"({"path_name": "tree", "num_instances": 3,
    "visible": [true, true, true], "cast_shadow": [true, true, true], "x": [1, 2, 3],
    "y": [4, 5, 6], "yaw": [0, 0, 0], "scale": [1, 1, 1]})";

}  // namespace asg::client
