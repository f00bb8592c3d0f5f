// The token check of every port that asks for one (the client's workers, vehicle nodes and
// scenario generator, the worker's data port, the interactive worker's Hello), with a bound on
// guessing: a peer that gives a wrong token is refused and its connection closed, and an address
// that gave kMaxFailures wrong tokens within kFailureWindow is refused without a check for
// kRefusal, whatever token it gives. Peers on one address share its count. Loopback addresses
// are not counted (their wrong tokens are refused one per connection): the farm's own local
// workers share them with anyone on the host, who could otherwise lock them out. The state is
// bounded: at most kMaxAddresses addresses are remembered, the least recently failed forgotten
// first.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace asg::protocol {

/// The outcome of a token check.
enum class TokenCheck : uint8_t {
  kAccepted,        ///< the token is right, or none is asked for
  kWrong,           ///< the token is wrong
  kTooManyFailures  ///< the address is refused for a while; its token was not compared
};

/// Checks tokens and counts wrong ones per address. Thread-safe.
class TokenGuard {
 public:
  using Clock = std::chrono::steady_clock;

  /// Wrong tokens from one address within kFailureWindow before the address is refused.
  static constexpr int kMaxFailures = 5;
  /// [s] Wrong tokens older than this no longer count.
  static constexpr std::chrono::seconds kFailureWindow{60};
  /// [s] How long an address is refused once it reached kMaxFailures.
  static constexpr std::chrono::seconds kRefusal{10};
  /// Addresses remembered at most.
  static constexpr size_t kMaxAddresses = 4096;

  /// kAccepted when `expected` is empty (no token asked for) or `given` equals it (compared in
  /// constant time, TokensEqual); kTooManyFailures while the address of `peer` ("ADDRESS:PORT",
  /// Connection::peer()) is refused; else kWrong, which counts against the address unless it is
  /// a loopback one (IsLoopbackPeerAddress).
  TokenCheck Check(std::string_view expected, std::string_view given, std::string_view peer,
                   Clock::time_point now = Clock::now());

  /// Addresses remembered now (at most kMaxAddresses).
  size_t addresses() const;
  /// Forgets every address (tests that guess wrong tokens leave the process's guard clean).
  void Clear();

  /// The guard of this process, shared by every port it serves.
  static TokenGuard& Process();

 private:
  struct Failures {
    int count = 0;                    // wrong tokens since `first`
    Clock::time_point first;          // the first of them
    Clock::time_point last;           // the latest wrong token
    Clock::time_point refused_until;  // refused before this time
  };
  /// Makes room for one more address: forgets those whose failures expired, then, when still
  /// full, the least recently failed.
  void MakeRoom(Clock::time_point now);

  mutable std::mutex mutex_;
  std::unordered_map<std::string, Failures> failures_;  // by address
};

/// Why a check refused `peer`: "wrong token", or "too many wrong tokens from ADDRESS; try
/// again in 10 s".
std::string TokenRefusal(TokenCheck check, std::string_view peer);

/// Whether a peer's address (PeerAddress) is a loopback one: 127.*, ::1, or 127.* mapped into
/// IPv6 (::ffff:127.0.0.1); a peer on the same-host socket ("unix:PATH") counts as one.
bool IsLoopbackPeerAddress(std::string_view address);

/// The address of a peer "ADDRESS:PORT" (an IPv6 address without brackets), e.g. "127.0.0.1";
/// a same-host socket's peer "unix:PATH" as it is.
std::string_view PeerAddress(std::string_view peer);

}  // namespace asg::protocol
