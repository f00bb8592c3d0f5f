// JSON schemas of generator_messages.h.
#include "json/fields.h"
#include "protocol/generator_messages.h"
#include "protocol/messages_json.h"

namespace asg::json {

template <>
struct Schema<protocol::GeneratorRegistration> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("generator_name", m.generator_name);
    v.Optional("token", m.token);
  }
};

template <>
struct Schema<protocol::GeneratorRegistrationResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
    v.Required("search", m.search);
  }
};

template <>
struct Schema<protocol::ProposedObstacle> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("path_name", m.path_name);
    v.Required("x", m.x);
    v.Required("y", m.y);
    v.Optional("yaw", m.yaw);
    v.Optional("scale", m.scale, kPositive);
  }
};

template <>
struct Schema<protocol::Proposal> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("obstacles", m.obstacles);
    v.Optional("parents", m.parents);
    v.Optional("origin", m.origin);
  }
};

template <>
struct Schema<protocol::RejectedProposal> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("index", m.index);
    v.Required("reason", m.reason);
  }
};

template <>
struct Schema<protocol::ProposeScenariosRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("count", m.count);
    v.Required("first_id", m.first_id);
    v.Required("round", m.round);
    v.Required("rejected", m.rejected);
  }
};

template <>
struct Schema<protocol::ProposeScenariosResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("scenarios", m.scenarios);
  }
};

template <>
struct Schema<protocol::ScenarioScore> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("id", m.id);
    v.Required("regret", m.regret);
    v.Required("failure", m.failure);
    v.Required("failure_id", m.failure_id);  // null when none
    v.Required("scenario", m.scenario);
  }
};

template <>
struct Schema<protocol::ScenarioResultsRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("results", m.results);
  }
};

template <>
struct Schema<protocol::ScenarioResultsResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("received", m.received);
  }
};

template <>
struct Schema<protocol::SearchEndedMessage> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("reason", m.reason);
  }
};

}  // namespace asg::json

namespace asg::protocol {

ASG_DEFINE_JSON(GeneratorRegistration)
ASG_DEFINE_JSON(GeneratorRegistrationResponse)
ASG_DEFINE_JSON(ProposedObstacle)
ASG_DEFINE_JSON(Proposal)
ASG_DEFINE_JSON(RejectedProposal)
ASG_DEFINE_JSON(ProposeScenariosRequest)
ASG_DEFINE_JSON(ProposeScenariosResponse)
ASG_DEFINE_JSON(ScenarioScore)
ASG_DEFINE_JSON(ScenarioResultsRequest)
ASG_DEFINE_JSON(ScenarioResultsResponse)
ASG_DEFINE_JSON(SearchEndedMessage)

}  // namespace asg::protocol
