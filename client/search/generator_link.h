// The rendezvous between the farm's listening port and the "external" search strategy
// (docs/generator-protocol.md): a scenario generator's connection registers here on the io
// thread (the farm's GeneratorPort, client/farm/scenario_feed.h), and the strategy, on the
// search's thread, waits for it and then sends it requests.
//
// One generator per search: while one is registered, or after it left, another is refused (the
// search's proposals so far came from the first). Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "client/farm/scenario_feed.h"
#include "protocol/connection.h"
#include "protocol/generator_messages.h"
#include "protocol/messages_json.h"

namespace asg::client {

/// Where the generator of an external search comes from.
class GeneratorLink final : public GeneratorPort {
 public:
  /// `search` is what a registered generator is told (GeneratorRegistrationResponse::search);
  /// `token` is required of it when not empty.
  GeneratorLink(json::Json search, std::string token);

  /// A RegisterGenerator arrived on `connection` (io thread). Returns an empty string when
  /// accepted (the reply is the caller's to send, with search()), else why it was refused (the
  /// caller closes the connection then). The token is checked by
  /// protocol::TokenGuard::Process(), which also refuses an address after too many wrong
  /// tokens. An
  /// accepted generator's connection is never closed for silence from then on
  /// (Connection::SetPeerTimeout(0)): the search's reply_timeout bounds each answer.
  std::string Offer(const std::shared_ptr<protocol::Connection>& connection,
                    const protocol::GeneratorRegistration& registration) override;
  /// A connection closed (io thread); when it was the generator's, Await fails from now on.
  void Closed(const protocol::Connection* connection, const std::string& reason) override;
  /// Stops every wait: Await throws with `reason` from now on (e.g. a signal).
  void Cancel(const std::string& reason) override;

  /// Waits at most `timeout` for a generator to register and returns its connection. Throws
  /// std::runtime_error when none registered in time, the link was cancelled or the generator
  /// has left.
  std::shared_ptr<protocol::Connection> Await(std::chrono::milliseconds timeout);

  /// Sends SearchEnded with `reason` to the generator, if one is registered, and closes it.
  void End(const std::string& reason);

  /// What a registered generator is told.
  const json::Json& search() const override { return search_; }
  /// Whether Cancel was called.
  bool cancelled() const;

 private:
  const json::Json search_;
  const std::string token_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::shared_ptr<protocol::Connection> connection_;  // the registered generator, if any
  std::string name_;       // the generator's name, clipped for the log (core::ClipForLog)
  std::string gone_;       // why the generator left; not empty once it has
  std::string cancelled_;  // Cancel's reason
};

}  // namespace asg::client
