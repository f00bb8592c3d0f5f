// Files uploaded by vehicle nodes (SaveNodeFile) and how they coexist with the atomically
// written scenario folders.
//
// A node's files of scenario N belong in DIR/scenario_NNNN/nodes/<node_name>/<relative_path>.
// A scenario folder is published in one rename when its result arrives (results.h), and nodes
// upload after their run has ended, so an upload may come before or after that rename:
//   - while the scenario folder is not complete, an upload is staged in
//     DIR/.nodes/scenario_NNNN/<node_name>/<relative_path>;
//   - once it is complete, the upload is written into the published folder directly;
//   - PublishScenario wraps the writing of a scenario folder: node files already in an older
//     folder of that scenario (a rerun replaces the folder) are stashed in the staging folder
//     first, and everything staged is moved into the new folder's nodes/ afterwards, newer
//     files replacing older ones of the same path. Node files of a scenario are never deleted
//     by a rerun; a rerun's uploads overwrite files of the same path.
// --resume calls Recover first: staged files of complete scenarios are moved into them, staged
// files of scenarios that will run again are removed (the new run uploads its own).
// No symbolic link inside the batch folder is followed: an upload or a move through one is
// refused, and a link in place of DIR/.nodes or of a staged folder is removed itself, never
// what it points to.
// Every file is written as a temporary file of a fixed-length name (".upload.tmp-<pid>") in its
// final folder, fsynced and renamed into place, so a node file that exists is complete and a
// name of up to 255 bytes can be written; staged files are moved without the temporaries a
// killed upload left. Nodes on the client's host that write into
// save_dir directly are kept the same way, except for writes during the publishing rename.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace asg::client {

/// A refused or failed node file; the message is sent back in the Error reply, so it names
/// paths relative to the batch folder, never the client's absolute ones.
class NodeFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Why `relative_path` may not name a node file, or empty when it may: refused are empty
/// paths, absolute paths, a backslash, a NUL or another control character, an empty, "." or
/// ".." component, a component over 255 bytes, and paths over 1024 bytes.
std::string CheckNodeRelativePath(const std::string& relative_path);

/// DIR/scenario_NNNN/nodes/<node_name>.
std::filesystem::path NodeFolder(const std::filesystem::path& batch_dir, uint32_t scenario_number,
                                 const std::string& node_name, std::string_view variant = {});

/// DIR/.nodes/scenario_NNNN: the staging folder of a scenario's node files.
std::filesystem::path NodeStagingFolder(const std::filesystem::path& batch_dir,
                                        uint32_t scenario_number, std::string_view variant = {});

/// The node files of one batch folder. Thread-safe: uploads and publishing are serialized.
class NodeFileStore {
 public:
  /// Works in `batch_dir` (made absolute); `variants` are the batch's variant names, which name
  /// its scenario folders (VariantOfNumber).
  explicit NodeFileStore(std::filesystem::path batch_dir, std::vector<std::string> variants = {});

  /// Writes one uploaded file (see above) and returns its final path relative to the batch
  /// folder, e.g. "scenario_0003/nodes/mapper/maps/grid.csv". Throws NodeFileError, with
  /// nothing written, for an unsafe node name or path or a location outside the node's folder,
  /// and for an I/O error.
  std::string Write(uint32_t scenario_number, const std::string& node_name,
                    const std::string& relative_path, const std::string& bytes);

  /// Runs `write_folder` (which writes the scenario folder, e.g. results::WriteScenarioFolder) with
  /// the scenario's node files preserved and staged files moved in (see above).
  void PublishScenario(uint32_t scenario_number, const std::function<void()>& write_folder);

  /// Moves the staged files of complete scenario folders into them and removes the other
  /// staged files (a link among them is removed itself, see above); returns the number of scenarios
  /// whose staged files were moved in.
  size_t Recover();

 private:
  std::string_view VariantOf(uint32_t scenario_number) const;

  std::filesystem::path batch_dir_;
  std::vector<std::string> variants_;
  std::mutex mutex_;
};

}  // namespace asg::client
