// The token check of a port with its refusal, as every port that asks for a token answers it:
// the process's TokenGuard decides, TokenRefusal words the reason, and a refused request gets an
// Error reply and its connection is closed (no second guess on the same connection).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "protocol/connection.h"
#include "protocol/frame.h"

namespace asg::protocol {

/// Checks the token `given` by `peer` ("ADDRESS:PORT") against `expected` with the process's
/// guard (TokenGuard::Process()): empty when accepted (or when no token is asked for), else the
/// reason it was refused ("wrong token", or "too many wrong tokens from ADDRESS; try again in
/// 10 s"). Thread-safe.
std::string CheckPeerToken(std::string_view expected, std::string_view given,
                           std::string_view peer);

/// Checks the token `given` in `request` on `connection` (CheckPeerToken with its peer). Returns
/// true when accepted. When refused: calls `log` with the reason (when `log` is set), replies an
/// Error whose description is `error_prefix` followed by the reason, closes the connection with
/// the reason as the close reason, and returns false.
bool AdmitToken(Connection& connection, const Message& request, std::string_view expected,
                std::string_view given, std::string_view error_prefix,
                const std::function<void(const std::string& reason)>& log = {});

}  // namespace asg::protocol
