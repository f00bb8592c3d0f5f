// Where the same-host socket lives and who may trust it.
#include "protocol/local_channel.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/ip/address.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

namespace asg::protocol {

namespace {

/// The directory of the same-host sockets of this process's user.
std::string LocalChannelDirectory() { return "/tmp/asg-local-" + std::to_string(::getuid()); }

/// Why `directory` may not hold this user's sockets, or nullopt when it may: it must be a
/// directory (not a link) owned by this user that no one else can enter.
std::optional<std::string> CheckDirectory(const std::string& directory) {
  struct stat status {};
  if (::lstat(directory.c_str(), &status) != 0) {
    return directory + ": " + std::strerror(errno);
  }
  if (!S_ISDIR(status.st_mode)) return directory + " is not a directory";
  if (status.st_uid != ::getuid()) {
    return directory + " is owned by user " + std::to_string(status.st_uid);
  }
  if ((status.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    return directory + " is open to other users (mode " + std::to_string(status.st_mode & 0777) +
           " decimal)";
  }
  return std::nullopt;
}

/// True when a server accepts on the Unix socket `path`.
bool SocketAccepts(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  const bool accepts =
      ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return accepts;
}

/// [s] age after which a socket file nobody accepts on is taken as left by a server that ended
/// (a server binds and listens within microseconds).
constexpr time_t kStaleSocketAge = 60;

/// Removes the socket files of `directory` that are older than kStaleSocketAge and refuse
/// connections: those of servers that were killed before they could remove their own.
void RemoveStaleSockets(const std::string& directory) {
  std::error_code error;
  const time_t now = ::time(nullptr);
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    struct stat status {};
    const std::string path = entry.path().string();
    if (::lstat(path.c_str(), &status) != 0 || !S_ISSOCK(status.st_mode)) continue;
    if (now - status.st_mtime < kStaleSocketAge || SocketAccepts(path)) continue;
    ::unlink(path.c_str());
  }
}

}  // namespace

std::string LocalChannelPath(const HostPort& address) {
  return LocalChannelDirectory() + "/" + address.host + "-" + std::to_string(address.port) +
         ".sock";
}

bool IsThisHost(std::string_view numeric_host) {
  boost::system::error_code error;
  const auto address = boost::asio::ip::make_address(std::string(numeric_host), error);
  if (error) return false;
  if (address.is_loopback()) return true;
  if (address.is_unspecified() || address.is_multicast()) return false;
  // An address is this host's when a socket can bind it (port 0: nothing is taken).
  sockaddr_storage storage{};
  socklen_t length = 0;
  if (address.is_v4()) {
    auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
    v4->sin_family = AF_INET;
    const auto bytes = address.to_v4().to_bytes();
    std::memcpy(&v4->sin_addr, bytes.data(), bytes.size());
    length = sizeof(sockaddr_in);
  } else {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
    v6->sin6_family = AF_INET6;
    const auto bytes = address.to_v6().to_bytes();
    std::memcpy(&v6->sin6_addr, bytes.data(), bytes.size());
    v6->sin6_scope_id = address.to_v6().scope_id();
    length = sizeof(sockaddr_in6);
  }
  const int fd = ::socket(storage.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool bound = ::bind(fd, reinterpret_cast<const sockaddr*>(&storage), length) == 0;
  ::close(fd);
  return bound;
}

bool LocalChannelEnabled() {
  const char* value = std::getenv("ASG_LOCAL_CHANNEL");
  return value == nullptr || std::string_view(value) != "off";
}

std::optional<std::string> PrepareLocalChannelPath(const std::string& path) {
  const std::string directory = LocalChannelDirectory();
  if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST) {
    return "cannot create " + directory + ": " + std::strerror(errno);
  }
  if (auto problem = CheckDirectory(directory)) return problem;
  RemoveStaleSockets(directory);
  if (path.size() >= sizeof(sockaddr_un::sun_path)) {
    return path + " is longer than a Unix socket path may be";
  }
  struct stat status {};
  if (::lstat(path.c_str(), &status) == 0) {
    if (!S_ISSOCK(status.st_mode)) return path + " exists and is not a socket";
    if (SocketAccepts(path)) return path + " is in use by another server";
    ::unlink(path.c_str());  // left by a server that ended
  }
  return std::nullopt;
}

std::string LocalChannelFor(std::string_view host_port) {
  if (!LocalChannelEnabled()) return "";
  HostPort address;
  try {
    address = ParseHostPort(host_port);
  } catch (const std::invalid_argument&) {
    return "";
  }
  if (!IsThisHost(address.host)) return "";
  if (CheckDirectory(LocalChannelDirectory())) return "";
  return LocalChannelPath(address);
}

}  // namespace asg::protocol
