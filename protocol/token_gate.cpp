// The token check of a port with its refusal.
#include "protocol/token_gate.h"

#include "protocol/token_guard.h"

namespace asg::protocol {

std::string CheckPeerToken(std::string_view expected, std::string_view given,
                           std::string_view peer) {
  const TokenCheck check = TokenGuard::Process().Check(expected, given, peer);
  return check == TokenCheck::kAccepted ? std::string() : TokenRefusal(check, peer);
}

bool AdmitToken(Connection& connection, const Message& request, std::string_view expected,
                std::string_view given, std::string_view error_prefix,
                const std::function<void(const std::string& reason)>& log) {
  const std::string reason = CheckPeerToken(expected, given, connection.peer());
  if (reason.empty()) return true;
  if (log) log(reason);
  connection.ReplyError(request.reference, std::string(error_prefix) + reason);
  connection.Close(reason);
  return false;
}

}  // namespace asg::protocol
