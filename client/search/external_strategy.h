// The "external" search strategy: a researcher's own scenario generator, in any language,
// proposes the scenarios over the framed protocol (docs/generator-protocol.md). Ask becomes a
// ProposeScenarios request, Tell a ScenarioResults request, both sent from the search's thread
// to the generator that registered on the client's port (GeneratorLink).
//
// The client keeps the rules the built-in strategies keep: every proposal is checked against
// the search space (known classes, the classes' ranges and counts, min_obstacles) and for
// feasibility (search::Infeasibility); refused ones are reported in the next round of the same
// Ask, and the generator proposes again, for at most max_rounds rounds. Candidate ids are
// given by the client in the order proposals are accepted.
//
// Errors: a generator that does not register in time, does not answer within reply_timeout,
// answers with something that does not decode or breaks the protocol (more proposals than
// asked, unknown parents), leaves, or has every proposal of an Ask refused in max_rounds
// rounds makes Ask or Tell throw std::runtime_error with the reason; the search stops there.
// An Ask that accepted candidates in earlier rounds before the error returns them (they run, as
// the search's log says), and the next Ask or Tell throws the error.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "client/batch/search_spec.h"
#include "client/search/generator_link.h"
#include "search/space.h"
#include "search/strategy.h"

namespace asg::client {

/// Whether `proposal` fits `space`: an empty string, or why not (naming the obstacle and the
/// value, e.g. "obstacles[2].x: 75 is outside [0, 60] of class \"tree\""). Fills `obstacles`.
std::string CheckProposal(const search::SearchSpace& space, const protocol::Proposal& proposal,
                          std::vector<search::Obstacle>* obstacles);

/// Proposals come from the generator on `link`.
class ExternalStrategy : public search::Strategy {
 public:
  ExternalStrategy(const ExternalSettings& settings, search::SearchSpace space,
                   GeneratorLink* link);

  std::vector<search::Candidate> Ask(size_t count) override;
  void Tell(const std::vector<search::Evaluation>& evaluations) override;
  std::string name() const override { return "external"; }

 private:
  /// The rounds of one Ask: appends the accepted candidates to `accepted` as they come; throws
  /// std::runtime_error as Ask does.
  void AskRounds(size_t count, std::vector<search::Candidate>* accepted);
  /// The lineage generation of the `index`th proposal of a reply (one more than its parents'
  /// highest, 0 without parents); throws std::runtime_error naming a parent that is no earlier
  /// candidate.
  uint32_t GenerationOf(const protocol::Proposal& proposal, size_t index) const;
  /// Throws the error that ended an Ask which still returned candidates, if there was one.
  void ThrowIfStopped() const;
  protocol::Connection& Generator();
  template <class Reply, class Request>
  Reply Call(const Request& request);

  ExternalSettings settings_;
  search::SearchSpace space_;
  GeneratorLink* link_;
  std::shared_ptr<protocol::Connection> generator_;
  uint64_t next_id_ = 1;
  std::map<uint64_t, uint32_t> generation_of_;       // every id -> its lineage generation
  std::map<uint64_t, protocol::Proposal> awaiting_;  // proposed, not told yet
  std::string stopped_;  // the error of an Ask that still returned candidates
};

}  // namespace asg::client
