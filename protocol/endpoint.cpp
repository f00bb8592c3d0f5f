// HOST:PORT parsing and connecting with a timeout.
#include "protocol/endpoint.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <charconv>
#include <optional>
#include <stdexcept>

#include "protocol/local_channel.h"

namespace asg::protocol {

namespace asio = boost::asio;

HostPort ParseListenAddress(std::string_view text) {
  const std::string quoted = "\"" + std::string(text) + "\"";
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) {
    throw std::invalid_argument(quoted + ": expected HOST:PORT");
  }
  std::string_view host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string_view port = text.substr(colon + 1);
  uint32_t number = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (error != std::errc() || end != port.data() + port.size() || number > 65535) {
    throw std::invalid_argument(quoted + ": port \"" + std::string(port) + "\" is not in 0..65535");
  }
  return {std::string(host), static_cast<uint16_t>(number)};
}

HostPort ResolveListenAddress(std::string_view text) {
  HostPort address = ParseListenAddress(text);
  boost::system::error_code error;
  asio::ip::make_address(address.host, error);
  if (!error) return address;  // numeric already
  asio::io_context context;
  asio::ip::tcp::resolver resolver(context);
  const auto results = resolver.resolve(address.host, "", error);
  if (error || results.empty()) {
    throw std::invalid_argument("\"" + std::string(text) + "\": host \"" + address.host +
                                "\" does not resolve" + (error ? ": " + error.message() : ""));
  }
  asio::ip::address chosen = results.begin()->endpoint().address();
  for (const auto& entry : results) {
    if (entry.endpoint().address().is_v4()) {
      chosen = entry.endpoint().address();
      break;
    }
  }
  address.host = chosen.to_string();
  return address;
}

std::string HostPortText(const HostPort& address) {
  const bool ipv6 = address.host.find(':') != std::string::npos;
  return (ipv6 ? "[" + address.host + "]" : address.host) + ":" + std::to_string(address.port);
}

bool IsLoopbackHost(std::string_view host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string FirstNonLoopbackAddress() {
  ifaddrs* interfaces = nullptr;
  if (::getifaddrs(&interfaces) != 0) return "";
  std::string found;
  for (const ifaddrs* it = interfaces; it != nullptr && found.empty(); it = it->ifa_next) {
    if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != AF_INET) continue;
    if ((it->ifa_flags & IFF_UP) == 0 || (it->ifa_flags & IFF_LOOPBACK) != 0) continue;
    char text[INET_ADDRSTRLEN] = {};
    const auto* address = reinterpret_cast<const sockaddr_in*>(it->ifa_addr);
    if (::inet_ntop(AF_INET, &address->sin_addr, text, sizeof text) != nullptr) found = text;
  }
  ::freeifaddrs(interfaces);
  return found;
}

HostPort ParseHostPort(std::string_view text) {
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument("address \"" + std::string(text) + "\": " + why +
                                 ", expected HOST:PORT or [IPV6]:PORT");
  };
  HostPort result;
  std::string_view port_text;
  if (text.starts_with('[')) {
    const size_t close = text.find(']');
    if (close == std::string_view::npos) throw fail("no closing ']'");
    if (close + 1 >= text.size() || text[close + 1] != ':') throw fail("no ':' after ']'");
    result.host = text.substr(1, close - 1);
    port_text = text.substr(close + 2);
  } else {
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) throw fail("no ':'");
    result.host = text.substr(0, colon);
    port_text = text.substr(colon + 1);
    if (result.host.find(':') != std::string::npos) throw fail("IPv6 host without brackets");
  }
  if (result.host.empty()) throw fail("empty host");
  unsigned port = 0;
  const auto [end, error] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || error != std::errc() || end != port_text.data() + port_text.size() ||
      port == 0 || port > 65535) {
    throw fail("port \"" + std::string(port_text) + "\" is not in 1..65535");
  }
  result.port = static_cast<uint16_t>(port);
  return result;
}

namespace {

/// Connects to the Unix-domain socket `path`; nullopt with `error` set when it does not accept.
std::optional<Connection::Socket> ConnectUnix(const asio::any_io_executor& executor,
                                              const std::string& path,
                                              boost::system::error_code& error) {
  asio::local::stream_protocol::socket socket(executor);
  socket.connect(asio::local::stream_protocol::endpoint(path), error);
  if (error) return std::nullopt;
  return Connection::Socket(std::move(socket));
}

/// host_port with "localhost" as 127.0.0.1, for finding the same-host socket (other names are
/// not resolved here: a numeric address is what servers tell their peers).
std::string NumericHostPort(const HostPort& target) {
  if (target.host != "localhost") return HostPortText(target);
  return HostPortText({"127.0.0.1", target.port});
}

}  // namespace

Connection::Socket ConnectSocket(const asio::any_io_executor& executor, std::string_view host_port,
                                 std::chrono::milliseconds timeout) {
  boost::system::error_code unix_error;
  if (host_port.starts_with(kUnixEndpointPrefix)) {
    const std::string path(host_port.substr(kUnixEndpointPrefix.size()));
    if (auto socket = ConnectUnix(executor, path, unix_error)) return std::move(*socket);
    throw std::runtime_error("connecting to " + std::string(host_port) + ": " +
                             unix_error.message());
  }
  const HostPort target = ParseHostPort(host_port);
  // The same host: its server's Unix-domain socket when it offers one, else TCP.
  if (const std::string path = LocalChannelFor(NumericHostPort(target)); !path.empty()) {
    if (auto socket = ConnectUnix(executor, path, unix_error)) return std::move(*socket);
  }
  // A private io_context bounds the whole resolve + connect by timeout without depending on
  // the caller's threads; the connected descriptor then moves to executor.
  asio::io_context context;
  asio::ip::tcp::resolver resolver(context);
  asio::ip::tcp::socket socket(context);
  std::optional<boost::system::error_code> outcome;
  resolver.async_resolve(
      target.host, std::to_string(target.port),
      [&](const boost::system::error_code& error, asio::ip::tcp::resolver::results_type results) {
        if (error) {
          outcome = error;
          return;
        }
        asio::async_connect(socket, results,
                            [&](const boost::system::error_code& connect_error,
                                const asio::ip::tcp::endpoint&) { outcome = connect_error; });
      });
  context.run_for(timeout);
  if (!outcome) {
    throw std::runtime_error("connecting to " + std::string(host_port) + ": no connection within " +
                             std::to_string(timeout.count()) + " ms");
  }
  if (*outcome) {
    throw std::runtime_error("connecting to " + std::string(host_port) + ": " + outcome->message());
  }
  const auto protocol = socket.local_endpoint().protocol();
  return Connection::Socket(asio::ip::tcp::socket(executor, protocol, socket.release()));
}

std::shared_ptr<Connection> Connect(const asio::any_io_executor& executor,
                                    std::string_view host_port, std::chrono::milliseconds timeout,
                                    const ConnectionSettings& settings) {
  return Connection::Create(ConnectSocket(executor, host_port, timeout), settings);
}

}  // namespace asg::protocol
