// Symbolic links inside a batch folder. The farm writes, renames and removes only inside its
// output folder DIR, so it follows no link there: DIR itself may be a link (the folder the user
// named), but a link anywhere inside it is refused before a run, a resume or a rewrite starts
// (FindLinkInside), and the writers open files without following a final link (results/files.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace asg::results {

/// The first symbolic link at any depth inside `dir`, found without following links (`dir`
/// itself is followed when it is one); nullopt when there is none or `dir` does not exist.
/// Throws ResultError "<folder>: cannot list the folder: <reason>".
std::optional<std::filesystem::path> FindLinkInside(const std::filesystem::path& dir);

/// The first existing component of `path` below `root` (`path` lies lexically under `root`, as
/// root / "a/b/c") that is a symbolic link, checked from `root` down without following any;
/// nullopt when none is, up to the first component that does not exist. `root` itself is not
/// checked.
std::optional<std::filesystem::path> FirstLinkBelow(const std::filesystem::path& root,
                                                    const std::filesystem::path& path);

/// "<link> is a symbolic link (to <target>)": the words naming a link found inside a folder.
std::string DescribeLink(const std::filesystem::path& link);

/// Whether `path` is a folder itself, not a symbolic link to one.
bool IsRealFolder(const std::filesystem::path& path);

/// Whether `path` is a regular file itself, not a symbolic link to one.
bool IsRealFile(const std::filesystem::path& path);

}  // namespace asg::results
