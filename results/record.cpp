// The JSON schemas of result.json and timing.json, on the field visitors the messages use.
#include "results/record.h"

#include <array>

#include "json/fields.h"

namespace asg::results {
namespace {

using json::NamedValue;
using json::Names;

constexpr std::array<NamedValue<ScenarioStatus>, 3> kStatusTable{{
    {ScenarioStatus::kDone, "done"},
    {ScenarioStatus::kInvalid, "invalid"},
    {ScenarioStatus::kFailed, "failed"},
}};
constexpr Names<ScenarioStatus> kStatusNames{"scenario status", kStatusTable};

}  // namespace
}  // namespace asg::results

namespace asg::json {

template <>
struct Schema<results::RerunRecord> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("attempt", m.attempt);
    v.Required("node_name", m.node_name);
    v.Required("reason", m.reason);
  }
};

template <>
struct Schema<results::Intervention> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("sim_time_s", m.sim_time_s);
    v.Required("service", m.service);
    v.Required("entity", m.entity);
    v.Required("kind", m.kind);
    v.Optional("from", m.from);
    v.Optional("to", m.to);
    v.Optional("linear_velocity", m.linear_velocity);
    v.Optional("angular_velocity", m.angular_velocity);
    v.Optional("uri", m.uri);
    v.Optional("scope", m.scope);
    v.Optional("control", m.control);
  }
};

template <>
struct Schema<results::ScenarioResult> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("scenario_number", m.scenario_number);
    v.RequiredTag("status", m.status, results::kStatusNames);
    v.Required("seed", m.seed);
    // A variant batch's scenarios say which variant of which layout they are.
    if constexpr (std::is_same_v<V, FieldWriter>) {
      if (!m.variant.empty()) {
        v.Optional("variant", m.variant);
        v.Optional("layout", m.layout);
      }
    } else {
      v.Optional("variant", m.variant);
      v.Optional("layout", m.layout);
    }
    v.Required("reruns", m.reruns);
    v.Required("captures", m.captures);
    // The status is read before the fields that depend on it.
    if (m.status == results::ScenarioStatus::kDone) {
      v.Required("termination_reason", m.termination_reason);
      // Written for people; derived from termination_reason, so read and not kept.
      std::string reason_name(protocol::TerminationReasonName(m.termination_reason));
      v.Optional("termination_reason_name", reason_name);
      v.Required("vehicle_sim_time", m.vehicle_sim_time);
      v.Required("counters", m.counters);
      if constexpr (std::is_same_v<V, FieldWriter>) {
        if (m.regret.computed) v.Optional("regret", m.regret);
        if (m.failure_id != 0) v.Optional("failure_id", m.failure_id);
      } else {
        v.Optional("regret", m.regret);
        v.Optional("failure_id", m.failure_id);
      }
    } else {
      v.Required("error", m.error);
    }
    if constexpr (std::is_same_v<V, FieldWriter>) {
      if (!m.capture_error.empty()) v.Optional("capture_error", m.capture_error);
      if (!m.interventions.empty()) v.Optional("interventions", m.interventions);
    } else {
      v.Optional("capture_error", m.capture_error);
      v.Optional("interventions", m.interventions);
    }
  }
};

template <>
struct Schema<results::AttemptTiming> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("attempt", m.attempt);
    v.Required("worker_id", m.worker_id);
    v.Required("wall_time_s", m.wall_time_s);
    v.Required("outcome", m.outcome);
    v.Required("detail", m.detail);
  }
};

template <>
struct Schema<results::ScenarioTiming> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("wall_time_s", m.wall_time_s);
    v.Required("attempts", m.attempts);
  }
};

}  // namespace asg::json

namespace asg::results {

// Encoding and strict decoding hooks (ADL, as for the messages).
void to_json(Json& j, const RerunRecord& value) { json::EncodeFields(j, value); }
void Decode(const Json& j, const std::string& path, RerunRecord* value) {
  json::DecodeFields(j, path, value);
}
void to_json(Json& j, const Intervention& value) { json::EncodeFields(j, value); }
void Decode(const Json& j, const std::string& path, Intervention* value) {
  json::DecodeFields(j, path, value);
}
void to_json(Json& j, const AttemptTiming& value) { json::EncodeFields(j, value); }
void Decode(const Json& j, const std::string& path, AttemptTiming* value) {
  json::DecodeFields(j, path, value);
}

std::string_view ScenarioStatusName(ScenarioStatus status) {
  for (const auto& entry : kStatusTable) {
    if (entry.value == status) return entry.name;
  }
  return "failed";
}

bool ScenarioStatusFromName(std::string_view name, ScenarioStatus* status) {
  for (const auto& entry : kStatusTable) {
    if (entry.name == name) {
      *status = entry.value;
      return true;
    }
  }
  return false;
}

ScenarioResult DoneResult(const protocol::AnalyzeScenarioRequest& analysis, uint64_t seed) {
  ScenarioResult result;
  result.scenario_number = static_cast<uint32_t>(analysis.scenario_number);
  result.status = ScenarioStatus::kDone;
  result.seed = seed;
  result.termination_reason = analysis.termination_reason;
  result.vehicle_sim_time = analysis.vehicle_sim_time;
  result.counters = analysis.counters;
  result.regret = analysis.regret;
  result.capture_error = analysis.capture_error;
  return result;
}

ScenarioResult UnrunnableResult(uint32_t scenario_number, ScenarioStatus status, std::string error,
                                uint64_t seed) {
  ScenarioResult result;
  result.scenario_number = scenario_number;
  result.status = status;
  result.error = std::move(error);
  result.seed = seed;
  return result;
}

namespace {

// A record as JSON by its schema, and back strictly; errors name `origin` and the JSON path.
template <class T>
Json ToJson(const T& value) {
  Json json;
  json::EncodeFields(json, value);
  return json;
}

template <class T>
T FromJson(const Json& json, const std::string& origin) {
  T value;
  try {
    json::DecodeFields(json, "", &value);
  } catch (const json::DecodeError& error) {
    throw ResultError(origin + ": " + error.what());
  }
  return value;
}

}  // namespace

Json ResultToJson(const ScenarioResult& result) { return ToJson(result); }

ScenarioResult ResultFromJson(const Json& json, const std::string& origin) {
  return FromJson<ScenarioResult>(json, origin);
}

Json TimingToJson(const ScenarioTiming& timing) { return ToJson(timing); }

ScenarioTiming TimingFromJson(const Json& json, const std::string& origin) {
  return FromJson<ScenarioTiming>(json, origin);
}

}  // namespace asg::results
