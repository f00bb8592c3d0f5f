// The generator rendezvous: one registration, waited for by the external strategy.
#include "client/search/generator_link.h"

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "core/log_clip.h"
#include "protocol/token_gate.h"
#include "protocol/typed_connection.h"

namespace asg::client {

GeneratorLink::GeneratorLink(json::Json search, std::string token)
    : search_(std::move(search)), token_(std::move(token)) {}

std::string GeneratorLink::Offer(const std::shared_ptr<protocol::Connection>& connection,
                                 const protocol::GeneratorRegistration& registration) {
  const std::string refusal =
      protocol::CheckPeerToken(token_, registration.token, connection->peer());
  if (!refusal.empty()) return "refused: " + refusal;
  std::lock_guard lock(mutex_);
  if (!cancelled_.empty()) return "refused: the search is over (" + cancelled_ + ")";
  if (connection_ || !gone_.empty()) {
    return "refused: generator '" + name_ + "' serves this search already";
  }
  connection_ = connection;
  name_ = core::ClipForLog(registration.generator_name);
  // A registered generator need not send heartbeats: it may think for as long as reply_timeout
  // allows, and its connection closing governs the rest (as for vehicle nodes).
  connection->SetPeerTimeout(std::chrono::milliseconds(0));
  changed_.notify_all();
  return {};
}

void GeneratorLink::Closed(const protocol::Connection* connection, const std::string& reason) {
  std::lock_guard lock(mutex_);
  if (connection_.get() != connection || !gone_.empty()) return;
  gone_ = "generator '" + name_ + "' disconnected: " + reason;
  changed_.notify_all();
}

void GeneratorLink::Cancel(const std::string& reason) {
  std::lock_guard lock(mutex_);
  if (cancelled_.empty()) cancelled_ = reason;
  changed_.notify_all();
}

bool GeneratorLink::cancelled() const {
  std::lock_guard lock(mutex_);
  return !cancelled_.empty();
}

std::shared_ptr<protocol::Connection> GeneratorLink::Await(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const bool settled = changed_.wait_for(lock, timeout, [this] {
    return connection_ != nullptr || !gone_.empty() || !cancelled_.empty();
  });
  if (!cancelled_.empty()) throw std::runtime_error(cancelled_);
  if (!gone_.empty()) throw std::runtime_error(gone_);
  if (!settled) {
    char text[96];
    std::snprintf(text, sizeof text, "no scenario generator registered within %g s",
                  static_cast<double>(timeout.count()) / 1000.0);
    throw std::runtime_error(text);
  }
  return connection_;
}

void GeneratorLink::End(const std::string& reason) {
  std::shared_ptr<protocol::Connection> connection;
  {
    std::lock_guard lock(mutex_);
    if (cancelled_.empty()) cancelled_ = reason;
    changed_.notify_all();
    if (!gone_.empty()) return;
    connection = connection_;
  }
  if (!connection) return;
  protocol::SendMessage(*connection, protocol::SearchEndedMessage{reason});
  connection->Close(reason);
}

}  // namespace asg::client
