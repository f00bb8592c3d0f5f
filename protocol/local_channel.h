// The same-host channel: a Unix-domain socket beside a TCP port, found from the port's address.
//
// A server that offers it (the worker's data port, the interactive worker's port) listens on
// its TCP address and also on LocalChannelPath(address), a socket in a directory only its user
// may enter. A peer connecting to that address from the same host (a loopback address or one of
// this host's own) connects to the socket instead when it exists and accepts, and over TCP
// otherwise; the frames are the same. ASG_LOCAL_CHANNEL=off in the connecting process's
// environment keeps it on TCP.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "protocol/endpoint.h"

namespace asg::protocol {

/// The prefix of an endpoint that names a Unix-domain socket: "unix:/path/to/socket".
inline constexpr std::string_view kUnixEndpointPrefix = "unix:";

/// The channel a connection runs on, as logs and result.json's counters name it.
inline constexpr std::string_view kChannelTcp = "tcp";
inline constexpr std::string_view kChannelUnix = "unix";  ///< same-host Unix-domain socket

/// The socket path of the same-host channel of a server listening on `address` (a numeric
/// host): "/tmp/asg-local-UID/HOST-PORT.sock" for this process's user id.
std::string LocalChannelPath(const HostPort& address);

/// True when `numeric_host` is this host's: a loopback address, or an address a socket here
/// can bind (one of its interfaces').
bool IsThisHost(std::string_view numeric_host);

/// False when the environment says ASG_LOCAL_CHANNEL=off (connections stay on TCP).
bool LocalChannelEnabled();

/// Makes the directory of `path` ready for a server's socket: created with mode 0700 when
/// missing, and refused unless it is a directory (not a link) owned by this user with no access
/// for others; a socket file left at `path` by a process that ended is removed, and so are the
/// directory's socket files over a minute old that no server accepts on (servers killed before
/// they could remove theirs). Returns why the
/// channel cannot be offered (e.g. `/tmp/asg-local-1000 is owned by user 0`), or nullopt.
std::optional<std::string> PrepareLocalChannelPath(const std::string& path);

/// The same-host socket to try for `host_port` ("HOST:PORT" with a numeric host), or "" when
/// there is none to try: the channel is off, the host is not this one, or the socket's directory
/// is not this user's own.
std::string LocalChannelFor(std::string_view host_port);

}  // namespace asg::protocol
