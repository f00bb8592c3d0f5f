// Where the files an executable needs lie relative to it, the same in the build tree (copied
// there at configure time) and under an install prefix (`cmake --install`):
//   <prefix>/bin/asg-client, asg-worker, ...
//   <prefix>/share/asg-farm/actors.json  the actor catalog
#pragma once

#include <filesystem>

namespace asg::core {

/// The actor catalog next to `executable`: <its folder>/../share/asg-farm/actors.json.
inline std::filesystem::path CatalogNextTo(const std::filesystem::path& executable) {
  return (executable.parent_path() / ".." / "share" / "asg-farm" / "actors.json")
      .lexically_normal();
}

/// CatalogNextTo as --help shows it.
inline constexpr const char* kCatalogNextToText =
    "<executable's folder>/../share/asg-farm/actors.json";

}  // namespace asg::core
