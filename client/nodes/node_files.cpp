// Node file uploads: path checks, atomic writes, staging and publishing with scenario folders.
#include "client/nodes/node_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <system_error>
#include <vector>

#include "client/batch/batch.h"
#include "client/nodes/node_registry.h"
#include "results/files.h"
#include "results/folder.h"
#include "results/folder_links.h"
#include "results/record.h"

namespace asg::client {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxPathBytes = 1024;
constexpr size_t kMaxComponentBytes = 255;

/// Whether `path`, made canonical as far as it exists, lies strictly inside `folder`.
bool Inside(const fs::path& folder, const fs::path& path) {
  std::error_code error;
  const fs::path base = fs::weakly_canonical(folder, error);
  if (error) return false;
  const fs::path resolved = fs::weakly_canonical(path, error);
  if (error) return false;
  auto base_it = base.begin();
  auto it = resolved.begin();
  for (; base_it != base.end(); ++base_it, ++it) {
    if (it == resolved.end() || *it != *base_it) return false;
  }
  return it != resolved.end();
}

/// Throws NodeFileError when a component of `path` below `batch_dir` is a symbolic link: node
/// files are written, moved and removed only inside the batch folder. The error, which may go to
/// a peer, names the link relative to the batch folder and not its target.
void RequireNoLinkBelow(const fs::path& batch_dir, const fs::path& path) {
  if (const auto link = results::FirstLinkBelow(batch_dir, path)) {
    throw NodeFileError("refused: " + link->lexically_relative(batch_dir).string() +
                        " is a symbolic link, which is not followed");
  }
}

/// `message` with every mention of `batch_dir` made relative to it: error replies go to a peer,
/// which is not told the client's local paths.
std::string WithoutBatchDir(std::string message, const fs::path& batch_dir) {
  const std::string prefix = batch_dir.string() + "/";
  for (size_t at = message.find(prefix); at != std::string::npos; at = message.find(prefix, at)) {
    message.erase(at, prefix.size());
  }
  return message;
}

/// Writes `target` atomically through a temporary file of a fixed-length name in its folder,
/// ".upload.tmp-<pid>" (uploads are serialized), so that any name the checks allow, up to 255
/// bytes, can be written; a killed upload's temporary is named as results::IsTemporaryFileName
/// says. Throws results::ResultError naming the path and the system error.
void WriteThroughTemporary(const fs::path& target, const std::string& bytes) {
  const fs::path temporary = target.parent_path() / (".upload.tmp-" + std::to_string(::getpid()));
  try {
    results::WriteFileSynced(temporary, bytes);
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
      throw results::ResultError(target.string() +
                                 ": cannot rename into place: " + std::strerror(errno));
    }
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  results::SyncDirectory(target.parent_path());
}

/// Moves every file under `from` to the same relative place under `to`, replacing files there
/// when `overwrite`, else leaving `from`'s copy behind (and a temporary file of a killed upload);
/// then removes `from`. Both lie in
/// `batch_dir`; no symbolic link is followed: a linked `from` is left alone, a link below `to`
/// throws NodeFileError.
void MergeInto(const fs::path& batch_dir, const fs::path& from, const fs::path& to,
               bool overwrite) {
  if (!results::IsRealFolder(from) || results::FirstLinkBelow(batch_dir, from)) return;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    // A killed upload's temporary file is left behind, to go with `from`.
    if (entry.is_regular_file() && !entry.is_symlink() &&
        !results::IsTemporaryFileName(entry.path().filename().string())) {
      files.push_back(entry.path());
    }
  }
  for (const fs::path& file : files) {
    const fs::path target = to / file.lexically_relative(from);
    RequireNoLinkBelow(batch_dir, target);
    if (!overwrite && fs::exists(target)) continue;
    fs::create_directories(target.parent_path());
    fs::rename(file, target);
  }
  fs::remove_all(from);
}

}  // namespace

std::string CheckNodeRelativePath(const std::string& relative_path) {
  if (relative_path.empty()) return "the relative path is empty";
  if (relative_path.size() > kMaxPathBytes) {
    return "the relative path is longer than " + std::to_string(kMaxPathBytes) + " bytes";
  }
  if (relative_path.front() == '/') return "'" + relative_path + "' is absolute";
  for (const char c : relative_path) {
    if (c == '\\') return "'" + relative_path + "' contains a backslash";
    if (c == '\0') return "the relative path contains a NUL";
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return "the relative path contains a control character";
    }
  }
  std::string_view rest = relative_path;
  while (true) {
    const size_t slash = rest.find('/');
    const std::string_view component = rest.substr(0, slash);
    if (component.empty()) return "'" + relative_path + "' has an empty component";
    if (component == "." || component == "..") {
      return "'" + relative_path + "' has a '" + std::string(component) + "' component";
    }
    if (component.size() > kMaxComponentBytes) {
      return "'" + relative_path + "' has a component longer than " +
             std::to_string(kMaxComponentBytes) + " bytes";
    }
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return "";
}

