// The actor catalog of this source tree, for tests and benchmarks (executables find theirs next
// to themselves: core/install_layout.h). Needs ASG_SOURCE_DIR, which asg_add_test and
// asg_add_benchmark define.
#pragma once

#include <string>

namespace asg::testing {

/// [path] configs/actors.json of the source tree this was built from.
inline std::string SourceCatalogPath() {
  return std::string(ASG_SOURCE_DIR) + "/configs/actors.json";
}

}  // namespace asg::testing
