// POSIX file writing with fsync and rename.
#include "results/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "results/record.h"

namespace asg::results {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void FailErrno(const fs::path& path, const std::string& action) {
  throw ResultError(path.string() + ": cannot " + action + ": " + std::strerror(errno));
}

// Closes a file descriptor when it goes out of scope.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now and reports the error of close(2), which may carry a delayed write error.
  int Close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

std::string PidSuffix() { return ".tmp-" + std::to_string(::getpid()); }

// Whether `path` is a regular file, reached without following a symbolic link, whose content is
// exactly `bytes`. Any failure to tell (missing, unreadable, a link) answers false.
bool HoldsExactly(const fs::path& path, std::string_view bytes) {
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  struct stat status {};
  if (file.get() < 0 || ::fstat(file.get(), &status) != 0 || !S_ISREG(status.st_mode) ||
      static_cast<size_t>(status.st_size) != bytes.size()) {
    return false;
  }
  std::string content(bytes.size() + 1, '\0');  // one byte more: a file that grew meanwhile
  size_t read = 0;
  while (read < content.size()) {
    const ssize_t n = ::read(file.get(), content.data() + read, content.size() - read);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    read += static_cast<size_t>(n);
  }
  return read == bytes.size() && std::string_view(content.data(), read) == bytes;
}

}  // namespace

namespace {

// Opens `path` for writing (created or truncated) into `file` and writes all of `bytes`.
void WriteAll(const fs::path& path, std::string_view bytes, FileDescriptor* file) {
  if (file->get() < 0 && errno == ELOOP) {
    throw ResultError(path.string() + ": cannot create: it is a symbolic link (not followed)");
  }
  if (file->get() < 0) FailErrno(path, "create");
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(file->get(), bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      FailErrno(path, "write");
    }
    written += static_cast<size_t>(n);
  }
}

// A link in place of the file is not followed (ELOOP): the write stays where `path` says.
int OpenForWriting(const fs::path& path) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
}

}  // namespace

void WriteFileSynced(const fs::path& path, std::string_view bytes) {
  FileDescriptor file(OpenForWriting(path));
  WriteAll(path, bytes, &file);
  if (::fsync(file.get()) != 0) FailErrno(path, "fsync");
  if (file.Close() != 0) FailErrno(path, "close");
}

void WriteFileUnsynced(const fs::path& path, std::string_view bytes) {
  FileDescriptor file(OpenForWriting(path));
  WriteAll(path, bytes, &file);
  if (file.Close() != 0) FailErrno(path, "close");
}

void SyncFileSystem(const fs::path& path) {
  FileDescriptor handle(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (handle.get() < 0) FailErrno(path, "open");
  if (::syncfs(handle.get()) != 0) FailErrno(path, "syncfs");
}

void SyncDirectory(const fs::path& directory) {
  FileDescriptor dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) FailErrno(directory, "open");
  if (::fsync(dir.get()) != 0) FailErrno(directory, "fsync");
}

void WriteFileAtomically(const fs::path& path, std::string_view bytes) {
  const fs::path temporary = path.string() + PidSuffix();
  try {
    WriteFileSynced(temporary, bytes);
    if (::rename(temporary.c_str(), path.c_str()) != 0) FailErrno(path, "rename into place");
  } catch (const ResultError&) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  SyncDirectory(parent);
}

AtomicFileGroup::~AtomicFileGroup() {
  std::error_code ignored;
  for (size_t i = renamed_; i < paths_.size(); ++i) {
    fs::remove(paths_[i].string() + PidSuffix(), ignored);
  }
}

void AtomicFileGroup::Add(const fs::path& path, std::string_view bytes) {
  // Listed first, so that a temporary file written in part is removed too.
  paths_.push_back(path);
  WriteFileUnsynced(path.string() + PidSuffix(), bytes);
}

bool AtomicFileGroup::AddIfChanged(const fs::path& path, std::string_view bytes) {
  if (HoldsExactly(path, bytes)) return false;
  Add(path, bytes);
  return true;
}

void AtomicFileGroup::Commit() {
  if (paths_.size() == renamed_) return;
  const fs::path& first = paths_.front();
  const fs::path folder = first.has_parent_path() ? first.parent_path() : fs::path(".");
  SyncFileSystem(folder);
  for (; renamed_ < paths_.size(); ++renamed_) {
    const fs::path& path = paths_[renamed_];
    const fs::path temporary = path.string() + PidSuffix();
    if (::rename(temporary.c_str(), path.c_str()) != 0) FailErrno(path, "rename into place");
  }
  SyncFileSystem(folder);
}

void WriteFilesAtomically(const std::vector<FileContent>& files) {
  AtomicFileGroup group;
  for (const FileContent& file : files) group.Add(file.path, file.bytes);
  group.Commit();
}

bool IsTemporaryFileName(std::string_view name) {
  const size_t mark = name.rfind(".tmp-");
  if (mark == std::string_view::npos || mark == 0) return false;
  const std::string_view digits = name.substr(mark + 5);
  return !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
}

size_t RemoveTemporaryFiles(const fs::path& folder) {
  std::error_code error;
  size_t removed = 0;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    std::error_code ignored;
    if (!it->is_regular_file(ignored) || it->is_symlink(ignored) ||
        !IsTemporaryFileName(it->path().filename().string())) {
      continue;
    }
    std::error_code failed;
    fs::remove(it->path(), failed);
    if (failed) throw ResultError(it->path().string() + ": cannot remove: " + failed.message());
    ++removed;
  }
  return removed;
}

void PublishDirectory(const fs::path& staged, const fs::path& target, bool sync_parent) {
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code error;
  std::string old_name = ".";  // built by appending: GCC 12 misreports "." + string&&
  old_name += target.filename().string();
  old_name += ".old" + PidSuffix();
  const fs::path old = parent / old_name;
  const bool replacing = fs::exists(target, error);
  if (replacing) {
    fs::remove_all(old, error);
    if (::rename(target.c_str(), old.c_str()) != 0) FailErrno(target, "move aside");
  }
  if (::rename(staged.c_str(), target.c_str()) != 0) FailErrno(target, "rename into place");
  if (sync_parent) SyncDirectory(parent);
  if (replacing) {
    fs::remove_all(old, error);
    if (error) throw ResultError(old.string() + ": cannot remove: " + error.message());
  }
}

std::string JsonFileText(const Json& json) {
  // Invalid UTF-8 (e.g. in an error message from a worker) is replaced rather than thrown on.
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string ReadTextFile(const fs::path& file) {
  std::error_code ignored;
  if (fs::is_directory(file, ignored)) {
    throw ResultError(file.string() + ": cannot read: it is a directory");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ResultError(file.string() + ": cannot read: " + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw ResultError(file.string() + ": cannot read: I/O error");
  return content.str();
}

std::vector<std::string_view> CsvFields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

Json ReadJsonFile(const fs::path& path) { return ParseJsonText(ReadTextFile(path), path); }

Json ParseJsonText(std::string_view text, const fs::path& path) {
  try {
    return json::ParseJson(text);
  } catch (const json::DecodeError& error) {
    throw ResultError(path.string() + ": " + error.what());
  }
}

}  // namespace asg::results