fs::path NodeFolder(const fs::path& batch_dir, uint32_t scenario_number,
                    const std::string& node_name, std::string_view variant) {
  return results::ScenarioFolder(batch_dir, scenario_number, variant) / "nodes" / node_name;
}

fs::path NodeStagingFolder(const fs::path& batch_dir, uint32_t scenario_number,
                           std::string_view variant) {
  return batch_dir / ".nodes" / results::ScenarioFolderName(scenario_number, variant);
}

NodeFileStore::NodeFileStore(fs::path batch_dir, std::vector<std::string> variants)
    : batch_dir_(fs::absolute(batch_dir)), variants_(std::move(variants)) {}

std::string_view NodeFileStore::VariantOf(uint32_t scenario_number) const {
  return VariantOfNumber(scenario_number, variants_);
}

std::string NodeFileStore::Write(uint32_t scenario_number, const std::string& node_name,
                                 const std::string& relative_path, const std::string& bytes) {
  if (!IsSafeNodeName(node_name)) {
    throw NodeFileError("refused: the node name is not a safe folder name");
  }
  if (const std::string problem = CheckNodeRelativePath(relative_path); !problem.empty()) {
    throw NodeFileError("refused: " + problem);
  }
  std::lock_guard lock(mutex_);
  const std::string_view variant = VariantOf(scenario_number);
  const bool published = results::ScenarioFolderComplete(batch_dir_, scenario_number, variant);
  const fs::path folder = published
                              ? NodeFolder(batch_dir_, scenario_number, node_name, variant)
                              : NodeStagingFolder(batch_dir_, scenario_number, variant) / node_name;
  const fs::path target = folder / relative_path;
  RequireNoLinkBelow(batch_dir_, folder);
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) {
    throw NodeFileError("cannot create the node's folder " +
                        fs::relative(folder, batch_dir_).string() + ": " + error.message());
  }
  // The checks above leave no way out of the folder but a symbolic link on the way.
  if (!Inside(folder, target)) {
    throw NodeFileError("refused: '" + relative_path + "' resolves outside the node's folder");
  }
  fs::create_directories(target.parent_path(), error);
  if (error || !Inside(folder, target.parent_path() / "x")) {
    throw NodeFileError("cannot create the folder of '" + relative_path + "'");
  }
  if (fs::is_directory(target, error)) {
    throw NodeFileError("refused: '" + relative_path + "' is a folder");
  }
  try {
    WriteThroughTemporary(target, bytes);
  } catch (const results::ResultError& error) {
    throw NodeFileError(WithoutBatchDir(error.what(), batch_dir_));
  }
  return (fs::path(results::ScenarioFolderName(scenario_number, variant)) / "nodes" / node_name /
          relative_path)
      .generic_string();
}

void NodeFileStore::PublishScenario(uint32_t scenario_number,
                                    const std::function<void()>& write_folder) {
  std::lock_guard lock(mutex_);
  const std::string_view variant = VariantOf(scenario_number);
  const fs::path staging = NodeStagingFolder(batch_dir_, scenario_number, variant);
  const fs::path nodes = results::ScenarioFolder(batch_dir_, scenario_number, variant) / "nodes";
  // Files already staged are newer than those in an older folder of the scenario.
  MergeInto(batch_dir_, nodes, staging, /*overwrite=*/false);
  try {
    write_folder();
  } catch (...) {
    MergeInto(batch_dir_, staging, nodes, /*overwrite=*/true);
    throw;
  }
  MergeInto(batch_dir_, staging, nodes, /*overwrite=*/true);
}

size_t NodeFileStore::Recover() {
  std::lock_guard lock(mutex_);
  const fs::path root = batch_dir_ / ".nodes";
  std::error_code error;
  // A link in place of the staging folder is removed itself; nothing it points to is touched.
  if (!results::IsRealFolder(root)) {
    if (fs::is_symlink(fs::symlink_status(root, error))) fs::remove(root, error);
    return 0;
  }
  std::vector<fs::path> staged;
  for (const auto& entry : fs::directory_iterator(root)) staged.push_back(entry.path());
  size_t moved = 0;
  for (const fs::path& folder : staged) {
    // The folder name must be a scenario's own, variant included.
    const auto parsed = results::ParseScenarioFolderName(folder.filename().string());
    if (parsed && parsed->second == VariantOf(parsed->first) && results::IsRealFolder(folder) &&
        results::ScenarioFolderComplete(batch_dir_, parsed->first, parsed->second)) {
      MergeInto(batch_dir_, folder,
                results::ScenarioFolder(batch_dir_, parsed->first, parsed->second) / "nodes",
                /*overwrite=*/true);
      ++moved;
    }
    // What was not moved is removed: a link itself, never what it points to (remove_all).
    fs::remove_all(folder, error);
  }
  fs::remove_all(root, error);
  return moved;
}

}  // namespace asg::client
