// Messages between an external scenario generator and the client (docs/generator-protocol.md):
// the "external" search strategy, where a researcher's own program proposes the scenarios.
//
// The generator connects to the client's port (the one workers and vehicle nodes use) and
// registers; from then on the client asks and the generator answers: ProposeScenarios (the
// strategy's Ask) and ScenarioResults (its Tell), and a last SearchEnded.
// Units: metres and degrees, north-west-up world frame, as the batch file.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/declare.h"
#include "protocol/messages.h"

namespace asg::protocol {

/// RegisterGenerator: the generator's first request.
struct GeneratorRegistration {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RegisterGenerator";
  std::string generator_name;  ///< for the log
  std::string token;           ///< the client's token; empty when it listens on loopback only
  bool operator==(const GeneratorRegistration&) const = default;
};
/// The search the generator serves.
struct GeneratorRegistrationResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "RegisterGeneratorResponse";
  bool received = false;
  /// {"seed", "budget_scenarios", "generation_size", "runs_per_scenario", "space",
  ///  "settings"}: the batch's search section as resolved; "settings" is
  ///  strategy_settings.generator, passed through as written.
  Json search = Json::object();
  bool operator==(const GeneratorRegistrationResponse&) const = default;
};

/// One actor of a proposed scenario.
struct ProposedObstacle {
  std::string path_name;  ///< a class of the search space, by its path_name
  double x = 0.0;         ///< [m]
  double y = 0.0;         ///< [m]
  double yaw = 0.0;       ///< [deg]
  double scale = 1.0;
  bool operator==(const ProposedObstacle&) const = default;
};

/// One proposed scenario.
struct Proposal {
  std::vector<ProposedObstacle> obstacles;
  std::vector<uint64_t> parents;  ///< ids of earlier candidates it was made from
  std::string origin;             ///< how it was made, for people ("random", "mutation", ...)
  bool operator==(const Proposal&) const = default;
};

/// A proposal of the previous round that the client refused (infeasible or outside the space).
struct RejectedProposal {
  uint32_t index = 0;  ///< its index in that round's ProposeScenariosResponse.scenarios
  std::string reason;
  bool operator==(const RejectedProposal&) const = default;
};

/// ProposeScenarios (client -> generator): propose `count` scenarios.
struct ProposeScenariosRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "ProposeScenarios";
  uint32_t count = 0;     ///< how many to propose, at most
  uint64_t first_id = 0;  ///< the id of the first accepted proposal; the next get +1 each
  uint32_t round = 0;     ///< 0, then 1, 2... while refused proposals are drawn again
  std::vector<RejectedProposal> rejected;  ///< the previous round's refusals (round > 0)
  bool operator==(const ProposeScenariosRequest&) const = default;
};
struct ProposeScenariosResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "ProposeScenariosResponse";
  std::vector<Proposal> scenarios;  ///< at most `count`; none: nothing to propose now
  bool operator==(const ProposeScenariosResponse&) const = default;
};

/// The score of one candidate, with the candidate as proposed.
struct ScenarioScore {
  uint64_t id = 0;
  double regret = 0.0;   ///< mean over its runs (docs/regret.md)
  bool failure = false;  ///< some run ended other than in success
  /// The distinct failure (docs/failures.md) of its first run (in run order) that is a failure
  /// at the batch's regret threshold, by the search's clustering so far; JSON null when none is.
  std::optional<uint32_t> failure_id;
  Proposal scenario;  ///< what was proposed under this id
  bool operator==(const ScenarioScore&) const = default;
};

/// ScenarioResults (client -> generator): scores of earlier proposals, in ascending id.
struct ScenarioResultsRequest {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "ScenarioResults";
  std::vector<ScenarioScore> results;
  bool operator==(const ScenarioResultsRequest&) const = default;
};
struct ScenarioResultsResponse {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "ScenarioResultsResponse";
  bool received = false;
  bool operator==(const ScenarioResultsResponse&) const = default;
};

/// SearchEnded (client -> generator, no reply): the search is over; the client closes next.
struct SearchEndedMessage {
  /// Frame type (the envelope's "type").
  static constexpr std::string_view kType = "SearchEnded";
  std::string reason;
  bool operator==(const SearchEndedMessage&) const = default;
};

ASG_DECLARE_JSON(GeneratorRegistration);
ASG_DECLARE_JSON(GeneratorRegistrationResponse);
ASG_DECLARE_JSON(ProposedObstacle);
ASG_DECLARE_JSON(Proposal);
ASG_DECLARE_JSON(RejectedProposal);
ASG_DECLARE_JSON(ProposeScenariosRequest);
ASG_DECLARE_JSON(ProposeScenariosResponse);
ASG_DECLARE_JSON(ScenarioScore);
ASG_DECLARE_JSON(ScenarioResultsRequest);
ASG_DECLARE_JSON(ScenarioResultsResponse);
ASG_DECLARE_JSON(SearchEndedMessage);

}  // namespace asg::protocol
