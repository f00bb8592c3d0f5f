// A source of more scenarios while the farm runs, and the farm's port for the party that feeds
// it. The farm knows the interfaces only; `asg-client run` composes a batch's search
// (client/search/search_run.h) with the farm through them.
//
// A feed plans scenarios (numbered above the batch's) and is told their results: the farm takes
// the planned ones (Take), records those kept from an earlier run (--resume) and the invalid ones
// at once, runs the rest, and tells the feed every result it records (Recorded), whichever way it
// was recorded. A feed may work beside the farm's thread (Busy); the farm then keeps looking.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "client/batch/batch.h"
#include "core/log.h"
#include "protocol/connection.h"
#include "protocol/generator_messages.h"
#include "results/folder.h"
#include "results/record.h"

namespace asg::client {

/// Where a scenario generator of an external search registers on the farm's port
/// (docs/generator-protocol.md). Thread-safe: the port calls it on io threads, a signal cancels
/// it there too.
class GeneratorPort {
 public:
  virtual ~GeneratorPort() = default;
  /// A RegisterGenerator arrived on `connection`: an empty string when accepted (the caller
  /// replies with search()), else why it was refused.
  virtual std::string Offer(const std::shared_ptr<protocol::Connection>& connection,
                            const protocol::GeneratorRegistration& registration) = 0;
  /// What an accepted generator is told (GeneratorRegistrationResponse::search).
  virtual const json::Json& search() const = 0;
  /// A connection closed; when it was the generator's, the search learns that it left.
  virtual void Closed(const protocol::Connection* connection, const std::string& reason) = 0;
  /// Stops every wait for the generator with `reason` (a signal).
  virtual void Cancel(const std::string& reason) = 0;
};

/// A source of more scenarios while the farm runs (see above). Used by the farm's thread only.
class ScenarioFeed {
 public:
  virtual ~ScenarioFeed() = default;

  /// The scenarios planned since the last call, ascending and numbered above every scenario the
  /// farm knows; often none. With `wait`, first waits for the work beside the farm (Busy) to
  /// end. The first call plans the first scenarios.
  virtual std::vector<PlannedScenario> Take(bool wait) = 0;
  /// A scenario's result was recorded for the first time in this run: run, kept from an earlier
  /// run or invalid (the farm's own scenarios included, which a feed may ignore). `written` is
  /// the record going to its folder (request and trajectory included), or nullptr for a result
  /// kept from an earlier run, whose folder is complete on disk already.
  virtual void Recorded(const results::ScenarioResult& result,
                        const results::ScenarioRecord* written) = 0;
  /// Whether more scenarios may still come without another result (the farm must not end).
  virtual bool Busy() const = 0;

  /// Where its scenario generator registers on the farm's port, or nullptr when it has none.
  virtual GeneratorPort* generator() { return nullptr; }
  /// Why the feed stopped planning before its end (e.g. its generator left), or empty.
  virtual const std::string& error() const = 0;
  /// Whether a signal stopped it (error() then says so).
  virtual bool interrupted() const = 0;
  /// The farm is over, `interrupted` by a signal or not: a generator is told and let go.
  virtual void End(bool interrupted) = 0;
  /// What the terminal shows after the outcome table (lines ending in '\n'); may be empty.
  virtual std::string Summary() const = 0;
};

/// Makes a farm run's feed once its log exists (`logger` outlives the feed); the farm owns it,
/// so that it goes before the farm's connections do.
using FeedMaker = std::function<std::unique_ptr<ScenarioFeed>(core::Logger* logger)>;

}  // namespace asg::client
