// Client-side helpers: parse "HOST:PORT" and connect a socket within a timeout.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "protocol/connection.h"

namespace asg::protocol {

/// A host name or address and a TCP port.
struct HostPort {
  std::string host;   ///< name or address; IPv6 addresses without brackets
  uint16_t port = 0;  ///< TCP port
};

/// Parses "HOST:PORT" or "[IPV6]:PORT". Throws std::invalid_argument naming the text.
HostPort ParseHostPort(std::string_view text);

/// Parses an address to listen on: "HOST:PORT" or "[IPV6]:PORT" with PORT 0..65535 (0: any free
/// port). Throws std::invalid_argument naming the text, e.g. `"x:99999": port "99999" is not in
/// 0..65535`.
HostPort ParseListenAddress(std::string_view text);

/// ParseListenAddress, then the host resolved to a numeric address a server can bind: an address
/// is kept as it is, a name ("localhost", this host's name) becomes its first IPv4 address (its
/// first address when it has none), by the system's resolver. Blocking. Throws
/// std::invalid_argument naming the text, e.g. `"nosuch.invalid:0": host "nosuch.invalid" does
/// not resolve: Host not found (authoritative)`.
HostPort ResolveListenAddress(std::string_view text);

/// "HOST:PORT", an IPv6 host in brackets: "[::1]:7419"; the form ParseHostPort and
/// ParseListenAddress read.
std::string HostPortText(const HostPort& address);

/// True for "localhost", "::1" and 127.x.y.z: an address only this machine can reach.
bool IsLoopbackHost(std::string_view host);

/// The IPv4 address of this host's first interface that is up and not loopback, e.g.
/// "10.1.2.3" (the address other hosts reach it by); "" when it has none.
std::string FirstNonLoopbackAddress();

/// Resolves host_port and connects to the first address that accepts, all within timeout.
/// "unix:PATH" connects to that Unix-domain socket; "HOST:PORT" of this host connects to its
/// server's same-host socket when the server offers one (protocol/local_channel.h), over TCP
/// otherwise. Blocking; safe from any thread (it runs its own private io_context). The returned
/// socket belongs to executor. Throws std::runtime_error naming the address and the cause.
Connection::Socket ConnectSocket(const boost::asio::any_io_executor& executor,
                                 std::string_view host_port, std::chrono::milliseconds timeout);

/// ConnectSocket, then Connection::Create. The connection is not started: register its
/// handlers, then call Start().
std::shared_ptr<Connection> Connect(const boost::asio::any_io_executor& executor,
                                    std::string_view host_port, std::chrono::milliseconds timeout,
                                    const ConnectionSettings& settings = {});

}  // namespace asg::protocol
