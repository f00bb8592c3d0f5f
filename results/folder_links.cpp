// Finding symbolic links inside a batch folder without following them.
#include "results/folder_links.h"

#include <string>
#include <system_error>

#include "results/record.h"

namespace asg::results {

namespace fs = std::filesystem;

std::optional<fs::path> FindLinkInside(const fs::path& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) return std::nullopt;
  // The iterator follows `dir` itself but no link below it (directory_options::none).
  fs::recursive_directory_iterator it(dir, error);
  for (const fs::recursive_directory_iterator end; !error && it != end; it.increment(error)) {
    if (it->is_symlink(error)) return it->path();
  }
  if (error) {
    throw ResultError(dir.string() + ": cannot list the folder: " + error.message());
  }
  return std::nullopt;
}

std::optional<fs::path> FirstLinkBelow(const fs::path& root, const fs::path& path) {
  fs::path walked = root;
  for (const fs::path& component : path.lexically_relative(root)) {
    walked /= component;
    std::error_code error;
    const fs::file_type type = fs::symlink_status(walked, error).type();
    if (type == fs::file_type::symlink) return walked;
    if (type == fs::file_type::not_found || error) return std::nullopt;
  }
  return std::nullopt;
}

std::string DescribeLink(const fs::path& link) {
  std::error_code error;
  const fs::path target = fs::read_symlink(link, error);
  return link.string() + " is a symbolic link" +
         (error ? std::string() : " (to " + target.string() + ")");
}

bool IsRealFolder(const fs::path& path) {
  std::error_code error;
  return fs::symlink_status(path, error).type() == fs::file_type::directory;
}

bool IsRealFile(const fs::path& path) {
  std::error_code error;
  return fs::symlink_status(path, error).type() == fs::file_type::regular;
}

}  // namespace asg::results
