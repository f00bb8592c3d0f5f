// Token checks with a count of wrong tokens per address.
#include "protocol/token_guard.h"

#include <algorithm>

#include "protocol/endpoint.h"
#include "protocol/local_channel.h"
#include "protocol/token.h"

namespace asg::protocol {

std::string_view PeerAddress(std::string_view peer) {
  if (peer.starts_with(kUnixEndpointPrefix)) return peer;  // "unix:PATH": no port
  const size_t colon = peer.rfind(':');
  return colon == std::string_view::npos ? peer : peer.substr(0, colon);
}

bool IsLoopbackPeerAddress(std::string_view address) {
  // A peer on the same-host socket is on this host, as a loopback one.
  if (address.starts_with(kUnixEndpointPrefix)) return true;
  // An IPv4 peer of a dual-stack socket reads "::ffff:127.0.0.1".
  constexpr std::string_view kMapped = "::ffff:";
  if (address.starts_with(kMapped)) address.remove_prefix(kMapped.size());
  return IsLoopbackHost(address);
}

TokenCheck TokenGuard::Check(std::string_view expected, std::string_view given,
                             std::string_view peer, Clock::time_point now) {
  if (expected.empty()) return TokenCheck::kAccepted;
  const std::string address(PeerAddress(peer));
  // A loopback address is shared by the farm's own local peers and anyone on the host: counting
  // it would let a local guesser lock the farm's workers out, so its guesses are only refused,
  // one per connection. A 128-bit token (token.h) is not found by guessing at that rate.
  if (IsLoopbackPeerAddress(address)) {
    return TokensEqual(expected, given) ? TokenCheck::kAccepted : TokenCheck::kWrong;
  }
  std::lock_guard lock(mutex_);
  auto it = failures_.find(address);
  if (it != failures_.end() && now < it->second.refused_until) return TokenCheck::kTooManyFailures;
  if (TokensEqual(expected, given)) return TokenCheck::kAccepted;
  if (it == failures_.end()) {
    if (failures_.size() >= kMaxAddresses) MakeRoom(now);
    it = failures_.emplace(address, Failures{}).first;
  }
  Failures& failures = it->second;
  if (failures.count == 0 || now - failures.first > kFailureWindow) {
    failures.count = 0;
    failures.first = now;
  }
  failures.last = now;
  if (++failures.count >= kMaxFailures) {
    failures.refused_until = now + kRefusal;
    failures.count = 0;
  }
  return TokenCheck::kWrong;
}

void TokenGuard::MakeRoom(Clock::time_point now) {
  std::erase_if(failures_, [now](const auto& entry) {
    return now >= entry.second.refused_until && now - entry.second.last > kFailureWindow;
  });
  if (failures_.size() < kMaxAddresses) return;
  const auto oldest =
      std::min_element(failures_.begin(), failures_.end(),
                       [](const auto& a, const auto& b) { return a.second.last < b.second.last; });
  failures_.erase(oldest);
}

size_t TokenGuard::addresses() const {
  std::lock_guard lock(mutex_);
  return failures_.size();
}

void TokenGuard::Clear() {
  std::lock_guard lock(mutex_);
  failures_.clear();
}

TokenGuard& TokenGuard::Process() {
  // One per process: every port of the process counts an address's wrong tokens together.
  static TokenGuard guard;
  return guard;
}

std::string TokenRefusal(TokenCheck check, std::string_view peer) {
  if (check == TokenCheck::kTooManyFailures) {
    return "too many wrong tokens from " + std::string(PeerAddress(peer)) + "; try again in " +
           std::to_string(TokenGuard::kRefusal.count()) + " s";
  }
  return "wrong token";
}

}  // namespace asg::protocol
