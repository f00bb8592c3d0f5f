// Durable file writing for result folders and summaries: every write is followed by fsync, and
// files and folders appear under their final names only when complete (write elsewhere, then
// rename). All functions throw ResultError naming the path and the system error.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages_json.h"
#include "results/record.h"

namespace asg::results {

using json::Json;

/// Creates (or truncates) `path`, writes `bytes` and fsyncs the file. A symbolic link at `path`
/// is not followed: ResultError "<path>: cannot create: it is a symbolic link (not followed)".
void WriteFileSynced(const std::filesystem::path& path, std::string_view bytes);

/// Creates (or truncates) `path` (not through a symbolic link, as above) and writes `bytes`,
/// leaving durability to a later SyncFileSystem (group commit of many files).
void WriteFileUnsynced(const std::filesystem::path& path, std::string_view bytes);

/// Flushes every pending write of the file system holding `path` (syncfs): one journal commit
/// for a whole group of files instead of one fsync each.
void SyncFileSystem(const std::filesystem::path& path);

/// fsyncs a directory so that entries created or renamed in it are durable.
void SyncDirectory(const std::filesystem::path& directory);

/// Writes `path` atomically: into "<path>.tmp-<pid>" in the same folder, fsync, rename over
/// `path`, fsync the folder. Readers see either the old or the new content. On failure the
/// temporary file is removed and `path` is left as it was.
void WriteFileAtomically(const std::filesystem::path& path, std::string_view bytes);

/// Files replaced atomically as one group on one file system, without holding their content:
/// Add writes each "<path>.tmp-<pid>" at once (unsynced), Commit makes them durable with one
/// syncfs, renames each over its path and syncs once more. Readers see each file old or new,
/// never a short one. Temporary files not renamed (Commit not called, or it failed) are
/// removed on destruction. Not thread-safe.
class AtomicFileGroup {
 public:
  AtomicFileGroup() = default;
  ~AtomicFileGroup();
  AtomicFileGroup(const AtomicFileGroup&) = delete;
  AtomicFileGroup& operator=(const AtomicFileGroup&) = delete;

  /// Writes `bytes` into `path`'s temporary file; throws ResultError naming it.
  void Add(const std::filesystem::path& path, std::string_view bytes);
  /// As Add, unless `path` is already a regular file (not a symbolic link) holding exactly
  /// `bytes`: then it is left alone (no new file, no rename, no sync for it). Returns whether
  /// it was added.
  bool AddIfChanged(const std::filesystem::path& path, std::string_view bytes);
  /// Renames every file added into place (see above); throws ResultError naming the path.
  void Commit();

 private:
  std::vector<std::filesystem::path> paths_;  // added, in order
  size_t renamed_ = 0;                        // of paths_, those renamed into place
};

/// A file's path and its new content, for WriteFilesAtomically.
struct FileContent {
  std::filesystem::path path;
  std::string bytes;
};

/// Writes each of `files` atomically as WriteFileAtomically does, as one group on one file
/// system: every "<path>.tmp-<pid>" written, one syncfs, every rename, one more syncfs. Readers
/// see each file old or new; many small files cost two syncs instead of two each.
void WriteFilesAtomically(const std::vector<FileContent>& files);

/// Whether `name` is the name of a temporary file of an atomic write: "<name>.tmp-<digits>".
bool IsTemporaryFileName(std::string_view name);

/// Removes the temporary files of atomic writes an interrupted process left directly in
/// `folder` (regular files named as IsTemporaryFileName says; nothing else, no symlink
/// followed); returns how many. A missing folder has none. Throws ResultError naming a file
/// that cannot be removed.
size_t RemoveTemporaryFiles(const std::filesystem::path& folder);

/// Moves the complete folder `staged` to `target` (same parent folder) by rename. An existing
/// `target` is first renamed aside and removed after the move, so `target` is never a partial
/// folder. The parent is fsynced unless `sync_parent` is false (the caller then syncs it once
/// for a group of folders).
void PublishDirectory(const std::filesystem::path& staged, const std::filesystem::path& target,
                      bool sync_parent = true);

/// The file form of a JSON document: two-space indent, keys in the order the value holds them
/// (declaration order for messages and records), trailing newline.
std::string JsonFileText(const Json& json);

/// The whole content of `file`; throws ResultError "<file>: cannot read: <reason>".
std::string ReadTextFile(const std::filesystem::path& file);

/// Reads and parses a JSON file strictly (json::ParseJson: a key repeated in one object is an
/// error); throws ResultError "<path>: ..." when it cannot.
Json ReadJsonFile(const std::filesystem::path& path);

/// The fields of one line of a result folder's CSV file (trajectory.csv, search.csv): the line
/// split at every comma (none of them quotes a field).
std::vector<std::string_view> CsvFields(std::string_view line);

/// Parses `text`, the content of the JSON file `path`, as ReadJsonFile does (for a reader that
/// keeps the bytes too); throws ResultError "<path>: ..." when it cannot.
Json ParseJsonText(std::string_view text, const std::filesystem::path& path);

}  // namespace asg::results
